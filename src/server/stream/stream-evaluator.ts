import type { Logger } from 'pino';
import type { RenderResult, RenderSeries } from '../../graphite/index.js';
import type { FetchedSeries } from '../../graphite-functions/index.js';
import type { EvaluationAlert } from '../store/evaluation-store.js';
import type { Criterion } from '../../evaluation/judge-alert.js';
import { historyQueryRange, queryRangeMinutes } from '../../evaluation/criteria.js';
import { BucketCompletion } from '../../stream/bucket-completion.js';
import { FlowWatch, type FlowState } from '../../stream/flow-watch.js';
import type { MatchedPoint, StreamIngest } from '../../stream/stream-ingest.js';
import { compileGraphitePattern, type GraphiteMatcher } from '../../model/graphite-target/glob.js';
import { isInsidePrefixes } from '../../model/metric-prefixes.js';
import type { CycleFeed, FeedRoute } from '../evaluator/run-cycle.js';
import type { CriterionInput } from '../evaluator/judge-one-alert.js';
import { compileTarget, evaluateTarget, isLocallyEvaluable, lookbackSecondsOf, seriesPathsOf, type CompiledTarget } from '../../graphite-functions/index.js';

/** The shortest silence of the receiver (no connection) that makes its alerts poll, seconds. */
const MIN_SILENCE_SECONDS = 10;

/** One criterion of a streamed alert: its target, the path expressions it reads, and the series seen for each. */
interface StreamCriterion {
  target: string;
  /** Seconds of data its window needs (its query range). */
  rangeSeconds: number;
  /** Seconds before the range its functions read (movingAverage and the like). */
  lookbackSeconds: number;
  paths: { expression: string; matcher: GraphiteMatcher | null; members: Set<string> }[];
  /** The target parsed once, at subscription: a cycle of 10,000 alerts must not parse 10,000 targets again. */
  compiled: CompiledTarget | null;
}

/** An alert the stream judges (the ingest's subscriber). */
export interface StreamAlert {
  id: string;
  /**
   * Its criteria's targets and ranges and its account's metric prefixes: a change of any re-subscribes it (its
   * series learnt under the old ones forgotten) and warms it again.
   */
  signature: string;
  criteria: StreamCriterion[];
  settleSeconds: number;
  /** Its account's metric prefixes (null: not confined): it is given only the paths inside them. */
  prefixes: readonly string[] | null;
  /** Whether its rings hold its history (warmed from render since it was subscribed or the stream came back). */
  warm: boolean;
  /** The completion point (unix seconds) it was last judged at: a completion beyond it judges it again. */
  judgedUntil: number;
}

/** What the stream evaluator reads of the carbon receiver. */
export interface ReceiverClock {
  /** When a connection was last open (now while one is), epoch ms; null when none ever was. */
  lastConnectedAt(): number | null;
}

export interface StreamEvaluatorOptions {
  ingest: StreamIngest<StreamAlert>;
  receiver: ReceiverClock;
  /** Asks for a cycle of just these alerts: their buckets completed (evaluator.ts judgeSoon). */
  judgeSoon(alertIds: ReadonlySet<string>): void;
  /** The server's settle delay (seconds): a receiver without a connection this long makes its alerts poll. */
  settleSeconds: number;
  logger?: Logger;
  /** Series whose completion is tracked; default 1,000,000. */
  maxSeries?: number;
  /** The clock, epoch ms (tests). */
  now?: () => number;
  flow?: FlowWatch;
}

/** Figures for /metrics and /readyz. */
export interface StreamStatus {
  /** Whether the stream is not used: the receiver has had no connection for longer than the settle delay. */
  fallback: boolean;
  flow: FlowState;
  /** Alerts of this replica judged from the stream and from render at the last full cycle. */
  evaluated: { stream: number; render: number };
  warmups: number;
  confirmations: number;
  completions: number;
}

/**
 * Judges stream-evaluable alerts on the metric stream: the cycle's feed (run-cycle.ts CycleFeed). An alert whose
 * every query the local function engine evaluates is subscribed to the stream when a cycle of this replica first
 * lists it (at start, on a partition taken over, on create or a query change) and warmed from render once: its raw
 * series are rendered and put in the rings. From then on it costs Graphite nothing: each cycle judges it on the
 * rings, up to the end of its complete buckets (bucket-completion.ts), and a bucket completing between cycles asks
 * for a cycle of it alone at once, so a breach pages within seconds of its data while a late collector cannot
 * make a false transition. The judging itself, the fenced save and the outbox are the cycle's, as for polling.
 *
 * Falls back to render, loudly: when the receiver has had no connection for longer than the settle delay, and,
 * alert by alert, when the whole flow drops at once (a half-failed relay) and some of its series went silent:
 * those are confirmed against render (which also fills their rings) before anything is called no data.
 */
