import type Router from '@koa/router';
import type { Context } from 'koa';
import { windowMatcher, type MaintenanceWindow, type WindowAlert, type WindowMatch } from '../../model/maintenance-window.js';
import type { FieldProblem } from '../../model/schemas.js';
import { HttpError, echo, invalidBody, notFound } from '../errors.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { AlertRecord, Store } from '../store/store.js';
import { AccountWindows, activeMutingWindow, modelWindow } from '../store/window-mutes.js';
import type { MutingWindow, WindowRecord, WindowWrite } from '../store/window-store.js';
import { QueryReader, readPaging } from '../validation/query.js';
import { windowOccurrence } from '../../model/window-occurrence.js';
import { WINDOW_LIMITS, checkWindowBody, checkWindowMatch } from '../../model/window-rules.js';
import { withConflict } from './alerts.js';
import { dropReadOnlyFields } from './read-only-fields.js';
import { accountOf, param, type RouteDeps } from './route-context.js';

/** The read-only fields of a window, accepted and ignored by PUT (a window read by GET can be sent back). */
const READ_ONLY = ['id', 'created_by', 'updated_by', 'next_occurrence'];
/** The most alerts a preview names (its `count` says how many it matches). */
export const PREVIEW_NAMES = 100;

/** The API's window object. */
export interface WindowRead {
  id: string;
  name: string;
  reason: string | null;
  match: WindowMatch;
  starts_at: string | null;
  start_time: string | null;
  repeat: string[] | null;
  timezone: string;
  duration: number;
  created_by: string;
  updated_by: string;
}

/** A window as the API answers it: its fields, and when it mutes next (or now), by the same clock the evaluator uses. */
export interface WindowAnswer extends WindowRead {
  next_occurrence: { starts_at: string; ends_at: string; active: boolean } | null;
}

/** presentWindow with `next_occurrence` at `now`: what GET, POST and PUT answer (a PUT ignores it when sent back). */
export function presentWindowAnswer(window: WindowRecord, now: number): WindowAnswer {
  const occurrence = windowOccurrence(modelWindow(window), now);
  return {
    ...presentWindow(window),
    next_occurrence: occurrence
      ? { starts_at: new Date(occurrence.start).toISOString(), ends_at: new Date(occurrence.end).toISOString(), active: occurrence.active }
      : null,
  };
}

export function presentWindow(window: WindowRecord): WindowRead {
  return {
    id: window.id,
    name: window.name,
    reason: window.reason,
    match: window.match,
    starts_at: window.startsAt,
    start_time: window.startTime,
    repeat: window.repeat,
    timezone: window.timezone,
    duration: window.duration,
    created_by: window.createdBy,
    updated_by: window.updatedBy,
  };
}

/**
 * Maintenance windows (/v2/maintenance_windows/, an alertform extension): an account's windows, which mute the
 * alerts they match while they are active (the evaluator: store/window-mutes.ts). Each write records
 * `window_changed` in the history of the alerts the window matches (before or after the write).
 */
