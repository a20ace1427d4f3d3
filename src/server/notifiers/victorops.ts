import { describeAcknowledgement, describeText, summarize } from '../../notifications/describe.js';
import { postJson } from './http.js';
import type { DeliveryChannel, Notification } from '../../notifications/types.js';
import type { NotifierSettings } from './delivery.js';
import { composeMessage } from '../../notifications/templates/message.js';

/**
 * The VictorOps (Splunk On-Call) REST endpoint body: CRITICAL for alerting, reminders and query failures,
 * RECOVERY on recovery when the channel has auto_resolve (null: nothing to send), ACKNOWLEDGEMENT on an ack.
 * entity_id ties them together.
 * The title (template or default) is the display name, the body the state message.
 */
export function buildVictoropsMessage(channel: DeliveryChannel, notification: Notification): Record<string, unknown> | null {
  const query = notification.event === 'query_failed' || notification.event === 'query_recovered';
  const noData = notification.event === 'no_data' || notification.event === 'no_data_recovered';
  const recovery = notification.event === 'recovered' || notification.event === 'query_recovered' || notification.event === 'no_data_recovered';
  if (recovery && !channel.autoResolve) return null;
  const message = composeMessage(notification, channel.template, 'plain', {
    title: () => summarize(notification),
    body: () => describeText(notification),
  });
  if (notification.event === 'acknowledged') {
    // The same entity_id as the CRITICAL: VictorOps acknowledges that incident, with its author and message.
    return {
      message_type: 'ACKNOWLEDGEMENT',
      entity_id: `alertform-${notification.alert.id}`,
      entity_display_name: message.title,
      state_message: message.body,
      ack_author: notification.acknowledgement?.by ?? 'alertform',
      ack_msg: notification.acknowledgement?.note ?? describeAcknowledgement(notification),
      state_start_time: notification.time,
      monitoring_tool: 'alertform',
    };
  }
  return {
    // A throttle summary is information (its own entity, per channel and window), not an incident.
    message_type: recovery ? 'RECOVERY' : notification.event === 'throttled_summary' ? 'INFO' : 'CRITICAL',
    entity_id: `alertform-${notification.alert.id}${query ? '-query' : noData ? '-no-data' : ''}`,
    entity_display_name: message.title,
    state_message: message.body,
    state_start_time: notification.time,
    monitoring_tool: 'alertform',
  };
}

/** The URL to post to: the destination, with its origin replaced when settings.victoropsUrl is set. */
export function victoropsUrl(destination: string, settings: NotifierSettings): string {
  if (!settings.victoropsUrl) return destination;
  const url = new URL(destination);
  const base = new URL(settings.victoropsUrl);
  url.protocol = base.protocol;
  url.host = base.host;
  return url.href;
}

/** POSTs to the channel's REST endpoint URL (which carries the API key and routing key). */
export async function sendVictorops(
  channel: DeliveryChannel,
  notification: Notification,
  settings: NotifierSettings,
  signal: AbortSignal,
): Promise<void> {
  const message = buildVictoropsMessage(channel, notification);
  if (!message) return;
  // With --victorops-url the host is the operator's; otherwise the tenant's URL is judged by the policy.
  const policy = settings.victoropsUrl ? {} : { policy: settings.destinations };
  await postJson('victorops', victoropsUrl(channel.destination, settings), message, { signal, ...policy });
}
