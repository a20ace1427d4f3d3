import { describeCriteria, describeText, isComposite, statusOf, summarize } from '../../notifications/describe.js';
import { postJson } from './http.js';
import type { DeliveryChannel, Notification } from '../../notifications/types.js';
import type { NotifierSettings } from './delivery.js';
import type { AlertCriteria } from '../../model/types.js';
import type { TriggeredMetric } from '../../evaluation/judge-alert.js';
import type { NotificationEvent } from '../../evaluation/transitions.js';
import { composeMessage } from '../../notifications/templates/message.js';

/**
 * The webhook body: `{name, criteria, graph, value, metric, status, backoff_minutes, info}` (the Hosted Graphite
 * shape), `expression` and `conditions` for composite alerts, and for machines `alert_id`, `event`, `started_at`,
 * `ended_at`, `thresholds` and `triggered_metrics` (sorted by name, so the same set reads the same every time).
 * schemas/webhook-payload.schema.json is the contract. backoff_minutes is N of `["every", N]`, null for
 * state_change. `id` is the delivery's id, the same on every retry, so a receiver can drop a repeat after an answer
 * that got lost; `alert_id` pairs a recovery with its alert whatever the alert is renamed to. `graph` is a signed,
 * expiring link to this server's PNG of the alert's graph (null without --public-url). A channel with a template
 * adds `title` and `body` (its rendered message; plain text, encoded by JSON.stringify).
 */
export function buildWebhookPayload(notification: Notification, template?: DeliveryChannel['template']): Record<string, unknown> {
  const { alert, triggered } = notification;
  const first = triggered[0];
  const ended = notification.event === 'recovered' || notification.event === 'query_recovered' || notification.event === 'no_data_recovered';
  const payload: Record<string, unknown> = {
    ...(notification.deliveryId ? { id: notification.deliveryId } : {}),
    name: alert.name,
    criteria: notification.grouped
      ? `group ${notification.grouped.group_key || '(no key)'} of ${notification.grouped.channel}: ${notification.grouped.count} notification${notification.grouped.count === 1 ? '' : 's'}`
      : notification.throttled
        ? `held back by the throttle of ${notification.throttled.channel}: ${notification.throttled.held_count} notification${notification.throttled.held_count === 1 ? '' : 's'}`
        : describeCriteria(alert.alert_criteria),
    graph: notification.graphUrl,
    value: first?.value ?? null,
    metric: first?.metric ?? alert.metric,
    status: statusOf(notification.event),
    backoff_minutes: alert.notification_type[0] === 'every' ? alert.notification_type[1] : null,
    info: alert.info,
    // Additive, for machines (schemas/webhook-payload.schema.json): what pairs and orders notifications.
    alert_id: alert.id || null,
    event: webhookEvent(notification.event),
    started_at: notification.startedAt ?? notification.episode ?? null,
    ended_at: ended ? notification.time : null,
    // A group's or a throttle's message has no criterion of its own: no thresholds to invent.
    thresholds: notification.grouped || notification.throttled ? { above: null, below: null } : thresholdsOf(alert.alert_criteria),
    triggered_metrics: sortedMetrics(triggered),
  };
  if (isComposite(notification)) {
    payload.expression = alert.expression;
    payload.conditions = Object.fromEntries(
      notification.conditions.map((c) => [
        c.letter,
        { metric: c.metric, criteria: describeCriteria(c.criteria), state: c.state, triggered_metrics: sortedMetrics(c.triggered), thresholds: thresholdsOf(c.criteria) },
      ]),
    );
  }
  if (notification.test) payload.test = true;
  // Additive: an escalation step says which one (status stays `alerting`).
  if (notification.escalation) payload.escalation = notification.escalation;
  // Additive (noise control): the flap guard's figures, and what a throttle summary lists.
  if (notification.flapping) payload.flapping = notification.flapping;
  if (notification.throttled) payload.throttled = notification.throttled;
  if (notification.grouped) payload.grouped = notification.grouped;
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

/** The webhook's `event`: the kind of notification, in the words of the payload's JSON Schema. */
export type WebhookEvent =
  | 'alerting'
  | 'reminder'
  | 'escalation'
  | 'recovered'
  | 'acknowledged'
  | 'no_data'
  | 'no_data_recovered'
  | 'query_failed'
  | 'query_recovered'
  | 'flapping'
  | 'throttled'
  | 'grouped';

/**
 * The evaluator's notification kind as the webhook's `event`: a table, so a new kind fails typecheck until it is
 * named here (and in the payload's JSON Schema).
 */
const WEBHOOK_EVENTS: Record<NotificationEvent, WebhookEvent> = {
  alerting: 'alerting',
  reminder: 'reminder',
  escalated: 'escalation',
  recovered: 'recovered',
  acknowledged: 'acknowledged',
  no_data: 'no_data',
  no_data_recovered: 'no_data_recovered',
  query_failed: 'query_failed',
  query_recovered: 'query_recovered',
  flapping: 'flapping',
  // One message that lists what the channel's throttle held back.
  throttled_summary: 'throttled',
  // One message for a group of a channel that groups by path nodes.
  grouped: 'grouped',
};

export function webhookEvent(event: NotificationEvent): WebhookEvent {
  return WEBHOOK_EVENTS[event];
}

/** The criteria's thresholds as numbers (null where the criteria type has none). */
function thresholdsOf(criteria: AlertCriteria): { above: number | null; below: number | null } {
  return { above: criteria.above_value ?? null, below: criteria.below_value ?? null };
}

/** Triggered metrics by name (code-unit order, not locale): the same set reads the same on every notification. */
function sortedMetrics(triggered: readonly TriggeredMetric[]): TriggeredMetric[] {
  return [...triggered].sort((a, b) => (a.metric < b.metric ? -1 : a.metric > b.metric ? 1 : 0));
}

/**
 * POSTs the webhook body to the channel's URL, with the delivery id as `Idempotency-Key` (stable across retries) and,
 * when the server gives channels their signing secrets, the body's signatures (`Alertform-Signature`, timestamped, and
 * the body-only `X-Alertform-Signature`).
 */
export async function sendWebhook(
  channel: DeliveryChannel,
  notification: Notification,
  settings: Pick<NotifierSettings, 'destinations' | 'signingSecrets'>,
  signal: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = notification.deliveryId ? { 'idempotency-key': notification.deliveryId } : {};
  const signingKeys = settings.signingSecrets ? await settings.signingSecrets(channel.id) : undefined;
  await postJson('webhook', channel.destination, buildWebhookPayload(notification, channel.template), {
    headers,
    signal,
    policy: settings.destinations,
    ...(signingKeys === undefined ? {} : { signingKeys }),
  });
}