export function registerWindowRoutes(router: Router, deps: RouteDeps): void {
  const { store } = deps;

  router.post('/v2/maintenance_windows/preview', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    // A window being typed: only its match is read, so half-written timing does not stop the preview.
    const problems: FieldProblem[] = [];
    const match = checkWindowMatch((body as { match?: unknown } | null)?.match, problems);
    if (!match) throw invalidBody(problems);
    const matched = await matchingAlerts(store, accountOf(ctx), { match: await resolveChannels(store, accountOf(ctx), match) });
    ctx.body = { alerts: matched.slice(0, PREVIEW_NAMES).map((alert) => ({ id: alert.id, name: alert.name })), count: matched.length };
  });

  router.post('/v2/maintenance_windows', async (ctx) => {
    const account = accountOf(ctx);
    const write = await checkedWindowWrite(store, account, await readJsonBody(ctx.req), actorOf(ctx));
    const held = await store.windows.searchWindows(account, { search: null, page: WINDOW_LIMITS.perAccount, max: 1 });
    if (held.items.length > 0) {
      throw new HttpError('quota_exceeded', `the account already has ${WINDOW_LIMITS.perAccount} maintenance windows, the most it may have; delete some first`);
    }
    const window = await withConflict(() => store.windows.createWindow(account, write));
    await recordChange(deps, account, [window], window, 'created', write.by);
    ctx.status = 201;
    ctx.body = presentWindowAnswer(window, deps.now());
  });

  router.get('/v2/maintenance_windows', async (ctx) => {
    const query = new QueryReader(ctx.querystring, { single: ['page', 'max', 'search'] });
    const paging = readPaging(query);
    const search = query.text('search');
    query.assertValid();
    const page = await store.windows.searchWindows(accountOf(ctx), { search, ...paging });
    ctx.body = { maintenance_windows: page.items.map((window) => presentWindowAnswer(window, deps.now())), next_page: page.nextPage ? paging.page + 1 : false };
  });

  router.get('/v2/maintenance_windows/:id', async (ctx) => {
    ctx.body = presentWindowAnswer(await findWindow(ctx, store), deps.now());
  });

  router.put('/v2/maintenance_windows/:id', async (ctx) => {
    const account = accountOf(ctx);
    const body = await readJsonBody(ctx.req);
    const stored = await findWindow(ctx, store);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidBody([{ path: '', message: 'must be a JSON object' }]);
    // Fields left out keep their stored values; null clears one (a recurring window becomes a one-off one).
    const { id: _id, created_by: _c, updated_by: _u, ...current } = presentWindow(stored);
    const write = await checkedWindowWrite(store, account, { ...current, ...dropReadOnlyFields(body as Record<string, unknown>, stored.id, READ_ONLY) }, actorOf(ctx));
    const updated = await withConflict(() => store.windows.updateWindow(account, stored.id, write));
    if (!updated) throw notFound('maintenance window');
    await recordChange(deps, account, [stored, updated], updated, 'updated', write.by);
    ctx.body = presentWindowAnswer(updated, deps.now());
  });

  router.delete('/v2/maintenance_windows/:id', async (ctx) => {
    const account = accountOf(ctx);
    const stored = await findWindow(ctx, store);
    if (!(await store.windows.deleteWindow(account, stored.id))) throw notFound('maintenance window');
    await recordChange(deps, account, [stored], stored, 'deleted', actorOf(ctx));
    ctx.body = { id: stored.id, deleted: true };
  });
}

/**
 * Who writes: the API key's name. Keys carry no name on this server, so every write is by "api"; the console's
 * writes go through the API with a key too.
 */
function actorOf(_ctx: Context): string {
  return 'api';
}

async function findWindow(ctx: Context, store: Store): Promise<WindowRecord> {
  const window = await store.windows.getWindow(accountOf(ctx), param(ctx, 'id'));
  if (!window) throw notFound('maintenance window');
  return window;
}

/** A window's body as the API checks it (fields, then channel refs resolved to ids): the store's write, or a 400. */
export async function checkedWindowWrite(store: Pick<Store, 'channels'>, accountId: string, body: unknown, by: string): Promise<WindowWrite> {
  const checked = checkWindowBody(body);
  if (!checked.ok) throw invalidBody(checked.problems);
  return { ...checked.value, match: await resolveChannels(store, accountId, checked.value.match), by };
}

/** `match.channels` as ids: each ref an id or a channel's name (description) of the account; an unknown one is a 400. */
async function resolveChannels(store: Pick<Store, 'channels'>, accountId: string, match: WindowMatch): Promise<WindowMatch> {
  if (!match.channels) return match;
  const found = await store.channels.findChannelsByRefs(accountId, match.channels);
  const problems: FieldProblem[] = [];
  const ids = match.channels.map((ref, index) => {
    const channel = found.find((one) => one.id === ref) ?? found.find((one) => one.description === ref);
    if (!channel) problems.push({ path: `match.channels[${index}]`, message: `no notification channel has the id or name ${echo(ref)}` });
    return channel?.id ?? '';
  });
  if (problems.length > 0) throw invalidBody(problems);
  return { ...match, channels: [...new Set(ids)] };
}

/** Every alert of the account, oldest first, a page at a time (an account holds at most its alerts quota). */
async function accountAlerts(store: Pick<Store, 'alerts'>, accountId: string): Promise<AlertRecord[]> {
  const alerts: AlertRecord[] = [];
  for (let page = 1; ; page += 1) {
    const found = await store.alerts.searchAlerts(accountId, { names: [], ids: [], search: null, page, max: 1000 });
    alerts.push(...found.items);
    if (!found.nextPage) return alerts;
  }
}

/** The account's alerts that `window` (a window being typed: not kept) matches, whatever the time. */
async function matchingAlerts(store: Pick<Store, 'alerts'>, accountId: string, window: Pick<MaintenanceWindow, 'match'>): Promise<AlertRecord[]> {
  const matcher = windowMatcher(window);
  return filterInSlices(await accountAlerts(store, accountId), (alert) => matcher(windowAlertOf(alert), NO_NAMES));
}

