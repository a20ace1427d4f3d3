import { sendEmail } from './email.js';
import { sendOpsgenie } from './opsgenie.js';
import { sendPagerduty } from './pagerduty.js';
import { sendSlack } from './slack.js';
import type { DeliveryChannel, Notification } from '../../notifications/types.js';
import type { NotifierSettings } from './delivery.js';
import { sendVictorops } from './victorops.js';
import { sendWebhook } from './webhook.js';

/** Delivers one notification to one channel, by the channel's type. Throws DeliveryError on failure. */
export async function sendNotification(
  channel: DeliveryChannel,
  notification: Notification,
  settings: NotifierSettings,
  signal: AbortSignal,
): Promise<void> {
  switch (channel.type) {
    case 'webhook':
      return sendWebhook(channel, notification, settings, signal);
    case 'slack':
      return sendSlack(channel, notification, settings, signal);
    case 'pagerduty':
      return sendPagerduty(channel, notification, settings, signal);
    case 'victorops':
      return sendVictorops(channel, notification, settings, signal);
    case 'opsgenie':
      return sendOpsgenie(channel, notification, settings, signal);
    case 'email':
      return sendEmail(channel, notification, settings);
  }
}