export class StreamEvaluator implements CycleFeed {
  readonly completion: BucketCompletion;
  private readonly subscribed = new Map<string, StreamAlert>();
  private readonly flow: FlowWatch;
  private readonly now: () => number;
  private readonly startedAt: number;
  private fallingBack = false;
  private flowState: FlowState = { dropped: false, since: null, perMinute: 0, baselinePerMinute: null };
  private flowCheckedAt = 0;
  private evaluated = { stream: 0, render: 0 };
  private counting = { stream: 0, render: 0 };
  private warmups = 0;
  private confirmations = 0;
  private completions = 0;

  constructor(private readonly options: StreamEvaluatorOptions) {
    this.completion = new BucketCompletion({ maxSeries: options.maxSeries ?? 1_000_000 });
    this.flow = options.flow ?? new FlowWatch();
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    options.ingest.onMatched((matched) => this.onMatched(matched));
  }

  /** Counts a batch of received points for the flow watch (every point, matched or not). */
  countPoints(count: number): void {
    this.flow.count(count, this.now());
  }

  /** Whether the stream judges this alert (`evaluated_by`): its queries are local, and the stream is not fallen back. */
  evaluatedBy(alert: { metric: string; alertCriteria: Criterion['criteria']; additionalCriteria?: Record<string, { metric: string }> | null }): 'stream' | 'render' {
    if (this.fallingBack) return 'render';
    const metrics = [alert.metric, ...Object.values(alert.additionalCriteria ?? {}).map((one) => one.metric)];
    if (historyQueryRange(alert.alertCriteria)) return 'render';
    return metrics.every((metric) => isLocal(metric)) ? 'stream' : 'render';
  }

  status(): StreamStatus {
    return { fallback: this.fallingBack, flow: this.flowState, evaluated: this.evaluated, warmups: this.warmups, confirmations: this.confirmations, completions: this.completions };
  }

  route(alert: EvaluationAlert, criteria: readonly Criterion[], settleSeconds: number, nowMs: number): FeedRoute {
    this.refresh(nowMs);
    if (this.fallingBack || !streamable(criteria)) {
      this.drop(alert.id);
      this.counting.render += 1;
      return { mode: 'render' };
    }
    this.counting.stream += 1;
    const prefixes = alert.metricPrefixes && alert.metricPrefixes.length > 0 ? alert.metricPrefixes : null;
    const signature = [
      ...criteria.map((one) => `${one.letter}\u0000${one.metric}\u0000${queryRangeMinutes(one.criteria)}`),
      `prefixes\u0000${prefixes?.join('\u0000') ?? ''}`,
    ].join('\u0001');
    let sub = this.subscribed.get(alert.id);
    if (!sub || sub.signature !== signature) sub = this.subscribe(alert.id, signature, criteria, settleSeconds, prefixes);
    sub.settleSeconds = settleSeconds;
    if (!sub.warm) return this.warmRoute(sub, nowMs, false);
    // A half-failed relay: series that went silent with it are asked of render before they could be no data.
    if (this.flowState.dropped && this.hasSilentSeries(sub, nowMs / 1000)) return this.warmRoute(sub, nowMs, true);
    const ready = sub;
    // Judged at the cycle's time, as the rules judge it (run-cycle.ts): the listing may have taken this cycle into
    // the next second, and a settle delay counted from that later clock would end the window a bucket early.
    return { mode: 'stream', inputs: () => this.inputs(ready, Math.floor(nowMs / 1000)) };
  }

  listed(alertIds: ReadonlySet<string>): void {
    for (const id of [...this.subscribed.keys()]) if (!alertIds.has(id)) this.drop(id);
    this.evaluated = this.counting;
    this.counting = { stream: 0, render: 0 };
    this.options.ingest.sweep(Math.floor(this.now() / 1000));
  }

  /** Lets go of every alert (the service closes). */
  close(): void {
    for (const id of [...this.subscribed.keys()]) this.drop(id);
  }

