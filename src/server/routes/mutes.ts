import type Router from '@koa/router';
import { HttpError, MAX_DETAILS, echo, invalidBody, notFound } from '../errors.js';
import { readJsonBody } from '../http/read-json-body.js';
import { presentMuteStatus } from '../present.js';
import type { AlertSelector } from '../store/store.js';
import { checkSchema } from '../validation/check-schema.js';
import { findAlert, schedulesOf } from './alerts.js';
import { accountOf, type RouteDeps } from './route-context.js';
import { mutingWindowOf } from './windows.js';

const MINUTE = 60_000;

/** Operations 6-10 of the seed: mute, unmute and mute status, single and bulk. Bulk routes first. */
export function registerMuteRoutes(router: Router, deps: RouteDeps<'alerts' | 'history' | 'schedules' | 'windows'>): void {
  const { store } = deps;

  router.post('/v2/alerts/muted', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    const problems = checkSchema('alert', 'bulkMute', body);
    if (problems.length > 0) throw invalidBody(problems);
    const { duration } = body as { duration: number };
    const result = await store.alerts.setMutedUntil(accountOf(ctx), selectorOf(body), deps.now() + duration * MINUTE);
    assertAllFound(result.missing);
    await recordMutes(deps, result.ids, 'muted', auditOf(body), duration);
    ctx.body = { ids: result.ids, duration };
  });

  router.delete('/v2/alerts/muted', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    const problems = checkSchema('alert', 'bulkUnmute', body);
    if (problems.length > 0) throw invalidBody(problems);
    const result = await store.alerts.setMutedUntil(accountOf(ctx), selectorOf(body), null);
    assertAllFound(result.missing);
    await recordMutes(deps, result.ids, 'unmuted', auditOf(body));
    ctx.body = { ids: result.ids };
  });

  router.post('/v2/alerts/:id/muted', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    const alert = await findAlert(ctx, store.alerts);
    const problems = checkSchema('alert', 'mute', body);
    if (problems.length > 0) throw invalidBody(problems);
    const { duration } = body as { duration: number };
    await store.alerts.setMutedUntil(accountOf(ctx), { ids: [alert.id], search: null }, deps.now() + duration * MINUTE);
    await recordMutes(deps, [alert.id], 'muted', auditOf(body), duration);
    ctx.body = { duration };
  });

  router.delete('/v2/alerts/:id/muted', async (ctx) => {
    // An optional body says who unmutes and why (an empty one is `{}`).
    const body = await readJsonBody(ctx.req);
    const alert = await findAlert(ctx, store.alerts);
    const problems = checkSchema('alert', 'unmute', body);
    if (problems.length > 0) throw invalidBody(problems);
    await store.alerts.setMutedUntil(accountOf(ctx), { ids: [alert.id], search: null }, null);
    await recordMutes(deps, [alert.id], 'unmuted', auditOf(body));
    const schedules = await schedulesOf(ctx, store, [alert]);
    const window = await mutingWindowOf(store, accountOf(ctx), alert, deps.now());
    ctx.body = presentMuteStatus({ ...alert, mutedUntil: null }, [...schedules.values()], deps.now(), window);
  });

  router.get('/v2/alerts/:id/muted', async (ctx) => {
    const alert = await findAlert(ctx, store.alerts);
    const schedules = await schedulesOf(ctx, store, [alert]);
    const window = await mutingWindowOf(store, accountOf(ctx), alert, deps.now());
    ctx.body = presentMuteStatus(alert, [...schedules.values()], deps.now(), window);
  });
}

/** Who mutes or unmutes when the request does not say (API keys carry no name of their own). */
export const DEFAULT_MUTED_BY = 'api';

/** The audit of a mute or unmute: `by` (default DEFAULT_MUTED_BY) and the optional `reason`. */
function auditOf(body: Record<string, unknown>): { by: string; reason: string | null } {
  const by = typeof body.by === 'string' && body.by.trim() !== '' ? body.by.trim() : DEFAULT_MUTED_BY;
  const reason = typeof body.reason === 'string' && body.reason.trim() !== '' ? body.reason.trim() : null;
  return { by, reason };
}

/**
 * Puts mutes and unmutes in the alerts' history (the console's timeline; /v2/alerts/history/ leaves them out), with
 * who and why: `muted for 60 minutes, until …: the reason given`. Written after the mute itself: a crash between the
 * two loses the entry, never the mute.
 */
async function recordMutes(deps: RouteDeps<'history'>, ids: string[], kind: 'muted' | 'unmuted', audit: { by: string; reason: string | null }, minutes?: number): Promise<void> {
  const now = deps.now();
  const what = kind === 'muted' ? `muted for ${minutes} minutes, until ${new Date(now + minutes! * MINUTE).toISOString()}` : 'unmuted';
  const reason = audit.reason ? `${what}: ${audit.reason}` : what;
  await deps.store.history.appendHistory(
    ids.map((alertId) => ({ alertId, status: kind, value: null, time: Math.floor(now / 1000), metric: '', reason, actor: audit.by })),
  );
}

function selectorOf(body: Record<string, unknown>): AlertSelector {
  const search = typeof body.search === 'string' && body.search !== '' ? body.search : null;
  return { ids: (body.ids as string[] | undefined) ?? [], search };
}

/** All or nothing: an unknown id in a bulk request is 404 and nothing was changed. */
function assertAllFound(missing: string[]): void {
  if (missing.length === 0) return;
  // The message names a few; details (capped by HttpError) list the rest.
  const named = missing.slice(0, 3).map((id) => echo(id)).join(', ');
  const more = missing.length > 3 ? ` and ${missing.length - 3} more` : '';
  const error = notFound(`alert ${named}${more}`);
  throw new HttpError('not_found', `${error.message}; nothing was changed`, {
    details: missing.slice(0, MAX_DETAILS + 1).map((id) => ({ path: 'ids', message: `no alert with id ${echo(id)}` })),
  });
}
