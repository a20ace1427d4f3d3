import { describeGrouped, describeHeld, describeCriteria, statusOf, summarize } from '../../notifications/describe.js';
import { postJson } from './http.js';
import type { DeliveryChannel, Notification } from '../../notifications/types.js';
import type { NotifierSettings } from './delivery.js';
import { composeMessage } from '../../notifications/templates/message.js';
import { escapeSlack } from '../../notifications/templates/render.js';
import { MESSAGE_LIMITS } from '../../notifications/templates/limits.js';

const COLORS = {
  acknowledged: '#439fe0',
  alerting: '#d00000',
  recovered: '#2eb886',
  query_failed: '#daa038',
  query_recovered: '#2eb886',
  no_data: '#daa038',
  no_data_recovered: '#2eb886',
  flapping: '#daa038',
  throttled_summary: '#439fe0',
  grouped: '#daa038',
};

/**
 * A Slack incoming-webhook message: a one-line `text` (what notifications and old clients show) and one
 * attachment with the details. Built as an object and encoded with JSON.stringify, so quotes, newlines or
 * `<>&` in names cannot break it; `<`, `>` and `&` are escaped as Slack's mrkdwn asks.
 */
export function buildSlackPayload(notification: Notification, template?: DeliveryChannel['template']): Record<string, unknown> {
  const { alert, triggered } = notification;
  // With a template, the title is `text` and the body the attachment's text.
  const message = composeMessage(
    notification,
    template,
    'slack',
    { title: () => escapeSlack(summarize(notification)), body: () => escapeSlack(alert.info ?? '') },
    MESSAGE_LIMITS.slack,
  );
  const fields = [
    { title: 'Status', value: statusOf(notification.event), short: true },
    { title: 'Criteria', value: escapeSlack(describeCriteria(alert.alert_criteria)), short: true },
  ];
  if (Object.keys(alert.additional_criteria).length > 0) {
    fields.push({ title: 'Expression', value: escapeSlack(alert.expression), short: true });
  }
  if (triggered.length > 0) {
    const list = triggered
      .slice(0, 20)
      .map((one) => `${one.metric}: ${one.value === null ? 'no data' : one.value}`)
      .join('\n');
    fields.push({ title: 'Metrics', value: escapeSlack(list + (triggered.length > 20 ? `\n… ${triggered.length - 20} more` : '')), short: false });
  }
  if (notification.failure) fields.push({ title: 'Failure', value: escapeSlack(notification.failure), short: false });
  if (notification.ackUrl) fields.push({ title: 'Acknowledge', value: `<${notification.ackUrl}|Acknowledge this alert>`, short: false });
  if (notification.throttled) fields.push({ title: 'Held back', value: escapeSlack(describeHeld(notification.throttled).join('\n')), short: false });
  if (notification.grouped) fields.push({ title: 'Grouped', value: escapeSlack(describeGrouped(notification.grouped).join('\n')), short: false });
  return {
    text: message.title,
    attachments: [
      {
        color: COLORS[statusOf(notification.event)],
        title: escapeSlack(alert.name),
        ...(notification.consoleUrl ? { title_link: notification.consoleUrl } : {}),
        ...(notification.graphUrl ? { image_url: notification.graphUrl } : {}),
        text: message.body,
        fields,
        ts: notification.time,
      },
    ],
  };
}

/** POSTs the message to the channel's incoming-webhook URL. */
export async function sendSlack(
  channel: DeliveryChannel,
  notification: Notification,
  settings: Pick<NotifierSettings, 'destinations'>,
  signal: AbortSignal,
): Promise<void> {
  await postJson('slack', channel.destination, buildSlackPayload(notification, channel.template), { signal, policy: settings.destinations });
}
