import type { Transporter } from 'nodemailer';
import { describeAcknowledgement, describeHeld, describeCriteria, isComposite, statusOf, summarize, describeText } from '../../notifications/describe.js';
import { networkError } from './http.js';
import { type DeliveryChannel, type Notification } from '../../notifications/types.js';
import { DeliveryError, type NotifierSettings } from './delivery.js';
import { composeMessage } from '../../notifications/templates/message.js';
import { escapeHtml } from '../../notifications/templates/render.js';

export { escapeHtml };

const transports = new Map<string, Transporter>();

/**
 * One pooled nodemailer transport per SMTP URL, with timeouts so a dead server cannot hold a delivery. nodemailer
 * is loaded on the first email, so that every CLI command does not pay for it at start-up.
 */
async function transportFor(settings: NotifierSettings): Promise<Transporter> {
  const key = `${settings.smtpUrl}|${settings.timeoutMs}`;
  let transport = transports.get(key);
  if (!transport) {
    const { default: nodemailer } = await import('nodemailer');
    transport = transports.get(key);
    if (transport) return transport;
    transport = nodemailer.createTransport({
      url: settings.smtpUrl!,
      pool: true,
      maxConnections: 2,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
    } as Parameters<typeof nodemailer.createTransport>[0]);
    transports.set(key, transport);
  }
  return transport;
}

/** Closes the pooled SMTP connections (server shutdown, tests). */
export function closeEmailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}

/**
 * The subject, a plain-text part and an HTML part (every value escaped): the channel's template where it has one
 * (rendered plain for the subject and text part, HTML-escaped for the HTML part), else the default wording.
 */
export function buildEmail(notification: Notification, template?: DeliveryChannel['template']): { subject: string; text: string; html: string } {
  const plain = composeMessage(notification, template, 'plain', { title: () => summarize(notification), body: () => describeText(notification) });
  const html = composeMessage(notification, template, 'html', {
    title: () => escapeHtml(plain.title),
    body: () => defaultHtml(notification),
  });
  const htmlBody = template?.body !== undefined ? `<p>${html.body.replace(/\n/g, '<br>\n')}</p>` : html.body;
  // A subject is one line: a template's line breaks become spaces (a header cannot carry them).
  return { subject: plain.title.replace(/\s*[\r\n]+\s*/g, ' '), text: plain.body, html: htmlBody };
}

/** The default HTML part: the summary as a heading, a table of the alert's fields, metrics, info, graph, link. */
function defaultHtml(notification: Notification): string {
  const { alert, triggered } = notification;
  // A throttle summary is about a channel, not an alert: no metric or criteria rows.
  const rows: [string, string][] = notification.throttled
    ? [['Status', statusOf(notification.event)], ['Channel', notification.throttled.channel]]
    : [
        ['Status', statusOf(notification.event)],
        ['Metric', alert.metric],
        ['Criteria', describeCriteria(alert.alert_criteria)],
      ];
  if (isComposite(notification)) {
    rows.push(['Expression', alert.expression]);
    for (const c of notification.conditions) rows.push([`Condition ${c.letter}`, `${c.metric} ${describeCriteria(c.criteria)}: ${c.state}`]);
  }
  if (notification.failure) rows.push(['Failure', notification.failure]);
  if (notification.acknowledgement) rows.push(['Acknowledged', describeAcknowledgement(notification)]);
  const held = notification.throttled ? describeHeld(notification.throttled) : [];
  const metrics = (held.length > 0 ? held.map((line) => `<li>${escapeHtml(line)}</li>`) : [])
    .join('')
    .concat(triggered
    .map((one) => `<li>${escapeHtml(one.metric)}: ${one.value === null ? 'no data' : escapeHtml(String(one.value))}</li>`)
    .join(''));
  return [
    `<h2>${escapeHtml(summarize(notification))}</h2>`,
    '<table>',
    ...rows.map(([name, value]) => `<tr><th align="left">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`),
    '</table>',
    metrics ? `<p>${held.length > 0 ? 'Held back' : 'Metrics'}:</p><ul>${metrics}</ul>` : '',
    alert.info ? `<p>${escapeHtml(alert.info).replace(/\n/g, '<br>')}</p>` : '',
    notification.graphUrl ? `<p><img src="${escapeHtml(notification.graphUrl)}" width="800" height="300" alt="Graph of the alert"></p>` : '',
    notification.consoleUrl ? `<p><a href="${escapeHtml(notification.consoleUrl)}">Open the alert in the console</a></p>` : '',
    notification.ackUrl ? `<p><a href="${escapeHtml(notification.ackUrl)}">Acknowledge this alert</a></p>` : '',
  ].join('\n');
}

/**
 * Sends the notification by email to the channel's address(es) through `settings.smtpUrl`. A retry of the same
 * delivery carries the same Message-ID, so mail clients show a repeat (after a lost SMTP answer) as one message;
 * every message says `Auto-Submitted: auto-generated`.
 */
export async function sendEmail(channel: DeliveryChannel, notification: Notification, settings: NotifierSettings): Promise<void> {
  if (!settings.smtpUrl) throw new DeliveryError('email needs an SMTP server (alertform serve --smtp-url)', false);
  if (!channel.destination.trim()) throw new DeliveryError('email channel has no destination address', false);
  const { subject, text, html } = buildEmail(notification, channel.template);
  try {
    await (await transportFor(settings)).sendMail({
      from: settings.smtpFrom,
      to: channel.destination,
      subject,
      text,
      html,
      ...(notification.deliveryId ? { messageId: `<${notification.deliveryId}@alertform>` } : {}),
      // RFC 3834: machine-made mail, so vacation responders and ticket systems do not answer it.
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    if (typeof code === 'number') throw new DeliveryError(`smtp answered ${code}`, code >= 400 && code < 500);
    throw networkError('smtp', error);
  }
}
