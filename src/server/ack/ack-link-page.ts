import { createHash } from 'node:crypto';
import { escapeHtml } from '../notifiers/email.js';

/** The page's only style, allowed by its hash: the page runs no script and loads nothing. */
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;font:inherit;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1.2rem;font:inherit;background:#1f6feb;color:#fff;border:0;border-radius:4px}
.muted{color:#5b6475}.problem{color:#b42318}`;

/**
 * The strict policy of the acknowledgement pages: nothing may load or run (no script at all, so an email scanner
 * that renders the page cannot click anything), the one style by hash, forms only to this server, no framing.
 */
export const ACK_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** What the confirmation page shows about the alert. */
export interface AckPageAlert {
  name: string;
  metrics: string[];
  /** The acknowledgement in force, if someone already answered (then there is nothing left to do here). */
  acknowledged: { by: string; at: number } | null;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · alertform</title><style>${STYLE}</style></head>
<body>${body}</body></html>
`;
}

/**
 * The page a GET of the link shows: what is alerting and a form that POSTs the acknowledgement. A GET never
 * acknowledges (mail scanners and link previews follow GETs); the form's empty action posts to this same URL.
 */
export function renderConfirmPage(alert: AckPageAlert): string {
  const metrics = alert.metrics.slice(0, 10).map((metric) => `<li>${escapeHtml(metric)}</li>`).join('');
  // The first acknowledgement through a link stands (a later POST is refused 409): no form to fill in vain.
  if (alert.acknowledged) {
    const since = new Date(alert.acknowledged.at * 1000).toISOString();
    return page(
      `Acknowledged ${alert.name}`,
      `<h1>Already acknowledged</h1>
<p>“${escapeHtml(alert.name)}” is acknowledged by ${escapeHtml(alert.acknowledged.by)} since ${since}.</p>`,
    );
  }
  return page(
    `Acknowledge ${alert.name}`,
    `<h1>Acknowledge “${escapeHtml(alert.name)}”</h1>
<p>This alert is alerting${metrics ? ':' : '.'}</p>${metrics ? `<ul>${metrics}</ul>` : ''}
<p class="muted">Acknowledging stops its reminders and escalations until it recovers; the channels are told who is on it.</p>
<form method="post" action="">
<label for="by">Your name</label><input id="by" name="by" required maxlength="200" autocomplete="name">
<label for="note">Note (optional)</label><input id="note" name="note" maxlength="2000">
<button type="submit">Acknowledge</button>
</form>`,
  );
}

/** The page after the POST. */
export function renderDonePage(name: string, by: string): string {
  return page(`Acknowledged ${name}`, `<h1>Acknowledged</h1><p>“${escapeHtml(name)}” is acknowledged by ${escapeHtml(by)}.</p>`);
}

/** A refused link or request: what went wrong, in words (never a stack trace). */
export function renderProblemPage(message: string): string {
  return page('Cannot acknowledge', `<h1>Cannot acknowledge</h1><p class="problem">${escapeHtml(message)}</p>`);
}
