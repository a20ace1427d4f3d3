import { windowMutedAlerts } from './windows.js';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AlertBody } from '../../model/types.js';
import { conflict, invalidBody, notFound } from '../errors.js';
import { readJsonBody } from '../http/read-json-body.js';
import { presentAlert } from '../present.js';
import { UniqueViolation, type AlertRecord, type AlertWrite, type ScheduleRecord, type Store } from '../store/store.js';
import type { AlertStore } from '../store/alert-store.js';
import { checkAlertRules, mergeAlertUpdate, type ReferenceLookup } from '../validation/alert-rules.js';
import { checkSchema } from '../validation/check-schema.js';
import { QueryReader, readPaging } from '../validation/query.js';
import { DEFAULT_CHANNEL } from '../../model/defaults.js';
import { READ_ONLY_FIELDS, dropReadOnlyFields } from './read-only-fields.js';
import { accountOf, param, prefixesOf, type RouteDeps } from './route-context.js';
import { assertBelowQuota } from '../quotas.js';
import { alertJson, sendJson } from './alert-json.js';

/** Operations 1-5 of the seed: create, search, read, update and delete alerts. */
export function registerAlertRoutes(router: Router, deps: RouteDeps<'alerts' | 'channels' | 'console' | 'schedules' | 'windows'>): void {
  const { store } = deps;

  router.post('/v2/alerts', async (ctx) => {
    const account = accountOf(ctx);
    const write = await checkedAlertCreate(store, account, await readJsonBody(ctx.req), prefixesOf(ctx));
    await assertBelowQuota(store, account, 'alerts', deps.quotas.alerts);
    const alert = await withConflict(() => store.alerts.createAlert(account, write));
    if (isManagedWrite(ctx)) await store.console.setManagedFromGit(account, alert.id, true);
    ctx.status = 201;
    const warnings = await unaddressedWarnings(store, account, alert.notificationChannels);
    ctx.body = { id: alert.id, url: `/v2/alerts/${alert.id}`, ...(warnings.length > 0 ? { warnings } : {}) };
  });

  router.get('/v2/alerts', async (ctx) => {
    const query = new QueryReader(ctx.querystring, { repeatable: ['name', 'id'], single: ['search', 'page', 'max'] });
    const paging = readPaging(query);
    const search = query.text('search');
    query.assertValid();
    const page = await (deps.alertReads ?? store.alerts).searchAlerts(accountOf(ctx), {
      names: query.list('name'),
      ids: query.list('id'),
      search,
      ...paging,
    });
    // The text JSON.stringify gives for { alerts, next_page }, from each alert's remembered text.
    const alerts = await alertsJson(ctx, deps, page.items);
    sendJson(ctx, `{"alerts":[${alerts.join(',')}],"next_page":${JSON.stringify(page.nextPage)}}`);
  });

  router.get('/v2/alerts/:id', async (ctx) => {
    const alert = await findAlert(ctx, deps.alertReads ?? store.alerts);
    sendJson(ctx, (await alertsJson(ctx, deps, [alert]))[0]!);
  });

  router.put('/v2/alerts/:id', async (ctx) => {
    const account = accountOf(ctx);
    const body = await readJsonBody(ctx.req);
    const stored = await findAlert(ctx, store.alerts);
    const problems = checkSchema('alert', 'update', body);
    if (problems.length > 0) throw invalidBody(problems);
    const patch = dropReadOnlyFields(body, stored.id, READ_ONLY_FIELDS.alert);
    const merged = mergeAlertUpdate(stored, patch as Partial<AlertBody>);
    const checked = await checkAlertRules(merged, referenceLookup(store, account), prefixesOf(ctx), stored.id);
    if (!checked.ok) throw invalidBody(checked.problems);
    const updated = await withConflict(() => store.alerts.updateAlert(account, stored.id, checked.value));
    if (!updated) throw notFound('alert');
    if (isManagedWrite(ctx)) await store.console.setManagedFromGit(account, updated.id, true);
    ctx.body = (await presentAlerts(ctx, deps, [updated]))[0];
  });

  router.delete('/v2/alerts/:id', async (ctx) => {
    const id = param(ctx, 'id');
    // The seed documents 400 for deleting an alert that does not exist; the code says not_found.
    if (!(await store.alerts.deleteAlert(accountOf(ctx), id))) throw notFound('alert', 400);
    ctx.body = { id, deleted: true };
  });
}

/**
 * Whether a write comes from alertform's apply (the client's MANAGED_FROM_GIT_HEADER): such alerts are marked
 * managed from git. The mark is never cleared by a write without it (a hand edit of a defined alert is drift, not
 * a change of owner) and is not part of the alert's read object, so it never shows in a plan.
 */
function isManagedWrite(ctx: Context): boolean {
  return ctx.get('x-alertform-managed').toLowerCase() === 'git';
}

/** The account's alert named by the :id path parameter, or 404. */
export async function findAlert(ctx: Context, alerts: Pick<AlertStore, 'getAlert'>): Promise<AlertRecord> {
  const alert = await alerts.getAlert(accountOf(ctx), param(ctx, 'id'));
  if (!alert) throw notFound('alert');
  return alert;
}

/** Read objects of alerts, with the schedules their muted flag depends on loaded in one go. */
export async function presentAlerts(ctx: Context, deps: RouteDeps<'schedules' | 'windows'>, alerts: AlertRecord[]) {
  const schedules = await schedulesOf(ctx, deps.store, alerts);
  const now = deps.now();
  const evaluating = await deps.evaluation.evaluating();
  const by = deps.evaluation.evaluatedBy;
  const byWindow = await windowMutedAlerts(deps.store, accountOf(ctx), alerts, now);
  return alerts.map((alert) => presentAlert(alert, alert.scheduledMutes.flatMap((id) => schedules.get(id) ?? []), now, evaluating, by ? by(alert) : 'render', byWindow.has(alert.id)));
}

