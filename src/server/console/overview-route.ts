import { isAcknowledgedAt } from '../../model/acknowledgement.js';
import type Router from '@koa/router';
import { QueryReader } from '../validation/query.js';
import { accountOf, type RouteDeps } from '../routes/route-context.js';
import type { AlertSummary } from '../store/alert-summary.js';
import type { AlertRecord, ChannelRecord, ScheduleRecord, Store } from '../store/store.js';
import { OVERVIEW_SORTS, OVERVIEW_STATES, classifyAlert, countStates, filterItems, mutedByWindow, sinceOf, sortItems, summarizeAlert, type OverviewItem } from './alert-overview.js';
import { windowMutesOf } from '../routes/windows.js';

/** How far back the history is read to say since when an alert is in its state. */
const SINCE_HISTORY_DAYS = 90;
/** Every alert of an account in one read: the per-account quota is 10,000 by default. */
const ALL = 1_000_000;

/**
 * alertform's own (additive) GET /v2/alerts/overview/: the console's alert list. Counts per state over all the
 * account's alerts, then one page of the ones matching `state` (repeatable) and `search`, sorted by `sort`; each
 * row with its state, since when, triggered metrics and channels. One request serves the first paint.
 */
export function registerOverviewRoute(router: Router, deps: RouteDeps<'alerts' | 'channels' | 'history' | 'schedules' | 'windows'>): void {
  router.get('/v2/alerts/overview', async (ctx) => {
    const query = new QueryReader(ctx.querystring, { repeatable: ['state'], single: ['search', 'sort', 'page', 'max'] });
    const states = query.list('state');
    for (const state of states) {
      if (!(OVERVIEW_STATES as readonly string[]).includes(state)) query.problems.push({ path: 'state', message: `must be one of ${OVERVIEW_STATES.join(', ')}` });
    }
    const search = query.text('search');
    const sort = query.oneOf('sort', [...OVERVIEW_SORTS, ...OVERVIEW_SORTS.map((key) => `-${key}`)]) ?? 'state';
    const page = query.integer('page', 1, 1, 1_000_000);
    const max = query.integer('max', 50, 1, 500);
    query.assertValid();

    const account = accountOf(ctx);
    const now = deps.now();
    const alerts = deps.store.alerts.listAlertSummaries
      ? await deps.store.alerts.listAlertSummaries(account)
      : (await deps.store.alerts.searchAlerts(account, { names: [], ids: [], search: null, page: 1, max: ALL })).items.map(summarizeAlert);
    const schedules = await loadSchedules(deps.store, account, alerts);
    const evaluating = await deps.evaluation.evaluating();
    const windows = await windowMutesOf(deps.store, account, now);
    const items = alerts.map((alert) =>
      mutedByWindow(classifyAlert(alert, alert.scheduledMutes.flatMap((id) => schedules.get(id) ?? []), now, evaluating), windows.get(alert.id)?.until),
    );
    const matching = sortItems(filterItems(items, states, search), sort);
    const rows = matching.slice((page - 1) * max, page * max);

    const ids = rows.map((row) => row.alert.id);
    // The page's rows in full (triggered metrics, channels): at most `max` records.
    const full = ids.length ? (await deps.store.alerts.searchAlerts(account, { names: [], ids, search: null, page: 1, max: ids.length })).items : [];
    const records = new Map(full.map((alert) => [alert.id, alert]));
    const history = ids.length
      ? await deps.store.history.searchHistory(account, { alertIds: ids, since: Math.floor(now / 1000) - SINCE_HISTORY_DAYS * 86_400, status: null, value: null })
      : [];
    const channels = await loadChannels(deps.store, account, [...records.values()]);
    ctx.body = {
      counts: countStates(items),
      matching: matching.length,
      page,
      max,
      next_page: page * max < matching.length,
      // A row deleted between the two reads is left out of this page.
      alerts: rows.flatMap((row) => {
        const record = records.get(row.alert.id);
        if (!record) return [];
        const since = sinceOf(row, history.filter((entry) => entry.alertId === row.alert.id));
        return [presentRow(row, record, since, channels, now)];
      }),
    };
  });
}

/** One row of the overview: the alert's state and since when, its triggered metrics and channels (no destinations). */
function presentRow(row: OverviewItem, record: AlertRecord, since: number | null, channels: Map<string, ChannelRecord>, now: number) {
  return {
    id: row.alert.id,
    name: row.alert.name,
    metric: row.alert.metric,
    state: row.state,
    status: row.alert.status,
    muted: row.muted,
    muted_until: row.mutedUntil === null ? null : Math.floor(row.mutedUntil / 1000),
    query_failing: row.queryFailing,
    since,
    currently_triggered_metrics: record.currentlyTriggeredMetrics,
    channels: record.notificationChannels.flatMap((id) => {
      const channel = channels.get(id);
      return channel ? [{ id, type: channel.type, description: channel.description }] : [];
    }),
    acknowledgement: isAcknowledgedAt(record.acknowledgement, Math.floor(now / 1000)) ? record.acknowledgement : null,
  };
}

async function loadSchedules(store: Pick<Store, 'alerts' | 'channels' | 'history' | 'schedules'>, account: string, alerts: AlertSummary[]): Promise<Map<string, ScheduleRecord>> {
  const ids = [...new Set(alerts.flatMap((alert) => alert.scheduledMutes))];
  if (ids.length === 0) return new Map();
  return new Map((await store.schedules.getSchedulesByIds(account, ids)).map((schedule) => [schedule.id, schedule]));
}

async function loadChannels(store: Pick<Store, 'alerts' | 'channels' | 'history' | 'schedules'>, account: string, alerts: AlertRecord[]): Promise<Map<string, ChannelRecord>> {
  const ids = [...new Set(alerts.flatMap((alert) => alert.notificationChannels))];
  if (ids.length === 0) return new Map();
  const page = await store.channels.searchChannels(account, { types: [], descriptions: [], ids, autoResolve: null, page: 1, max: ALL });
  return new Map(page.items.map((channel) => [channel.id, channel]));
}