  /** Fallback and flow state, at most once a second; says each change in the log. */
  private refresh(nowMs: number): void {
    if (nowMs - this.flowCheckedAt < 1000) return;
    this.flowCheckedAt = nowMs;
    const connected = this.options.receiver.lastConnectedAt() ?? this.startedAt;
    const silentFor = nowMs - Math.max(connected, this.startedAt);
    // At least 10 s: a relay reconnecting is no outage, even with no settle delay.
    const falling = silentFor > Math.max(this.options.settleSeconds, MIN_SILENCE_SECONDS) * 1000;
    if (falling !== this.fallingBack) {
      this.fallingBack = falling;
      if (falling) {
        this.options.logger?.warn({ silentSeconds: Math.round(silentFor / 1000) }, 'the carbon receiver has had no connection for longer than the settle delay: stream alerts are polled from render until the stream is back');
        // Their rings have a gap now: each warms from render again when the stream is back.
        for (const sub of this.subscribed.values()) sub.warm = false;
      } else {
        this.options.logger?.warn('the carbon receiver has a connection again: stream alerts warm from render and are judged on the stream');
      }
    }
    const before = this.flowState.dropped;
    this.flowState = this.flow.check(nowMs);
    if (this.flowState.dropped && !before) {
      this.options.logger?.warn(
        { perMinute: this.flowState.perMinute, baselinePerMinute: this.flowState.baselinePerMinute },
        'the metric stream dropped by a large share at once (a relay half failing?): alerts whose series went silent are confirmed against render before any is called no data',
      );
    } else if (!this.flowState.dropped && before) {
      this.options.logger?.warn({ perMinute: this.flowState.perMinute }, 'the metric stream flows again');
    }
  }

  private subscribe(id: string, signature: string, criteria: readonly Criterion[], settleSeconds: number, prefixes: readonly string[] | null): StreamAlert {
    const sub: StreamAlert = {
      id,
      signature,
      settleSeconds,
      prefixes,
      warm: false,
      judgedUntil: 0,
      criteria: criteria.map((one) => {
        const compiled = compileOrNull(one.metric);
        return {
          target: one.metric,
          rangeSeconds: queryRangeMinutes(one.criteria) * 60,
          // Counted with minutely data, the coarsest the stream usually carries: finer data needs less.
          lookbackSeconds: compiled ? compiled.lookbackSeconds(60) : lookbackSecondsOf(one.metric, 60),
          paths: (compiled ? compiled.paths : seriesPathsOf(one.metric)).map((expression) => ({ expression, matcher: globMatcher(expression), members: new Set<string>() })),
          compiled,
        };
      }),
    };
    const old = this.subscribed.get(id);
    if (old) this.options.ingest.unsubscribe(old);
    const longest = Math.max(...sub.criteria.map((one) => one.rangeSeconds + one.lookbackSeconds));
    // The rings keep the window, the settle delay it may reach back by, and a minute more.
    // Confined to the account's prefixes as they are now: the matcher gives it no path outside them, whatever its glob.
    this.options.ingest.subscribe(sub, sub.criteria.flatMap((one) => one.paths.map((path) => path.expression)), prefixes, longest + settleSeconds + 60);
    this.subscribed.set(id, sub);
    return sub;
  }

  private drop(id: string): void {
    const sub = this.subscribed.get(id);
    if (!sub) return;
    this.options.ingest.unsubscribe(sub);
    this.subscribed.delete(id);
  }

  /** Render the alert's raw series (once per path expression), fill the rings with them, then judge on the rings. */
  private warmRoute(sub: StreamAlert, nowMs: number, confirming: boolean): FeedRoute {
    if (confirming) this.confirmations += 1;
    else this.warmups += 1;
    const queries: { target: string; fromMinutes: number }[] = [];
    const owners: StreamCriterion['paths'][number][] = [];
    for (const criterion of sub.criteria) {
      for (const path of criterion.paths) {
        queries.push({ target: path.expression, fromMinutes: Math.ceil((criterion.rangeSeconds + criterion.lookbackSeconds + sub.settleSeconds) / 60) + 1 });
        owners.push(path);
      }
    }
    return {
      mode: 'warm',
      queries,
      inputs: (answers) => {
        const failed = answers.find((answer): answer is Extract<RenderResult, { ok: false }> => !answer.ok);
        if (failed) return sub.criteria.map((): CriterionInput => ({ result: failed, settleSeconds: sub.settleSeconds }));
        answers.forEach((answer, i) => {
          if (!answer.ok) return;
          // Render answers the whole glob: what lies outside the account's prefixes is not the alert's to see.
          for (const series of answer.series) if (isInsidePrefixes(series.target, sub.prefixes)) this.learnSeries(owners[i]!, series);
        });
        sub.warm = true;
        // At the cycle's time, however long render took (see route).
        return this.inputs(sub, Math.floor(nowMs / 1000));
      },
    };
  }

  /** One rendered raw series: into the rings and the completion tracker, a member of its path expression. */
  private learnSeries(owner: StreamCriterion['paths'][number], series: RenderSeries): void {
    const { rings } = this.options.ingest;
    const retention = rings.retentionOf(series.target) ?? undefined;
    let step = Infinity;
    let previous: number | null = null;
    let last: number | null = null;
    for (const [value, time] of series.datapoints) {
      if (previous !== null && time - previous > 0 && time - previous < step) step = time - previous;
      previous = time;
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      rings.append(series.target, time, value, retention);
      last = time;
    }
    owner.members.add(series.target);
    if (Number.isFinite(step)) this.completion.learn(series.target, step, last);
  }

