import type { BackgroundService, ServiceContext } from '../start-server.js';
import { startEvaluator } from './evaluator.js';
import { adaptStore } from './store-adapter.js';
import { parseDestinationPolicy } from '../net/destination-policy.js';

/**
 * The evaluation loop as a server background service, configured from the server's options: graphiteUrl,
 * evalIntervalSeconds (default 30), smtpUrl, smtpFrom and notifierUrls ({pagerduty, opsgenie, victorops}).
 * Closing it waits for the running cycle and gives queued deliveries a few seconds to finish.
 */
export function startEvaluatorService(context: ServiceContext): BackgroundService {
  const { options, logger, store } = context;
  if (!options.graphiteUrl) throw new Error('the evaluator needs graphiteUrl');
  const urls = options.notifierUrls ?? {};
  const evaluator = startEvaluator({
    store: adaptStore(store),
    graphiteUrl: options.graphiteUrl,
    intervalSeconds: options.evalIntervalSeconds ?? 30,
    notifiers: {
      ...(urls.pagerduty ? { pagerdutyUrl: urls.pagerduty } : {}),
      ...(urls.opsgenie ? { opsgenieUrl: urls.opsgenie } : {}),
      ...(urls.victorops ? { victoropsUrl: urls.victorops } : {}),
      ...(options.smtpUrl ? { smtpUrl: options.smtpUrl } : {}),
      ...(options.smtpFrom ? { smtpFrom: options.smtpFrom } : {}),
      destinations: parseDestinationPolicy(options.allowPrivateDestinations),
    },
    logger: logger.child({ component: 'evaluator' }),
    ...(options.now ? { now: options.now } : {}),
    onCycle: (report, lagMs) => context.metrics?.observeCycle(report.durationMs / 1000, lagMs / 1000, report.failedQueries),
  });
  context.metrics?.setDeliverySource(() => evaluator.deliveries.countsByChannelType());
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
