import type { Logger } from 'pino';
import { createGraphiteClient } from '../../graphite/index.js';
import { createDeliveryQueue, type DeliveryQueue } from '../notifiers/delivery-queue.js';
import { sendNotification } from '../notifiers/send.js';
import { DEFAULT_NOTIFIER_SETTINGS, type NotifierSettings } from '../notifiers/types.js';
import type { EvaluationStore } from './evaluation-store.js';
import { runEvaluationCycle, type CycleReport } from './run-cycle.js';

/** How `alertform serve` runs the evaluator. */
export interface EvaluatorOptions {
  store: EvaluationStore;
  /** graphite-web root (or anything speaking its render API). */
  graphiteUrl: string;
  /** Seconds between the starts of two cycles. Default 30. */
  intervalSeconds?: number;
  /** Render request timeout. Default 10 000 ms. */
  graphiteTimeoutMs?: number;
  notifiers?: Partial<NotifierSettings>;
  /** Waits before delivery retries (ms). Default [1 000, 5 000, 30 000]. */
  retryDelaysMs?: number[];
  logger?: Logger;
  /** The clock, in ms (tests). */
  now?: () => number;
  /** Told after each scheduled cycle: its report, and how late it started after it was due (ms). */
  onCycle?: (report: CycleReport, lagMs: number) => void;
}

/** A running evaluator. */
export interface RunningEvaluator {
  /** Runs a cycle now (waiting for a running one to end first); cycles never overlap. */
  runCycle(): Promise<CycleReport>;
  /** Stops scheduling, waits for the running cycle and for queued deliveries (up to `graceMs`). */
  stop(graceMs?: number): Promise<void>;
  deliveries: DeliveryQueue;
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
  const settings: NotifierSettings = { ...DEFAULT_NOTIFIER_SETTINGS, ...options.notifiers };
  const graphite = createGraphiteClient({ baseUrl: options.graphiteUrl, timeoutMs: options.graphiteTimeoutMs ?? 10_000 });
  const deliveries = createDeliveryQueue({
    send: (channel, notification, signal) => sendNotification(channel, notification, settings, signal),
    onOutcome: (channel, error) => {
      void Promise.resolve(
        options.store.setChannelLastError(channel.id, error === null ? null : { time: Math.floor(Date.now() / 1000), message: error }),
      ).catch((failure: Error) => logger?.error({ channel: channel.id, error: failure.message }, 'could not store delivery error'));
    },
    attemptTimeoutMs: settings.timeoutMs,
    ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
    ...(logger ? { logger } : {}),
  });

  let running: Promise<CycleReport> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const runCycle = async (): Promise<CycleReport> => {
    while (running) await running.catch(() => undefined);
    running = runEvaluationCycle({
      store: options.store,
      graphite,
      deliveries,
      ...(options.now ? { now: options.now } : {}),
      ...(logger ? { logger } : {}),
    });
    try {
      const report = await running;
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
  /** `due`: when the cycle should start (epoch ms); a long previous cycle can make it already past. */
  const schedule = (due: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      const started = Date.now();
      lastCycleStartedAt = started;
      runCycle()
        .then((report) => options.onCycle?.(report, started - due))
        .catch((error: Error) => logger?.error({ error: error.message }, 'evaluation cycle failed'))
        .finally(() => schedule(started + intervalMs));
    }, Math.max(0, due - Date.now()));
  };
  schedule(Date.now());

  return {
    runCycle,
    deliveries,
    state: () => ({ running: !stopped, lastCycleStartedAt }),
    async stop(graceMs = 5_000) {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        deliveries.idle(),
        new Promise<void>((resolve) => {
          graceTimer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(graceTimer);
    },
  };
}