  /** The criteria's inputs from the rings: each judged up to where its data is complete. */
  private inputs(sub: StreamAlert, now: number): CriterionInput[] {
    let judgedUntil = Infinity;
    const inputs = sub.criteria.map((criterion): CriterionInput => {
      const members = criterion.paths.flatMap((path) => [...path.members]);
      const until = this.completion.completeUntil(members, now, sub.settleSeconds);
      judgedUntil = Math.min(judgedUntil, until);
      const from = until - criterion.rangeSeconds - 60;
      // The raw points, from the look-back on: the engine cuts each series to the range on its step, as whisper does.
      const fetch = (expression: string): FetchedSeries[] => {
        const path = criterion.paths.find((one) => one.expression === expression);
        return [...(path?.members ?? [])].sort().map((member) => {
          const step = this.completion.stepOf(member);
          const datapoints = this.options.ingest.rings.read(member, from - criterion.lookbackSeconds, until - 1);
          return step === null ? { target: member, datapoints } : { target: member, datapoints, step };
        });
      };
      // Data ends where the buckets are complete: judged as if the settle delay were exactly that far back.
      const settleSeconds = Math.max(0, now - until);
      try {
        const range = { from, until: until - 1 };
        return { result: { ok: true, series: criterion.compiled ? criterion.compiled.evaluate(fetch, range) : evaluateTarget(criterion.target, fetch, range) }, settleSeconds };
      } catch (error) {
        return { result: { ok: false, failure: { kind: 'invalid_target', message: (error as Error).message } }, settleSeconds };
      }
    });
    if (judgedUntil !== Infinity) sub.judgedUntil = judgedUntil;
    return inputs;
  }

  /** Whether any series of the alert has had no point for two of its steps (or 30 s), or it has none at all. */
  private hasSilentSeries(sub: StreamAlert, now: number): boolean {
    let any = false;
    for (const criterion of sub.criteria) {
      for (const path of criterion.paths) {
        for (const member of path.members) {
          any = true;
          const last = this.completion.lastPoint(member);
          const step = this.completion.stepOf(member) ?? 30;
          if (last === null || last < now - Math.max(2 * step, 30)) return true;
        }
      }
    }
    return !any;
  }

  /** Points matched to alerts: completion per series; alerts whose completion moved are judged at once. */
  private onMatched(matched: readonly MatchedPoint<StreamAlert>[]): void {
    let touched: Set<StreamAlert> | null = null;
    for (const { point, subscribers } of matched) {
      const advanced = this.completion.observe(point.path, point.timestamp);
      for (const sub of subscribers) {
        const joined = this.join(sub, point.path);
        if (advanced || joined) (touched ??= new Set()).add(sub);
      }
    }
    if (!touched) return;
    const now = Math.floor(this.now() / 1000);
    const due = new Set<string>();
    for (const sub of touched) {
      if (!sub.warm || this.subscribed.get(sub.id) !== sub) continue;
      let until = Infinity;
      for (const criterion of sub.criteria) {
        until = Math.min(until, this.completion.completeUntil(criterion.paths.flatMap((path) => [...path.members]), now, sub.settleSeconds));
      }
      if (until > sub.judgedUntil) due.add(sub.id);
    }
    if (due.size > 0) {
      this.completions += due.size;
      this.options.judgeSoon(due);
    }
  }

  /** Makes `path` a member of the alert's path expressions it matches; answers whether it is new. */
  private join(sub: StreamAlert, path: string): boolean {
    let joined = false;
    for (const criterion of sub.criteria) {
      for (const one of criterion.paths) {
        if (one.members.has(path)) continue;
        if (one.matcher ? one.matcher.test(path) : one.expression === path) {
          one.members.add(path);
          joined = true;
        }
      }
    }
    return joined;
  }
}

/** Whether every criterion is judged locally: its target's functions are the engine's, and it needs no 24 h history. */
function streamable(criteria: readonly Criterion[]): boolean {
  return criteria.every((one) => historyQueryRange(one.criteria) === null && isLocal(one.metric));
}

/** isLocallyEvaluable, remembered per target (asked for every alert at every cycle); bounded. */
const localTargets = new Map<string, boolean>();
function isLocal(target: string): boolean {
  let local = localTargets.get(target);
  if (local === undefined) {
    local = isLocallyEvaluable(target);
    if (localTargets.size >= 100_000) localTargets.clear();
    localTargets.set(target, local);
  }
  return local;
}

/** The target compiled, or null when it cannot be (evaluateTarget then says why, as an invalid target). */
function compileOrNull(target: string): CompiledTarget | null {
  try {
    return compileTarget(target);
  } catch {
    return null;
  }
}

function globMatcher(expression: string): GraphiteMatcher | null {
  return /[*?[{]/.test(expression) ? compileGraphitePattern(expression) : null;
}
