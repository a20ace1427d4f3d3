import { describeCriteria, describeText, isComposite, statusOf, summarize } from './describe.js';
import { postJson } from './http.js';
import type { DeliveryChannel, Notification, NotifierSettings } from './types.js';
import { composeMessage } from '../../templates/message.js';

/**
 * The webhook body: `{name, criteria, graph, value, metric, status, backoff_minutes, info}`, plus `expression`,
 * `conditions` and `triggered_metrics` for composite alerts (and `triggered_metrics` whenever more than one
 * series is involved, e.g. a wildcard). backoff_minutes is N of `["every", N]`, null for state_change. `id` is the
 * delivery's id, the same on every retry, so a receiver can drop a repeat after an answer that got lost. `graph` is a
 * signed, expiring link to this server's PNG of the alert's graph (null without --public-url). A channel with a
 * template adds `title` and `body` (its rendered message; plain text, encoded by JSON.stringify); without one the
 * body is exactly the Hosted Graphite shape.
 */
export function buildWebhookPayload(notification: Notification, template?: DeliveryChannel['template']): Record<string, unknown> {
  const { alert, triggered } = notification;
  const first = triggered[0];
  const payload: Record<string, unknown> = {
    ...(notification.deliveryId ? { id: notification.deliveryId } : {}),
    name: alert.name,
    criteria: describeCriteria(alert.alert_criteria),
    graph: notification.graphUrl,
    value: first?.value ?? null,
    metric: first?.metric ?? alert.metric,
    status: statusOf(notification.event),
    backoff_minutes: alert.notification_type[0] === 'every' ? alert.notification_type[1] : null,
    info: alert.info,
  };
  if (isComposite(notification)) {
    payload.expression = alert.expression;
    payload.conditions = Object.fromEntries(
      notification.conditions.map((c) => [
        c.letter,
        { metric: c.metric, criteria: describeCriteria(c.criteria), state: c.state, triggered_metrics: c.triggered },
      ]),
    );
  }
  if (isComposite(notification) || triggered.length > 1) payload.triggered_metrics = triggered;
  if (notification.test) payload.test = true;
  // Additive: an escalation step says which one (status stays `alerting`).
  if (notification.escalation) payload.escalation = notification.escalation;
  // Additive (noise control): the flap guard's figures, and what a throttle summary lists.
  if (notification.flapping) payload.flapping = notification.flapping;
  if (notification.throttled) payload.throttled = notification.throttled;
  // Additive: the alert's page in the console, with --public-url.
  if (notification.consoleUrl) payload.console_url = notification.consoleUrl;
  // Additive: the one-click acknowledgement link (alerting and reminders, with --public-url), and who acknowledged.
  if (notification.ackUrl) payload.ack_url = notification.ackUrl;
  if (notification.acknowledgement) payload.acknowledgement = notification.acknowledgement;
  if (template) {
    const message = composeMessage(notification, template, 'plain', { title: () => summarize(notification), body: () => describeText(notification) });
    payload.title = message.title;
    payload.body = message.body;
  }
  return payload;
}

/** POSTs the webhook body to the channel's URL, with the delivery id as `Idempotency-Key` (stable across retries). */
export async function sendWebhook(
  channel: DeliveryChannel,
  notification: Notification,
  settings: Pick<NotifierSettings, 'destinations'>,
  signal: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = notification.deliveryId ? { 'idempotency-key': notification.deliveryId } : {};
  await postJson('webhook', channel.destination, buildWebhookPayload(notification, channel.template), { headers, signal, policy: settings.destinations });
}
