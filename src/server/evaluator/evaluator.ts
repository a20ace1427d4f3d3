import type { Logger } from 'pino';
import { createGraphiteClient } from '../../graphite/index.js';
import { LeaseLost, type EvaluationStore } from '../store/evaluation-store.js';
import { runEvaluationCycle, type CycleFeed, type CycleReport } from './run-cycle.js';
import type { ReplicaLeases } from './round-lease.js';
import type { NoDataPolicy } from '../../evaluation/no-data.js';

/** How `alertform serve` runs the evaluator. */
export interface EvaluatorOptions {
  store: EvaluationStore;
  /** This replica's evaluation leases (absent: every alert, saves not fenced). */
  leases?: ReplicaLeases;
  /** Told after a cycle wrote deliveries to the outbox (the server wakes its delivery service). */
  onDeliveriesWritten?: () => void;
  /** graphite-web root (or anything speaking its render API). */
  graphiteUrl: string;
  /** Seconds between the starts of two cycles. Default 30. */
  intervalSeconds?: number;
  /** The server's settle delay in seconds, for alerts without their own (run-cycle.ts). Default 0. */
  settleSeconds?: number;
  /** Render request timeout. Default 10 000 ms. */
  graphiteTimeoutMs?: number;
  logger?: Logger;
  /** The clock, in ms (tests). */
  now?: () => number;
  /** Told after each scheduled cycle: its report, and how late it started after it was due (ms). */
  onCycle?: (report: CycleReport, lagMs: number) => void;
  /** What no data does for an alert whose on_no_data is null; default ignore. */
  defaultOnNoData?: NoDataPolicy;
  /**
   * Told after each scheduled cycle that failed (the store did not answer or did not save). Not for a cycle whose
   * lease ran out (`LeaseLost`): that one is given up, and told to onCycleGivenUp (see schedule below).
   */
  onCycleFailed?: (error: Error) => void;
  /** Told after each scheduled cycle given up because its lease ran out: nothing of it was saved or sent. */
  onCycleGivenUp?: (error: LeaseLost) => void;
  /** The metric stream: alerts it can judge are fed from it (server/stream/stream-evaluator.ts). */
  feed?: CycleFeed;
  /** Told after each cycle the stream asked for (judgeSoon): its report. */
  onStreamCycle?: (report: CycleReport) => void;
}

/** A running evaluator. */
export interface RunningEvaluator {
  /** Runs a cycle now (waiting for a running one to end first); cycles never overlap. */
  runCycle(): Promise<CycleReport>;
  /**
   * Brings the next scheduled cycle forward to now (or to the end of the one running), and counts the interval
   * from there: for alerts that just became this replica's (a lease taken over), which would otherwise wait.
   */
  runSoon(): void;
  /**
   * Judges these alerts now, in a cycle of their own (after the running one): the stream completed their buckets.
   * Alerts asked for while a cycle runs are judged together after it.
   */
  judgeSoon(alertIds: ReadonlySet<string>): void;
  /** Stops scheduling and waits for the running cycle. */
  stop(): Promise<void>;
  /** Whether the loop is scheduled (not stopped), and when (epoch ms) the last scheduled cycle started. */
  state(): { running: boolean; lastCycleStartedAt: number | null };
}

/**
 * Starts the evaluation loop: a cycle right away, then one every `intervalSeconds`, counted from the start of the
 * previous cycle; a cycle that runs long delays the next one instead of overlapping it.
 */
export function startEvaluator(options: EvaluatorOptions): RunningEvaluator {
  const intervalMs = (options.intervalSeconds ?? 30) * 1000;
  const logger = options.logger;
  const graphite = createGraphiteClient({ baseUrl: options.graphiteUrl, timeoutMs: options.graphiteTimeoutMs ?? 10_000 });

  let running: Promise<CycleReport> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const runCycle = async (only?: ReadonlySet<string>): Promise<CycleReport> => {
    while (running) await running.catch(() => undefined);
    running = runEvaluationCycle({
      ...(options.feed ? { feed: options.feed } : {}),
      ...(only ? { only } : {}),
      store: options.store,
      ...(options.leases ? { leases: options.leases } : {}),
      graphite,
      ...(options.settleSeconds !== undefined ? { settleSeconds: options.settleSeconds } : {}),
      ...(options.onDeliveriesWritten ? { onDeliveriesWritten: options.onDeliveriesWritten } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(logger ? { logger } : {}),
      ...(options.defaultOnNoData ? { defaultOnNoData: options.defaultOnNoData } : {}),
    });
    try {
      const report = await running;
      if (only) return report;
      if (report.durationMs > intervalMs) {
        logger?.warn({ ...report, intervalSeconds: intervalMs / 1000 }, 'evaluation cycle took longer than the interval');
      } else if (report.transitions > 0 || report.failedQueries > 0) {
        logger?.info(report, 'evaluation cycle');
      }
      return report;
    } finally {
      running = null;
    }
  };

  let lastCycleStartedAt: number | null = null;
  let ticking = false;
  let soon = false;
  /** `due`: when the cycle should start (epoch ms); a long previous cycle can make it already past. */
  const schedule = (due: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      const started = Date.now();
      lastCycleStartedAt = started;
      ticking = true;
      soon = false;
      runCycle()
        .then((report) => options.onCycle?.(report, started - due))
        .catch((error: Error) => {
          // A lease that ran out before the cycle's list came back, or before its save (a slow answer, a stalled
          // process, another replica's takeover): nothing is wrong with the store, the partitions are judged at the
          // next cycle by whoever holds them, and nothing of this one was saved or sent. Not a failed cycle: on a
          // busy machine at a short interval it would flap the evaluation health and repeat its change's warning.
          // A lease lost cycle after cycle ends no cycle, which the health calls stalled.
          if (error instanceof LeaseLost) {
            logger?.warn({ partitions: error.partitions }, 'evaluation cycle gave up: its lease ran out before it listed or saved; the next cycle judges these partitions');
            return options.onCycleGivenUp?.(error);
          }
          logger?.error({ error: error.message }, 'evaluation cycle failed');
          options.onCycleFailed?.(error);
        })
        .finally(() => {
          ticking = false;
          schedule(soon ? Date.now() : started + intervalMs);
        });
    }, Math.max(0, due - Date.now()));
  };
  schedule(Date.now());

  /** Alerts the stream asked to judge, not yet in a cycle. */
  let asked = new Set<string>();
  let judging = false;
  const judgeAsked = async () => {
    judging = true;
    try {
      while (asked.size > 0 && !stopped) {
        const only = asked;
        asked = new Set();
        try {
          options.onStreamCycle?.(await runCycle(only));
        } catch (error) {
          // A lease lost or the store away: the scheduled cycles judge these alerts again.
          logger?.warn({ error: (error as Error).message, alerts: only.size }, 'a stream evaluation failed');
        }
      }
    } finally {
      judging = false;
    }
  };

  return {
    runCycle: () => runCycle(),
    judgeSoon(alertIds) {
      if (stopped) return;
      for (const id of alertIds) asked.add(id);
      if (!judging) void judgeAsked();
    },
    runSoon() {
      if (stopped) return;
      if (ticking) {
        soon = true;
        return;
      }
      if (timer) clearTimeout(timer);
      schedule(Date.now());
    },
    state: () => ({ running: !stopped, lastCycleStartedAt }),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
