import type { TemplateView } from './fields.js';
import { checkTemplate, templateWriter } from './language.js';

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

/**
 * Renders a template with the view, every value escaped for the format. A template that does not pass checkTemplate
 * renders as null (the caller uses its default message): the server refuses such templates on write, so this is
 * a guard, not a path anyone should reach.
 */
export function renderTemplate(template: string, view: TemplateView | PreparedView, format: TemplateFormat): string | null {
  if (checkTemplate(template).length > 0) return null;
  const prepared = PREPARED.has(view) ? view : prepareView(view as TemplateView);
  return templateWriter.render(template, prepared, undefined, { escape: ESCAPES[format] });
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
  let cut = text.slice(0, Math.max(0, max - 1));
  const entity = cut.lastIndexOf('&');
  if (entity >= 0 && entity > cut.length - 10 && !cut.slice(entity).includes(';')) cut = cut.slice(0, entity);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}
