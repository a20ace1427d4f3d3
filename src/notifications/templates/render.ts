import type { TemplateView } from './fields.js';
import { cleanCut, renderTokens, type RenderBudget } from './bounded-render.js';
import { checkTemplate, templateWriter, type Token } from './language.js';

/** How a channel's text is read: Slack mrkdwn, HTML (email's HTML part), or plain text (email text, JSON fields). */
export type TemplateFormat = 'slack' | 'html' | 'plain';

/** Slack's mrkdwn asks for exactly these three to be escaped. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * The escape of each format. Plain text needs none; JSON fields are plain text that JSON.stringify encodes when
 * the body is sent, so any character (quotes, newlines, control characters) stays inside its string.
 */
const ESCAPES: Record<TemplateFormat, (text: string) => string> = {
  slack: escapeSlack,
  html: escapeHtml,
  plain: (text) => text,
};

/** Text escaped for a format, as a template's values are. */
export function escapeFor(format: TemplateFormat, text: string): string {
  return ESCAPES[format](text);
}

/**
 * Renders a template with the view, every value escaped for the format, within a budget of work and length
 * (bounds.ts): a render that spends it ends where it stopped, with a marker saying the message was cut. A template
 * that does not pass checkTemplate renders as null (the caller uses its default message): the server refuses such
 * templates on write, so this only meets one stored before a rule existed.
 */
export function renderTemplate(template: string, view: TemplateView | PreparedView, format: TemplateFormat, budget?: RenderBudget): string | null {
  if (checkTemplate(template).length > 0) return null;
  const prepared = PREPARED.has(view) ? view : prepareView(view as TemplateView);
  return renderTokens(templateWriter.parse(template) as unknown as Token[], prepared, ESCAPES[format], budget);
}

/** A view made ready to render (null prototypes), to render several parts and formats from one copy. */
export type PreparedView = object & { readonly prepared: unique symbol };
const PREPARED = new WeakSet<object>();

/** The view copied once with null prototypes (see nullPrototype). */
export function prepareView(view: TemplateView): PreparedView {
  const prepared = nullPrototype(view) as PreparedView;
  PREPARED.add(prepared);
  return prepared;
}

/** A copy of the view whose objects have no prototype, so a lookup can only ever find the view's own fields. */
function nullPrototype(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullPrototype);
  if (value !== null && typeof value === 'object') {
    const out = Object.create(null) as Record<string, unknown>;
    for (const [key, inner] of Object.entries(value)) out[key] = nullPrototype(inner);
    return out;
  }
  return value;
}

/**
 * Cuts text to at most `max` characters, ending with an ellipsis when cut. Never splits an escape (`&amp;`) or a
 * surrogate pair, so the cut text is still valid in its format.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${cleanCut(text, Math.max(0, max - 1))}…`;
}
