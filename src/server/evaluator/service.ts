import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { BackgroundService, ServiceContext } from '../start-server.js';
import { startEvaluator } from './evaluator.js';
import { withEvaluationLeases } from './leased-store.js';
import { adaptStore } from './store-adapter.js';
import { parseDestinationPolicy } from '../net/destination-policy.js';

/**
 * How long an evaluation lease lasts, in intervals: renewed every cycle, so 1.5 leaves half an interval for a late
 * cycle; a dead replica's partitions are taken at the first cycle of another after that (at most 2.5 intervals).
 */
const LEASE_INTERVALS = 1.5;

/**
 * The evaluation loop as a server background service, configured from the server's options: graphiteUrl,
 * evalIntervalSeconds (default 30), smtpUrl, smtpFrom, notifierUrls ({pagerduty, opsgenie, victorops}) and
 * delivery (retry policy, poll interval). It runs the outbox's delivery worker too, which resumes what an earlier
 * process left pending. Closing it waits for the running cycle and gives deliveries in flight a few seconds.
 */
export function startEvaluatorService(context: ServiceContext): BackgroundService {
  const { options, logger, store } = context;
  if (!options.graphiteUrl) throw new Error('the evaluator needs graphiteUrl');
  const urls = options.notifierUrls ?? {};
  const intervalSeconds = options.evalIntervalSeconds ?? 30;
  // Replicas on one PostgreSQL share the alerts through leases; on SQLite this one replica holds everything.
  const replica = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const leased = withEvaluationLeases(store, { replica, ttlMs: intervalSeconds * 1000 * LEASE_INTERVALS });
  const evaluator = startEvaluator({
    store: adaptStore(leased),
    outbox: store,
    ...(options.delivery?.retry ? { retry: options.delivery.retry } : {}),
    // Short retry settings (tests, impatient setups) need a worker that looks at least as often.
    deliveryPollMs: options.delivery?.pollMs ?? Math.min(1_000, Math.max(50, options.delivery?.retry?.firstDelayMs ?? 1_000)),
    graphiteUrl: options.graphiteUrl,
    intervalSeconds,
    notifiers: {
      ...(urls.pagerduty ? { pagerdutyUrl: urls.pagerduty } : {}),
      ...(urls.opsgenie ? { opsgenieUrl: urls.opsgenie } : {}),
      ...(urls.victorops ? { victoropsUrl: urls.victorops } : {}),
      ...(options.smtpUrl ? { smtpUrl: options.smtpUrl } : {}),
      ...(options.smtpFrom ? { smtpFrom: options.smtpFrom } : {}),
      ...(options.delivery?.timeoutMs ? { timeoutMs: options.delivery.timeoutMs } : {}),
      destinations: parseDestinationPolicy(options.allowPrivateDestinations),
    },
    logger: logger.child({ component: 'evaluator' }),
    ...(options.now ? { now: options.now } : {}),
    onCycle: (report, lagMs) => context.metrics?.observeCycle(report.durationMs / 1000, lagMs / 1000, report.failedQueries),
  });
  // The outbox is the truth about deliveries: pending ones (whoever will send them) and dead-lettered ones.
  context.metrics?.setDeliverySource(async () => {
    const counts = await store.countDeliveriesByChannelType();
    return { pending: counts.pending, failed: counts.dead };
  });
  const intervalMs = intervalSeconds * 1000;
  logger.info({ intervalSeconds, replica }, 'evaluator started');
  return {
    async close() {
      await evaluator.stop();
      // After the last cycle: hand the partitions over now rather than when the lease expires (a rolling restart).
      await store.releaseEvaluationLeases(replica).catch((error: Error) => logger.warn({ error: error.message }, 'could not release evaluation leases'));
    },
    // Running: not stopped, and a cycle started within three intervals (a stuck loop starts none).
    readiness: () => {
      const { running, lastCycleStartedAt } = evaluator.state();
      const sinceLast = lastCycleStartedAt === null ? 0 : Date.now() - lastCycleStartedAt;
      if (!running) return { name: 'evaluator', ready: false, detail: 'stopped' };
      if (sinceLast > 3 * intervalMs) return { name: 'evaluator', ready: false, detail: `no cycle started for ${Math.round(sinceLast / 1000)} s` };
      return { name: 'evaluator', ready: true };
    },
  };
}