/** How long a route's matching may hold the event loop before it yields. */
const SLICE_MS = 10;
const NO_NAMES: ReadonlyMap<string, string> = new Map();

/** `items.filter(keep)`, yielding to the event loop every few milliseconds (an account's alerts at its quota). */
async function filterInSlices<T>(items: readonly T[], keep: (item: T) => boolean): Promise<T[]> {
  const kept: T[] = [];
  let sliceStart = performance.now();
  for (const item of items) {
    if (keep(item)) kept.push(item);
    if (performance.now() - sliceStart >= SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return kept;
}

/** What a window's match reads of a stored alert. */
export function windowAlertOf(alert: AlertRecord): WindowAlert {
  return { name: alert.name, metric: alert.metric, additional_criteria: alert.additionalCriteria, notification_channels: alert.notificationChannels };
}

/**
 * The `window_changed` entries of a write, on every alert one of `versions` (the window before and after) matches:
 * who changed which window, how, and why. Written after the window itself, as mutes are: a crash between the two
 * loses the entry, never the change.
 */
async function recordChange(deps: RouteDeps, accountId: string, versions: WindowRecord[], window: WindowRecord, change: string, by: string): Promise<void> {
  const alerts = await accountAlerts(deps.store, accountId);
  // One version after the other (the kept answers are per window version), through the process's cache: the
  // evaluator's next listing finds the new version's answers kept.
  const ids = new Set<string>();
  for (const version of versions) {
    const windows = new AccountWindows([version]);
    for (const alert of await filterInSlices(alerts, (one) => windows.matching(accountId, one.id, windowAlertOf(one)).length > 0)) ids.add(alert.id);
  }
  const matched = alerts.filter((alert) => ids.has(alert.id));
  if (matched.length === 0) return;
  const reason = `maintenance window "${window.name}" ${change} by ${by}${window.reason ? `: ${window.reason}` : ''}`;
  const time = Math.floor(deps.now() / 1000);
  await deps.store.history.appendHistory(matched.map((alert) => ({ alertId: alert.id, status: 'window_changed', value: null, time, metric: '', reason })));
}

/** The account's window that mutes `alert` at `now` (epoch ms), for its mute status; null when none does. */
export async function mutingWindowOf(store: Pick<Store, 'windows'>, accountId: string, alert: AlertRecord, now: number): Promise<MutingWindow | null> {
  const windows = await store.windows.listWindows(accountId);
  if (windows.length === 0) return null;
  return activeMutingWindow(new AccountWindows(windows).matching(accountId, alert.id, windowAlertOf(alert)), now);
}

/**
 * Which of `alerts` a window of the account mutes at `now` (epoch ms): the alert read's `muted` (and so `alertform
 * status`) says what the overview and the evaluator say. One query; the alerts are matched only when the account has
 * windows.
 */
export async function windowMutedAlerts(store: Pick<Store, 'windows'>, accountId: string, alerts: readonly AlertRecord[], now: number): Promise<Set<string>> {
  const muted = new Set<string>();
  if (alerts.length === 0) return muted;
  const windows = await store.windows.listWindows(accountId);
  if (windows.length === 0) return muted;
  const matcher = new AccountWindows(windows);
  // Matched in slices first (a hostile account's first match must not hold the event loop), then looked up.
  await matcher.prepare(alerts.map((alert) => ({ accountId, alertId: alert.id, alert: windowAlertOf(alert) })));
  for (const alert of alerts) if (activeMutingWindow(matcher.matching(accountId, alert.id, windowAlertOf(alert)), now)) muted.add(alert.id);
  return muted;
}

/**
 * The account's alerts that a window mutes at `now` (epoch ms), by id, for the overview's `muted`: one query when the
 * account has no window; otherwise its alerts are matched once against its windows.
 */
export async function windowMutesOf(store: Pick<Store, 'alerts' | 'windows'>, accountId: string, now: number): Promise<Map<string, MutingWindow>> {
  const windows = await store.windows.listWindows(accountId);
  const muted = new Map<string, MutingWindow>();
  if (windows.length === 0) return muted;
  const matcher = new AccountWindows(windows);
  const alerts = await accountAlerts(store, accountId);
  await matcher.prepare(alerts.map((alert) => ({ accountId, alertId: alert.id, alert: windowAlertOf(alert) })));
  for (const alert of alerts) {
    const window = activeMutingWindow(matcher.matching(accountId, alert.id, windowAlertOf(alert)), now);
    if (window) muted.set(alert.id, window);
  }
  return muted;
}
