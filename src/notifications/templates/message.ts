import type { MessageTemplate } from '../../model/types.js';
import type { Notification } from '../types.js';
import { describeCriteria, summarize } from '../describe.js';
import { TEST_TITLE_PREFIX, testNotice } from '../test-notification.js';
import { MAX_RENDER_STEPS } from './bounds.js';
import type { TemplateView } from './fields.js';
import { escapeFor, prepareView, renderTemplate, truncate, type TemplateFormat } from './render.js';

/** What a notification says on a channel: a title (subject, summary, headline) and a body. */
export interface Message {
  title: string;
  body: string;
}

/** The longest title and body a provider takes; longer ones are cut with an ellipsis. */
export interface MessageLimits {
  title?: number;
  body?: number;
}

function valueText(value: number | null | undefined): string {
  return value === null || value === undefined ? 'no data' : String(value);
}

/** The template fields of a notification (fields.ts lists them; docs/server.md documents them). */
export function templateView(notification: Notification): TemplateView {
  const { alert, triggered } = notification;
  const first = triggered[0];
  return {
    name: alert.name,
    value: first ? valueText(first.value) : '',
    metric: first?.metric ?? alert.metric,
    criteria: describeCriteria(alert.alert_criteria),
    info: alert.info ?? '',
    event: notification.event,
    summary: summarize(notification),
    time: new Date(notification.time * 1000).toISOString().replace('.000Z', 'Z'),
    // A render visits at most MAX_RENDER_STEPS items: copying more would be work for nothing.
    triggered: triggered.slice(0, MAX_RENDER_STEPS).map((one) => ({ metric: one.metric, value: valueText(one.value) })),
    links: { console: notification.consoleUrl ?? '', graph: notification.graphUrl ?? '', ack: notification.ackUrl ?? '' },
  };
}

/**
 * The one place a channel's message is made: the channel's template where it has one (title and body each; an
 * omitted part keeps the default), else the notifier's default wording, already written for the format. Each
 * notifier then only puts title and body where its provider wants them, so a new event needs only its default
 * wording (describe.ts's headline). A test through a template keeps a "[TEST] " title and a first line saying who
 * asked for it, placed before the provider's cut so that they always stay.
 */
export function composeMessage(
  notification: Notification,
  template: MessageTemplate | null | undefined,
  format: TemplateFormat,
  defaults: { title: () => string; body: () => string },
  limits: MessageLimits = {},
): Message {
  const view = template ? prepareView(templateView(notification)) : null;
  const fill = (part: string | undefined, fallback: () => string): string =>
    (view && part !== undefined ? renderTemplate(part, view, format) : null) ?? fallback();
  let title = fill(template?.title, defaults.title);
  let body = fill(template?.body, defaults.body);
  if (template && notification.test) {
    if (!title.startsWith(TEST_TITLE_PREFIX)) title = `${TEST_TITLE_PREFIX}${title}`;
    body = `${escapeFor(format, testNotice(notification))}\n\n${body}`;
  }
  return {
    title: limits.title ? truncate(title, limits.title) : title,
    body: limits.body ? truncate(body, limits.body) : body,
  };
}