/** The JSON text of presentAlerts' read objects (remembered for cached records: routes/alert-json.ts). */
async function alertsJson(ctx: Context, deps: RouteDeps<'schedules' | 'windows'>, alerts: AlertRecord[]): Promise<string[]> {
  const schedules = await schedulesOf(ctx, deps.store, alerts);
  const now = deps.now();
  const evaluating = deps.evaluation.evaluatingKnown() ?? (await deps.evaluation.evaluating());
  const by = deps.evaluation.evaluatedBy;
  const byWindow = await windowMutedAlerts(deps.store, accountOf(ctx), alerts, now);
  return alerts.map((alert) =>
    alertJson(alert, alert.scheduledMutes.length === 0 ? [] : alert.scheduledMutes.flatMap((id) => schedules.get(id) ?? []), now, evaluating, by ? by(alert) : 'render', byWindow.has(alert.id)),
  );
}

/** The schedules referenced by the alerts, by id. */
export async function schedulesOf(ctx: Context, store: Pick<Store, 'schedules'>, alerts: AlertRecord[]): Promise<Map<string, ScheduleRecord>> {
  // Most alerts have no scheduled mute: answer those without building the id set (a cached read's hot path).
  if (alerts.every((alert) => alert.scheduledMutes.length === 0)) return new Map();
  const ids = [...new Set(alerts.flatMap((alert) => alert.scheduledMutes))];
  if (ids.length === 0) return new Map();
  return new Map((await store.schedules.getSchedulesByIds(accountOf(ctx), ids)).map((schedule) => [schedule.id, schedule]));
}

/**
 * A create's body as the API checks it (the schema, then the rules against the account's channels, schedules and
 * metric prefixes): the store's write, or a 400 with every problem.
 */
export async function checkedAlertCreate(
  store: Pick<Store, 'alerts' | 'channels' | 'schedules'>,
  accountId: string,
  body: unknown,
  metricPrefixes: readonly string[] = [],
): Promise<AlertWrite> {
  const problems = checkSchema('alert', 'create', body);
  if (problems.length > 0) throw invalidBody(problems);
  const checked = await checkAlertRules(body as unknown as AlertBody, referenceLookup(store, accountId), metricPrefixes);
  if (!checked.ok) throw invalidBody(checked.problems);
  return checked.value;
}

/** The account's alerts, channels and schedules as the alert rules look them up. */
export function referenceLookup(store: Pick<Store, 'alerts' | 'channels' | 'schedules'>, accountId: string): ReferenceLookup {
  return {
    async resolveChannels(refs) {
      const channels = await store.channels.findChannelsByRefs(accountId, refs);
      const resolved = new Map<string, string>();
      // Ids first: a channel whose description looks like another's id must not hijack it.
      for (const channel of channels) resolved.set(channel.id, channel.id);
      for (const channel of channels) if (!resolved.has(channel.description)) resolved.set(channel.description, channel.id);
      return new Map(refs.flatMap((ref) => (resolved.has(ref) ? [[ref, resolved.get(ref)!] as const] : [])));
    },
    async defaultChannel() {
      const [channel] = await store.channels.findChannelsByRefs(accountId, [DEFAULT_CHANNEL]);
      return channel && channel.description === DEFAULT_CHANNEL ? channel.id : null;
    },
    async existingSchedules(ids) {
      return new Set((await store.schedules.getSchedulesByIds(accountId, ids)).map((schedule) => schedule.id));
    },
    async resolveAlerts(refs) {
      const found = await store.alerts.searchAlerts(accountId, { names: refs, ids: refs, search: null, page: 1, max: refs.length * 2 + 1 });
      const resolved = new Map<string, string>();
      // Ids first: an alert named like another's id must not hijack it.
      for (const alert of found.items) resolved.set(alert.id, alert.id);
      for (const alert of found.items) if (!resolved.has(alert.name)) resolved.set(alert.name, alert.id);
      return new Map(refs.flatMap((ref) => (resolved.has(ref) ? [[ref, resolved.get(ref)!] as const] : [])));
    },
    async dependencyEdges() {
      return (await store.alerts.listDependencies(accountId)).flatMap(({ id, dependsOn }) => dependsOn.map((edge) => ({ from: id, to: edge.alert })));
    },
    async alertNames(ids) {
      const found = await store.alerts.searchAlerts(accountId, { names: [], ids, search: null, page: 1, max: ids.length + 1 });
      return new Map(found.items.map((alert) => [alert.id, alert.name]));
    },
  };
}

/** Runs a store write, answering 409 when it breaks a uniqueness rule. */
export async function withConflict<T>(write: () => Promise<T>, status?: number): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueViolation) throw conflict(error.field, error.value, status);
    throw error;
  }
}

/**
 * Additive `warnings` of a create: an alert whose every channel is an email channel without an address (an alert
 * made without channels gets the account's `Email me`, unaddressed when the account was made without an email)
 * would have every notification dead-lettered at once, so the answer says so while it can still be fixed.
 */
async function unaddressedWarnings(store: Pick<Store, 'channels'>, account: string, channelIds: readonly string[]): Promise<string[]> {
  if (channelIds.length === 0) return ['notification_channels: the alert has no channel and notifies nobody'];
  const channels = await Promise.all(channelIds.map((id) => store.channels.getChannel(account, id)));
  if (!channels.every((channel) => channel !== null && channel.destination.trim() === '')) return [];
  const names = channels.map((channel) => `"${channel!.description}"`).join(', ');
  return [`notification_channels: ${names} has no address, so every notification of this alert will be dead-lettered; give the channel a destination or the alert another channel`];
}
