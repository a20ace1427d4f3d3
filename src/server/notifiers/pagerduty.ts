import { describeCriteria, summarize } from './describe.js';
import { joinUrl, postJson } from './http.js';
import type { DeliveryChannel, Notification, NotifierSettings } from './types.js';
import { composeMessage } from '../../templates/message.js';
import { MESSAGE_LIMITS } from '../../templates/limits.js';

/** One PagerDuty incident per alert (and a separate one for its query failures). */
export function pagerdutyDedupKey(notification: Notification): string {
  const query = notification.event === 'query_failed' || notification.event === 'query_recovered';
  return `alertform-${notification.alert.id}${query ? '-query' : ''}`;
}

/**
 * The Events API v2 body for a notification, or null when nothing is to be sent: alerting, reminders and query
 * failures are `trigger` (the dedup_key folds reminders into the open incident); recoveries are `resolve`, sent
 * only when the channel has auto_resolve.
 */
export function buildPagerdutyEvent(channel: DeliveryChannel, notification: Notification): Record<string, unknown> | null {
  const dedupKey = pagerdutyDedupKey(notification);
  if (notification.event === 'recovered' || notification.event === 'query_recovered') {
    if (!channel.auto_resolve) return null;
    return { routing_key: channel.destination, event_action: 'resolve', dedup_key: dedupKey };
  }
  const { alert, triggered } = notification;
  const message = composeMessage(notification, channel.template, 'plain', { title: () => summarize(notification), body: () => '' }, MESSAGE_LIMITS.pagerduty);
  const severity = notification.event === 'query_failed' ? 'error' : (alert.pagerduty_severity ?? 'critical');
  return {
    routing_key: channel.destination,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: message.title,
      source: triggered[0]?.metric ?? alert.metric,
      severity,
      timestamp: new Date(notification.time * 1000).toISOString(),
      component: alert.metric,
      class: alert.alert_criteria.type,
      custom_details: {
        criteria: describeCriteria(alert.alert_criteria),
        ...(Object.keys(alert.additional_criteria).length > 0 ? { expression: alert.expression } : {}),
        triggered_metrics: triggered,
        info: alert.info,
        ...(notification.failure ? { failure: notification.failure } : {}),
        ...(channel.template?.body !== undefined ? { body: message.body } : {}),
      },
    },
    client: 'alertform',
    ...(notification.consoleUrl ? { client_url: notification.consoleUrl } : {}),
    ...(notification.graphUrl ? { images: [{ src: notification.graphUrl, alt: 'Graph of the alert' }] } : {}),
  };
}

/** Sends the event to `<pagerdutyUrl>/v2/enqueue`; the channel's destination is the integration (routing) key. */
export async function sendPagerduty(
  channel: DeliveryChannel,
  notification: Notification,
  settings: NotifierSettings,
  signal: AbortSignal,
): Promise<void> {
  const event = buildPagerdutyEvent(channel, notification);
  if (!event) return;
  await postJson('pagerduty', joinUrl(settings.pagerdutyUrl, '/v2/enqueue'), event, { signal });
}
