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
export function registerMuteRoutes(router: Router, deps: RouteDeps): void {
  const { store } = deps;

  router.post('/v2/alerts/muted', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    const problems = checkSchema('alert', 'bulkMute', body);
    if (problems.length > 0) throw invalidBody(problems);
    const { duration } = body as { duration: number };
    const result = await store.setMutedUntil(accountOf(ctx), selectorOf(body), deps.now() + duration * MINUTE);
    assertAllFound(result.missing);
    await recordMutes(deps, result.ids, 'muted', duration);
    ctx.body = { ids: result.ids, duration };
  });

  router.delete('/v2/alerts/muted', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    const problems = checkSchema('alert', 'bulkUnmute', body);
    if (problems.length > 0) throw invalidBody(problems);
    const result = await store.setMutedUntil(accountOf(ctx), selectorOf(body), null);
    assertAllFound(result.missing);
    await recordMutes(deps, result.ids, 'unmuted');
    ctx.body = { ids: result.ids };
  });

  router.post('/v2/alerts/:id/muted', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    const alert = await findAlert(ctx, store);
    const problems = checkSchema('alert', 'mute', body);
    if (problems.length > 0) throw invalidBody(problems);
    const { duration } = body as { duration: number };
    await store.setMutedUntil(accountOf(ctx), { ids: [alert.id], search: null }, deps.now() + duration * MINUTE);
    await recordMutes(deps, [alert.id], 'muted', duration);
    ctx.body = { duration };
  });

  router.delete('/v2/alerts/:id/muted', async (ctx) => {
    const alert = await findAlert(ctx, store);
    await store.setMutedUntil(accountOf(ctx), { ids: [alert.id], search: null }, null);
    await recordMutes(deps, [alert.id], 'unmuted');
    const schedules = await schedulesOf(ctx, store, [alert]);
    const window = await mutingWindowOf(store, accountOf(ctx), alert, deps.now());
    ctx.body = presentMuteStatus({ ...alert, mutedUntil: null }, [...schedules.values()], deps.now(), window);
  });

  router.get('/v2/alerts/:id/muted', async (ctx) => {
    const alert = await findAlert(ctx, store);
    const schedules = await schedulesOf(ctx, store, [alert]);
    const window = await mutingWindowOf(store, accountOf(ctx), alert, deps.now());
    ctx.body = presentMuteStatus(alert, [...schedules.values()], deps.now(), window);
  });
}

/**
 * Puts mutes and unmutes in the alerts' history (the console's timeline; /v2/alerts/history/ leaves them out). Written
 * after the mute itself: a crash between the two loses the entry, never the mute.
 */
async function recordMutes(deps: RouteDeps, ids: string[], kind: 'muted' | 'unmuted', minutes?: number): Promise<void> {
  const now = deps.now();
  const reason = kind === 'muted' ? `muted for ${minutes} minutes, until ${new Date(now + minutes! * MINUTE).toISOString()}` : 'unmuted';
  await deps.store.appendHistory(ids.map((alertId) => ({ alertId, status: kind, value: null, time: Math.floor(now / 1000), metric: '', reason })));
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
