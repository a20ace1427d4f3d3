import { randomBytes } from 'node:crypto';
import { DEFAULT_SETTLE_SECONDS } from '../../model/defaults.js';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { BackgroundService, ServiceContext } from '../start-server.js';
import { startEvaluator } from './evaluator.js';
import { replicaLeases, type ReplicaLeases } from './round-lease.js';
import { maskPingUrl, startHeartbeat } from './heartbeat.js';
import { parseDestinationPolicy } from '../net/destination-policy.js';
import { startStreamParts } from '../stream/stream-judge-service.js';

/**
 * Evaluation leases last one interval and are renewed four times an interval (and at every cycle), so a replica
 * that dies loses its partitions within an interval; a live one takes them at its next heartbeat and evaluates them
 * at once, so a dead replica's alerts are evaluated again within 1.25 intervals plus a cycle's time. A live replica
 * loses a lease only when no heartbeat of it reaches the database for three quarters of an interval.
 */
const LEASE_INTERVALS = 1;
const HEARTBEATS_PER_INTERVAL = 4;

/**
 * The evaluation loop as a server background service, configured from the server's options: graphiteUrl and
 * evalIntervalSeconds (default 30). Its cycles write notifications to the outbox and wake the server's delivery
 * service (`context.deliveries`), which sends them. Closing it waits for the running cycle, then hands its
 * evaluation leases over.
 */
export function startEvaluatorService(context: ServiceContext): BackgroundService {
  const { options, logger, store } = context;
  if (!options.graphiteUrl) throw new Error('the evaluator needs graphiteUrl');
  const intervalSeconds = options.evalIntervalSeconds ?? 30;
  // Replicas on one PostgreSQL share the alerts through leases; on SQLite this one replica holds everything.
  const replica = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const leases = replicaLeases(store.evaluation, { replica, ttlMs: intervalSeconds * 1000 * LEASE_INTERVALS });
  const ping = options.heartbeatUrl
    ? startHeartbeat({
        url: options.heartbeatUrl,
        policy: parseDestinationPolicy(options.allowPrivateDestinations),
        // Short, and never longer than a cycle: one ping at most is in flight.
        timeoutMs: Math.min(5_000, intervalSeconds * 1000),
        logger: logger.child({ component: 'heartbeat' }),
        onPing: (outcome) => context.metrics?.observeHeartbeat(outcome),
        onUnhealthy: (reason) => context.metrics?.observeUnhealthyCycle(reason),
      })
    : undefined;
  const settleSeconds = options.settleDelaySeconds ?? DEFAULT_SETTLE_SECONDS;
  // With a carbon listener, the stream judges what it can; render polling stays for the rest and as the fallback.
  const stream =
    context.stream && context.carbon
      ? startStreamParts({
          ingest: context.stream,
          receiver: context.carbon,
          settleSeconds,
          logger,
          ...(options.streamFlow ? { flow: options.streamFlow } : {}),
          ...(context.metrics ? { metrics: context.metrics } : {}),
        })
      : undefined;
  if (stream && context.evaluation) context.evaluation.evaluatedBy = (alert) => stream.evaluator.evaluatedBy(alert);
  const evaluator = startEvaluator({
    ...(stream ? { feed: stream.evaluator, onStreamCycle: (report) => {
      stream.afterStreamCycle(report);
      context.metrics?.observeCycle(report.durationMs / 1000, 0, report.failedQueries, report.transitionsTo);
    } } : {}),
    store: store.evaluation,
    leases,
    ...(context.deliveries ? { onDeliveriesWritten: () => context.deliveries!.wake() } : {}),
    graphiteUrl: options.graphiteUrl,
    intervalSeconds,
    settleSeconds,
    logger: logger.child({ component: 'evaluator' }),
    ...(options.now ? { now: options.now } : {}),
    ...(options.onNoData ? { defaultOnNoData: options.onNoData } : {}),
    onCycle: (report, lagMs) => {
      context.metrics?.observeCycle(report.durationMs / 1000, lagMs / 1000, report.failedQueries, report.transitionsTo, report.deferred);
      context.evaluation?.afterCycle(report);
      ping?.afterCycle(report);
    },
    onCycleFailed: (error) => {
      context.evaluation?.afterFailedCycle(error);
      ping?.afterFailedCycle();
    },
    // No evaluation happened, so no ping; the health's condition stays (see evaluator.ts).
    onCycleGivenUp: () => ping?.afterFailedCycle('lease_lost'),
  });
  stream?.bindJudge((ids) => evaluator.judgeSoon(ids));
  const intervalMs = intervalSeconds * 1000;
  const heartbeat = startLeaseHeartbeat(leases, intervalMs / HEARTBEATS_PER_INTERVAL, () => evaluator.runSoon(), logger);
  // The ping URL is a secret: its origin only.
  logger.info({ intervalSeconds, replica, ...(options.heartbeatUrl ? { heartbeat: maskPingUrl(options.heartbeatUrl) } : {}) }, 'evaluator started');
  return {
    async close() {
      await heartbeat.stop();
      await stream?.close();
      await evaluator.stop();
      await ping?.stop();
      // After the last cycle: hand the partitions over now rather than when the lease expires (a rolling restart).
      await leases.release().catch((error: Error) => logger.warn({ error: error.message }, 'could not release evaluation leases'));
    },
    // Running: not stopped, and a cycle started within three intervals (a stuck loop starts none).
    readiness: () => {
      const { running, lastCycleStartedAt } = evaluator.state();
      const sinceLast = lastCycleStartedAt === null ? 0 : Date.now() - lastCycleStartedAt;
      if (!running) return { name: 'evaluator', ready: false, detail: 'stopped' };
      if (sinceLast > 3 * intervalMs) return { name: 'evaluator', ready: false, detail: `no cycle started for ${Math.round(sinceLast / 1000)} s` };
      // Ready, and loud when the stream has fallen back to polling or its flow dropped.
      const streamDetail = stream?.readiness().detail;
      return streamDetail ? { name: 'evaluator', ready: true, detail: streamDetail } : { name: 'evaluator', ready: true };
    },
  };
}

/**
 * Renews the leases every `everyMs` between cycles; when a heartbeat takes partitions (a dead or departed
 * replica's), `onGained` runs a cycle for them now. Stops on a single-node store, where leases mean nothing.
 */
function startLeaseHeartbeat(leases: ReplicaLeases, everyMs: number, onGained: () => void, logger: Logger): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> = Promise.resolve();
  let stopped = false;
  const beat = async () => {
    try {
      if (await leases.heartbeat()) onGained();
    } catch (error) {
      // The database is away: the next beat tries again; the cycle's own acquire fails and logs meanwhile.
      logger.warn({ error: (error as Error).message }, 'evaluation lease heartbeat failed');
    }
    if (!stopped && leases.shared()) timer = setTimeout(() => (beating = beat()), everyMs);
  };
  timer = setTimeout(() => (beating = beat()), everyMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await beating;
    },
  };
}
