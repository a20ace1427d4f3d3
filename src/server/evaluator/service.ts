import type { BackgroundService, ServiceContext } from '../start-server.js';
import { startEvaluator } from './evaluator.js';
import { adaptStore } from './store-adapter.js';
import { parseDestinationPolicy } from '../net/destination-policy.js';

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
  const evaluator = startEvaluator({
    store: adaptStore(store),
    outbox: store,
    ...(options.delivery?.retry ? { retry: options.delivery.retry } : {}),
    // Short retry settings (tests, impatient setups) need a worker that looks at least as often.
    deliveryPollMs: options.delivery?.pollMs ?? Math.min(1_000, Math.max(50, options.delivery?.retry?.firstDelayMs ?? 1_000)),
    graphiteUrl: options.graphiteUrl,
    intervalSeconds: options.evalIntervalSeconds ?? 30,
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
  const intervalMs = (options.evalIntervalSeconds ?? 30) * 1000;
  logger.info({ intervalSeconds: intervalMs / 1000 }, 'evaluator started');
  return {
    close: () => evaluator.stop(),
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
