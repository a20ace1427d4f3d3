import { describeAcknowledgement, describeCriteria, describeText, summarize } from '../../notifications/describe.js';
import { joinUrl, postJson } from './http.js';
import type { DeliveryChannel, Notification } from '../../notifications/types.js';
import type { NotifierSettings } from './delivery.js';
import { composeMessage } from '../../notifications/templates/message.js';
import { MESSAGE_LIMITS } from '../../notifications/templates/limits.js';

/** Priority by event; the rest take the alert's opsgenie_priority, else P1. A throttle summary (its own alert, per channel and window) is P5. */
const PRIORITY: Partial<Record<Notification['event'], string>> = { query_failed: 'P3', no_data: 'P3', flapping: 'P3', throttled_summary: 'P5' };

/** One OpsGenie alert per alertform alert (and one for its query failures), found again by alias. */
export function opsgenieAlias(notification: Notification): string {
  const query = notification.event === 'query_failed' || notification.event === 'query_recovered';
  const noData = notification.event === 'no_data' || notification.event === 'no_data_recovered';
  return `alertform-${notification.alert.id}${query ? '-query' : noData ? '-no-data' : ''}`;
}

/**
 * The Alert API create body: the title as message, the body as description (the channel's template, or the
 * default wording), cut to OpsGenie's limits; priority the alert's opsgenie_priority (default P1, P3 for query
 * failures).
 */
export function buildOpsgenieCreate(notification: Notification, template?: DeliveryChannel['template']): Record<string, unknown> {
  const { alert, triggered } = notification;
  const message = composeMessage(
    notification,
    template,
    'plain',
    { title: () => summarize(notification), body: () => describeText(notification) },
    MESSAGE_LIMITS.opsgenie,
  );
  return {
    message: message.title,
    alias: opsgenieAlias(notification),
    description: message.body,
    source: 'alertform',
    entity: (triggered[0]?.metric ?? alert.metric).slice(0, 512),
    priority: PRIORITY[notification.event] ?? alert.opsgenie_priority ?? 'P1',
    details: {
      criteria: describeCriteria(alert.alert_criteria),
      metric: triggered[0]?.metric ?? alert.metric,
      value: String(triggered[0]?.value ?? ''),
      status: notification.event,
    },
  };
}

/** The Alert API acknowledge body: who (`user`), the note, and the source. */
export function buildOpsgenieAcknowledge(notification: Notification): Record<string, unknown> {
  const ack = notification.acknowledgement;
  return {
    user: (ack?.by ?? 'alertform').slice(0, 100),
    source: 'alertform',
    note: (ack?.note ?? describeAcknowledgement(notification)).slice(0, 25_000),
  };
}

/**
 * Creates the OpsGenie alert on alerting, reminders and query failures (OpsGenie de-duplicates by alias), and
 * closes it on recovery. The channel's destination is the API key, sent as `Authorization: GenieKey <key>`.
 */
export async function sendOpsgenie(
  channel: DeliveryChannel,
  notification: Notification,
  settings: NotifierSettings,
  signal: AbortSignal,
): Promise<void> {
  const headers = { authorization: `GenieKey ${channel.destination}` };
  if (notification.event === 'acknowledged') {
    // The same alias as the create: OpsGenie acknowledges that alert, with who did it and why.
    const url = new URL(joinUrl(settings.opsgenieUrl, `/v2/alerts/${encodeURIComponent(opsgenieAlias(notification))}/acknowledge`));
    url.searchParams.set('identifierType', 'alias');
    await postJson('opsgenie', url.href, buildOpsgenieAcknowledge(notification), { headers, signal });
    return;
  }
  if (notification.event === 'recovered' || notification.event === 'query_recovered' || notification.event === 'no_data_recovered') {
    const url = new URL(joinUrl(settings.opsgenieUrl, `/v2/alerts/${encodeURIComponent(opsgenieAlias(notification))}/close`));
    url.searchParams.set('identifierType', 'alias');
    await postJson('opsgenie', url.href, { source: 'alertform', note: summarize(notification) }, { headers, signal });
    return;
  }
  await postJson('opsgenie', joinUrl(settings.opsgenieUrl, '/v2/alerts'), buildOpsgenieCreate(notification, channel.template), { headers, signal });
}
