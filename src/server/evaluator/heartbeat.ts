import type { Logger } from 'pino';
import type { DestinationPolicy } from '../net/destination-policy.js';
import { guardedGet } from '../net/guarded-get.js';
import { VERSION } from '../../version.js';
import type { CycleReport } from './run-cycle.js';

/** What became of one healthy cycle's ping: sent (2xx), failed, or skipped because the previous one is in flight. */
export type HeartbeatOutcome = 'sent' | 'failed' | 'skipped';

/** Why a cycle earned no ping. */
export type UnhealthyReason = 'cycle_failed' | 'graphite_failed' | 'lease_lost';

export interface HeartbeatOptions {
  /** The dead man's switch's ping URL (a secret: it is never logged nor shown). */
  url: string;
  /** The server's destination policy (`--allow-private-destinations`), as for webhook deliveries. */
  policy: DestinationPolicy;
  /** Time limit of one ping, ms. */
  timeoutMs: number;
  logger?: Logger;
  /** Told about every healthy cycle's ping once it ends, and about every cycle that earned none. */
  onPing?: (outcome: HeartbeatOutcome) => void;
  onUnhealthy?: (reason: UnhealthyReason) => void;
}

/**
 * Whether a cycle that ran to its end (listed its alerts and saved its results: a store error fails the cycle
 * before this is asked) also heard from Graphite: at least one query answered when there were any. A cycle with no
 * query (no alerts, or none held by this replica) is healthy: the loop and the database are alive, and there is
 * nothing Graphite could have been asked.
 */
export function cycleIsHealthy(report: Pick<CycleReport, 'queries' | 'failedQueries'>): boolean {
  return report.queries === 0 || report.failedQueries < report.queries;
}

/** A running heartbeat. */
export interface Heartbeat {
  /** After a cycle ran to its end: pings when it was healthy, never waiting for the ping. */
  afterCycle(report: Pick<CycleReport, 'queries' | 'failedQueries'>): void;
  /** After a cycle that failed (the store did not answer or did not save) or was given up (its lease ran out): no ping. */
  afterFailedCycle(reason?: Exclude<UnhealthyReason, 'graphite_failed'>): void;
  /** Aborts a ping in flight and waits for it to settle. */
  stop(): Promise<void>;
}

/**
 * The dead man's switch (Alertmanager's Watchdog): a GET of the ping URL after every healthy evaluation cycle, so
 * a service such as healthchecks.io, Cronitor or Dead Man's Snitch pages when the pings stop: the server is down,
 * its evaluation loop is stuck, the database is away, or Graphite answers nothing. At most one ping is in flight: a
 * cycle that ends while the previous ping still waits skips its own (a slow switch never piles up requests).
 */
export function startHeartbeat(options: HeartbeatOptions): Heartbeat {
  let inFlight: { promise: Promise<void>; controller: AbortController } | null = null;
  let stopped = false;
  const logger = options.logger;

  const ping = () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    const promise = guardedGet(options.url, { policy: options.policy, signal: controller.signal, headers: { 'user-agent': `alertform/${VERSION} heartbeat` } })
      .then(
        () => options.onPing?.('sent'),
        (error: Error) => {
          // The message is a class of failure ("answered HTTP 5xx", "timed out"): never the URL.
          logger?.warn({ error: error.message }, 'heartbeat ping failed');
          options.onPing?.('failed');
        },
      )
      .finally(() => {
        clearTimeout(timer);
        inFlight = null;
      });
    inFlight = { promise, controller };
  };

  return {
    afterCycle(report) {
      if (stopped) return;
      if (!cycleIsHealthy(report)) {
        logger?.warn({ queries: report.queries, failedQueries: report.failedQueries }, 'no heartbeat: every Graphite query of the cycle failed');
        options.onUnhealthy?.('graphite_failed');
        return;
      }
      if (inFlight) {
        logger?.warn('heartbeat skipped: the previous ping is still waiting for an answer');
        options.onPing?.('skipped');
        return;
      }
      ping();
    },
    afterFailedCycle(reason = 'cycle_failed') {
      if (!stopped) options.onUnhealthy?.(reason);
    },
    async stop() {
      stopped = true;
      const current = inFlight;
      current?.controller.abort();
      await current?.promise;
    },
  };
}

/** The ping URL as logs and the console may show it: the origin only (the path and query are the secret). */
export function maskPingUrl(url: string): string {
  return `${new URL(url).origin}/…`;
}
