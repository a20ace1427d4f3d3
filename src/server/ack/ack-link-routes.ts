import type Router from '@koa/router';
import type { Context } from 'koa';
import { parseEvalState } from '../../evaluation/stored-state.js';
import { HttpError, invalidBody, notFound } from '../errors.js';
import type { VerifyLink } from '../http/signed-links.js';
import { readBodyText } from '../http/read-json-body.js';
import { isAcknowledgedAt } from '../../model/acknowledgement.js';
import type { AlertRecord, Store } from '../store/store.js';
import { checkSchema } from '../validation/check-schema.js';
import type { AckChangeLimiter } from '../http/ack-change-limiter.js';
import { acknowledgeAlert, otherEpisode, type AckRequest } from './acknowledge-alert.js';
import { ACK_LINK_PATH, verifyAckLink } from './ack-links.js';
import { ACK_PAGE_CSP, renderConfirmPage, renderDonePage, renderProblemPage } from './ack-link-page.js';

/** A form is a name and a note: a few KiB at most. */
const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * GET and POST /v2/ack-links/{token}: the one-click acknowledgement links of notifications. Open, like the graph
 * pictures: the signed token is the only credential (one alert, one alerting episode, 24 hours). GET shows a page
 * with a form and never acknowledges; POST (the form, or JSON `{"by", "note"}`) acknowledges, once: the first
 * acknowledgement through a link stands. Refusals are 404 (not a link, or the alert is gone), 410 (expired), 409
 * (another episode, not alerting any more, or already acknowledged: who and since when): a page for
 * a browser, the API's JSON error for a JSON client; 429 past the address's limit of bad tokens (http/signed-links.ts).
 */
export function registerAckLinkRoutes(router: Router, deps: { store: Pick<Store, 'acks' | 'alerts' | 'console'>; now: () => number; verifyLink: VerifyLink; ackChanges?: AckChangeLimiter }): void {
  /** The alert the token names, in its episode; throws the refusal otherwise. */
  const alertOfToken = async (ctx: Context): Promise<{ alert: AlertRecord; episode: number | null }> => {
    const token = (ctx as unknown as { params: { token: string } }).params.token;
    const claims = await deps.verifyLink(ctx, token, deps.now(), verifyAckLink, {
      notFound: 'acknowledgement link',
      expired: 'this acknowledgement link has expired',
    });
    const owner = await deps.store.console.findAlertOwner(claims.alertId);
    const alert = owner && (await deps.store.alerts.getAlert(owner.accountId, claims.alertId));
    if (!alert) throw notFound('alert');
    const episode = parseEvalState(alert.evalState, alert.status, alert.currentlyTriggeredMetrics).alertingSince;
    if (alert.status !== 'alerting') {
      throw new HttpError('conflict', `"${alert.name}" is not alerting any more: there is nothing to acknowledge`, { status: 409 });
    }
    if (episode !== claims.episode) throw otherEpisode(alert.name);
    return { alert, episode };
  };

  router.get(`${ACK_LINK_PATH}:token`, async (ctx) => {
    await answerAsPage(ctx, async () => {
      const { alert } = await alertOfToken(ctx);
      const ack = isAcknowledgedAt(alert.acknowledgement, Math.floor(deps.now() / 1000)) ? alert.acknowledgement : null;
      return renderConfirmPage({ name: alert.name, metrics: alert.currentlyTriggeredMetrics, acknowledged: ack && { by: ack.by, at: ack.at } });
    });
  });

  router.post(`${ACK_LINK_PATH}:token`, async (ctx) => {
    const json = ctx.is('application/json') === 'application/json';
    const act = async () => {
      const { alert, episode } = await alertOfToken(ctx);
      const request = await readAckForm(ctx, json);
      deps.ackChanges?.take(alert.id);
      // The episode is checked again inside the write's transaction: the alert may recover and alert anew meanwhile.
      const ack = await acknowledgeAlert(deps.store, alert, request, deps.now(), episode);
      return { alert, ack };
    };
    if (json) {
      const { alert, ack } = await act();
      ctx.body = { id: alert.id, name: alert.name, acknowledgement: ack };
      return;
    }
    await answerAsPage(ctx, async () => {
      const { alert, ack } = await act();
      return renderDonePage(alert.name, ack.by);
    });
  });
}

/** The POSTed form (urlencoded) or JSON body, checked against the API's ack body (without `until`). */
async function readAckForm(ctx: Context, json: boolean): Promise<AckRequest> {
  const text = await readBodyText(ctx.req, FORM_LIMIT_BYTES);
  let body: Record<string, unknown>;
  if (json) {
    try {
      body = JSON.parse(text || '{}') as Record<string, unknown>;
    } catch {
      throw invalidBody([{ path: '', message: 'is not valid JSON' }]);
    }
  } else {
    const form = new URLSearchParams(text);
    body = { by: form.get('by') ?? '', ...(form.get('note') ? { note: form.get('note') } : {}) };
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidBody([{ path: '', message: 'must be a JSON object' }]);
  const problems = checkSchema('alert', 'ack', body);
  if (problems.length > 0) throw invalidBody(problems);
  if ((body as { until?: unknown }).until !== undefined) throw invalidBody([{ path: 'until', message: 'is not accepted on a link' }]);
  return body as unknown as AckRequest;
}

/** Answers an HTML page: the one `render` builds, or the refusal's page with its status (never a stack trace). */
async function answerAsPage(ctx: Context, render: () => Promise<string>): Promise<void> {
  ctx.set('Content-Security-Policy', ACK_PAGE_CSP);
  // The URL holds the token: no other site learns it from a Referer, and no cache keeps the page.
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'text/html; charset=utf-8';
  try {
    ctx.body = await render();
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    ctx.status = error.status;
    ctx.body = renderProblemPage(error.message);
  }
}
