import type { BackgroundService, ServiceContext } from '../start-server.js';
import { parseDestinationPolicy } from '../net/destination-policy.js';
import { sendNotification } from '../notifiers/send.js';
import { DEFAULT_NOTIFIER_SETTINGS, type NotifierSettings } from '../notifiers/delivery.js';
import { signingSecrets } from '../notifiers/webhook-signing.js';
import { startDeliveryWorker } from './delivery-worker.js';
import { createNotificationLinker } from '../graph/notification-links.js';

/** The delivery service: a background service that also takes a nudge when new rows are in the outbox. */
export interface DeliveryService extends BackgroundService {
  /** Looks for due rows now (the evaluator calls it after a cycle wrote deliveries). */
  wake(): void;
}

/** What /readyz's `email` check and the start's warning say on a server without --smtp-url. */
export const NO_SMTP_WARNING = 'this server has no SMTP server (alertform serve --smtp-url): notifications to email channels are dead-lettered';

/**
 * The outbox's delivery worker as a server background service, on every `alertform serve` process, evaluating or
 * not: any replica sends what any other wrote, and a server started without a Graphite still delivers what an
 * earlier process left pending. Configured from the server's options: smtpUrl, smtpFrom, notifierUrls
 * ({pagerduty, opsgenie, victorops}), delivery (retry policy, poll interval, attempt timeout) and
 * allowPrivateDestinations. Closing it gives deliveries in flight a few seconds; what is not sent by then stays in
 * the outbox for the next start.
 */
export function startDeliveryService(context: ServiceContext): DeliveryService {
  const { options, logger, store } = context;
  const urls = options.notifierUrls ?? {};
  const settings: NotifierSettings = {
    ...DEFAULT_NOTIFIER_SETTINGS,
    ...(urls.pagerduty ? { pagerdutyUrl: urls.pagerduty } : {}),
    ...(urls.opsgenie ? { opsgenieUrl: urls.opsgenie } : {}),
    ...(urls.victorops ? { victoropsUrl: urls.victorops } : {}),
    ...(options.smtpUrl ? { smtpUrl: options.smtpUrl } : {}),
    ...(options.smtpFrom ? { smtpFrom: options.smtpFrom } : {}),
    ...(options.delivery?.timeoutMs ? { timeoutMs: options.delivery.timeoutMs } : {}),
    destinations: parseDestinationPolicy(options.allowPrivateDestinations),
    signingSecrets: signingSecrets(store),
  };
  const link = createNotificationLinker(store, options.publicUrl);
  const worker = startDeliveryWorker({
    store: store.outbox,
    send: async (channel, notification, signal) => sendNotification(channel, await link(notification), settings, signal),
    attemptTimeoutMs: settings.timeoutMs,
    ...(options.delivery?.retry ? { retry: options.delivery.retry } : {}),
    // Short retry settings (tests, impatient setups) need a worker that looks at least as often.
    pollMs: options.delivery?.pollMs ?? Math.min(1_000, Math.max(50, options.delivery?.retry?.firstDelayMs ?? 1_000)),
    logger: logger.child({ component: 'deliveries' }),
    ...(context.metrics ? { onFinished: (type: string, state: 'delivered' | 'pending' | 'dead') => context.metrics!.observeDelivery(type, state) } : {}),
  });
  // The outbox is the truth about deliveries: pending ones (whoever will send them) and dead-lettered ones.
  context.metrics?.setDeliverySource(async () => {
    const counts = await store.outbox.countDeliveriesByChannelType();
    return { pending: counts.pending, failed: counts.dead };
  });
  if (!settings.smtpUrl) void warnOfUndeliverableEmail(store, logger);
  return {
    wake: () => worker.wake(),
    close: () => worker.stop(5_000),
    // Ready either way (every other channel delivers), but /readyz says it, and `plan` reads it from there.
    ...(settings.smtpUrl ? {} : { readiness: () => ({ name: 'email', ready: true, warning: NO_SMTP_WARNING }) }),
  };
}

/** At start, without an SMTP server: a warning when alerts notify email channels, before the first dead letter. */
async function warnOfUndeliverableEmail(store: ServiceContext['store'], logger: ServiceContext['logger']): Promise<void> {
  try {
    const count = (await store.channels.countEmailChannelsInUse?.()) ?? 0;
    if (count > 0) logger.warn({ emailChannels: count }, `${count} email channel${count === 1 ? '' : 's'} that alerts notify cannot deliver: ${NO_SMTP_WARNING}`);
  } catch (error) {
    logger.warn({ error: (error as Error).message }, 'could not count the email channels in use');
  }
}
