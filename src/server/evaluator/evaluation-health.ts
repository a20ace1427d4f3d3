import type { AlertCriteria } from '../../model/types.js';
import type { Logger } from 'pino';
import type { CycleReport } from './run-cycle.js';

/**
 * Whether evaluation works, for operators (GET /healthz/evaluation, /metrics' alertform_evaluation_healthy) and
 * for the one alert state (model/alert-state.ts: an alert nobody evaluates reads `not_evaluated`):
 * - `not_evaluating`: this process has no evaluator (no --graphite-url);
 * - `starting`: its first cycle has not ended yet;
 * - `stalled`: no cycle ended within three intervals, and at least 10 s (a stuck loop, a store that does not answer);
 * - `cycle_failed`: the last cycle failed (the store did not list or save);
 * - `graphite_failing`: the last cycle had queries and every one failed (Graphite down or unreachable);
 * - `queries_failing`: some of the last cycle's queries failed (those alerts read `query_failing`); still healthy;
 * - `healthy`.
 * A change of condition is logged once (a warning into trouble, info out of it), never every cycle.
 */
export type EvaluationCondition = 'healthy' | 'queries_failing' | 'graphite_failing' | 'cycle_failed' | 'stalled' | 'starting' | 'not_evaluating';

/** Conditions under which the evaluator still does its job (some alerts may read query_failing). */
const HEALTHY: ReadonlySet<EvaluationCondition> = new Set(['healthy', 'queries_failing']);

/** The body of GET /healthz/evaluation. */
export interface EvaluationHealthReport {
  status: EvaluationCondition;
  healthy: boolean;
  /** The last cycle that ended (this process's), unix seconds and figures; null before the first. */
  last_cycle: { ended_at: number; alerts: number; queries: number; failed_queries: number; deferred_alerts: number } | null;
  detail: string;
}

export interface EvaluationHealthOptions {
  /** Whether this process runs an evaluator. */
  evaluating: boolean;
  intervalSeconds?: number;
  logger?: Logger;
  /** The wall clock, epoch ms (tests). */
  now?: () => number;
  /**
   * Replicas evaluating now (store.countLiveEvaluators): asked by a process without an evaluator of its own, since
   * other replicas on the same PostgreSQL may evaluate its alerts. Absent: none.
   */
  liveEvaluators?: () => Promise<number>;
}

/** How this process evaluates an alert: on the metric stream, or by render polling. */
export type EvaluatedBy = 'stream' | 'render';

/** What decides an alert's `evaluated_by` (the stream evaluator, when the server receives a stream). */
export type EvaluatedByOracle = (alert: { metric: string; alertCriteria: AlertCriteria; additionalCriteria?: Record<string, { metric: string }> | null }) => EvaluatedBy;

export class EvaluationHealth {
  /** Set by the stream evaluator when the server receives a metric stream; null: every alert is polled from render. */
  evaluatedBy: EvaluatedByOracle | null = null;
  private lastCycle: EvaluationHealthReport['last_cycle'] = null;
  private lastEndedAt: number | null = null;
  private lastCondition: EvaluationCondition;
  private readonly startedAt: number;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private others: { at: number; live: Promise<boolean>; known?: boolean } | null = null;

  constructor(private readonly options: EvaluationHealthOptions) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.intervalMs = (options.intervalSeconds ?? 30) * 1000;
    this.lastCondition = options.evaluating ? 'starting' : 'not_evaluating';
    if (!options.evaluating) {
      options.logger?.warn('this server evaluates no alerts (no --graphite-url): every alert reads not_evaluated unless another replica evaluates');
    }
  }

  /** After a cycle that ended: its figures, and the change of condition logged. */
  afterCycle(report: Pick<CycleReport, 'alerts' | 'queries' | 'failedQueries'> & Partial<Pick<CycleReport, 'deferred'>>): void {
    this.lastEndedAt = this.now();
    this.lastCycle = {
      ended_at: Math.floor(this.lastEndedAt / 1000),
      alerts: report.alerts,
      queries: report.queries,
      failed_queries: report.failedQueries,
      deferred_alerts: report.deferred ?? 0,
    };
    const condition: EvaluationCondition =
      report.failedQueries === 0 ? 'healthy' : report.failedQueries >= report.queries ? 'graphite_failing' : 'queries_failing';
    this.change(condition, { queries: report.queries, failedQueries: report.failedQueries });
  }

  /** After a cycle that failed (the store). */
  afterFailedCycle(error: Error): void {
    this.change('cycle_failed', { error: error.message });
  }

  /** The condition now: the last cycle's, unless no cycle ended for three intervals. */
  condition(): EvaluationCondition {
    if (!this.options.evaluating) return 'not_evaluating';
    const since = this.now() - (this.lastEndedAt ?? this.startedAt);
    // At least 10 s: a busy machine may let a short test interval pass without a cycle, which is no stall.
    if (since > Math.max(3 * this.intervalMs, 10_000)) return this.change('stalled', { secondsSinceLastCycle: Math.round(since / 1000) });
    return this.lastCondition;
  }

  /** Whether anything evaluates this server's alerts now: this process's evaluator, or (without one) a live replica's. */
  async evaluating(): Promise<boolean> {
    if (this.options.evaluating) return this.condition() !== 'stalled';
    const ask = this.options.liveEvaluators;
    if (!ask) return false;
    // Asked at most every 5 s: every alert read needs the answer.
    const now = this.now();
    if (!this.others || now - this.others.at > 5_000) {
      const others: NonNullable<typeof this.others> = { at: now, live: ask().then((live) => live > 0, () => false) };
      void others.live.then((known) => (others.known = known));
      this.others = others;
    }
    return this.others.live;
  }

  /** evaluating() when it is known without waiting (the cached-read fast path); undefined: ask evaluating(). */
  evaluatingKnown(): boolean | undefined {
    if (this.options.evaluating) return this.condition() !== 'stalled';
    if (!this.options.liveEvaluators) return false;
    return this.others && this.now() - this.others.at <= 5_000 ? this.others.known : undefined;
  }

  report(): EvaluationHealthReport {
    const status = this.condition();
    return { status, healthy: HEALTHY.has(status), last_cycle: this.lastCycle, detail: DETAILS[status] };
  }

  /** Moves to `condition`, logging the change (once). */
  private change(condition: EvaluationCondition, fields: Record<string, unknown>): EvaluationCondition {
    if (condition === this.lastCondition) return condition;
    const logger = this.options.logger;
    if (condition === 'healthy') logger?.info({ ...fields, was: this.lastCondition }, 'evaluation healthy again');
    else logger?.warn({ ...fields, condition, was: this.lastCondition }, DETAILS[condition]);
    this.lastCondition = condition;
    return condition;
  }
}

const DETAILS: Record<EvaluationCondition, string> = {
  healthy: 'evaluation cycles run and Graphite answers',
  queries_failing: 'some Graphite queries fail: their alerts read query_failing',
  graphite_failing: 'every Graphite query fails: no alert can be judged (they read query_failing)',
  cycle_failed: 'the last evaluation cycle failed (the database did not list or save)',
  stalled: 'no evaluation cycle ended for three intervals',
  starting: 'the first evaluation cycle has not ended yet',
  not_evaluating: 'this server evaluates no alerts (no --graphite-url)',
};
