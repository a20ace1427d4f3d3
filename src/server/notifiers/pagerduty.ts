import { describeCriteria, summarize } from '../../notifications/describe.js';
import { joinUrl, postJson } from './http.js';
import type { DeliveryChannel, Notification } from '../../notifications/types.js';
import type { NotifierSettings } from './delivery.js';
import { composeMessage } from '../../notifications/templates/message.js';
import { MESSAGE_LIMITS } from '../../notifications/templates/limits.js';

/** Severity by event; the rest are critical. A throttle summary (its own incident, per channel and window) is info. */
const SEVERITY: Partial<Record<Notification['event'], string>> = { query_failed: 'error', no_data: 'warning', flapping: 'warning', throttled_summary: 'info' };

/** One PagerDuty incident per alert (and separate ones for its query failures and its lack of data). */
export function pagerdutyDedupKey(notification: Notification): string {
  const query = notification.event === 'query_failed' || notification.event === 'query_recovered';
  const noData = notification.event === 'no_data' || notification.event === 'no_data_recovered';
  return `alertform-${notification.alert.id}${query ? '-query' : noData ? '-no-data' : ''}`;
}

/**
 * The Events API v2 body for a notification, or null when nothing is to be sent: alerting, reminders and query
 * failures are `trigger` (the dedup_key folds reminders into the open incident); recoveries are `resolve`, sent
 * only when the channel has auto_resolve; an acknowledgement is `acknowledge`.
 */
export function buildPagerdutyEvent(channel: DeliveryChannel, notification: Notification): Record<string, unknown> | null {
  const dedupKey = pagerdutyDedupKey(notification);
  // The same dedup_key as the trigger: PagerDuty acknowledges that incident (and stops escalating it).
  if (notification.event === 'acknowledged') return { routing_key: channel.destination, event_action: 'acknowledge', dedup_key: dedupKey };
  if (notification.event === 'recovered' || notification.event === 'query_recovered' || notification.event === 'no_data_recovered') {
    if (!channel.autoResolve) return null;
    return { routing_key: channel.destination, event_action: 'resolve', dedup_key: dedupKey };
  }
  const { alert, triggered } = notification;
  const message = composeMessage(notification, channel.template, 'plain', { title: () => summarize(notification), body: () => '' }, MESSAGE_LIMITS.pagerduty);
  // The event's own severity (a query failure, flapping, a throttle summary), else the alert's, else critical.
  const severity = SEVERITY[notification.event] ?? alert.pagerduty_severity ?? 'critical';
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
        ...(notification.flapping ? { flapping: notification.flapping } : {}),
        ...(notification.throttled ? { throttled: notification.throttled } : {}),
        ...(channel.template?.body !== undefined ? { body: message.body } : {}),
      },
    },
    client: 'alertform',
    ...(notification.consoleUrl ? { client_url: notification.consoleUrl } : {}),
    ...(notification.graphUrl ? { images: [{ src: notification.graphUrl, alt: 'Graph of the alert' }] } : {}),
    ...(notification.ackUrl ? { links: [{ href: notification.ackUrl, text: 'Acknowledge in alertform' }] } : {}),
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
