import type Router from '@koa/router';
import type { HistoryEntry } from '../../model/types.js';
import { echo } from '../errors.js';
import { QueryReader } from '../validation/query.js';
import { accountOf, type RouteDeps } from './route-context.js';

/** The history filters' status values: the seed's two, plus our additive query_failed and no_data. */
export const HISTORY_STATUSES = ['alerting', 'recovered', 'query_failed', 'no_data'] as const;

/** Operation 11: alert history, keyed by alert id, newest first; only alerts with entries appear. */
export function registerHistoryRoutes(router: Router, deps: RouteDeps<'alerts' | 'history'>): void {
  router.get('/v2/alerts/history', async (ctx) => {
    const account = accountOf(ctx);
    const query = new QueryReader(ctx.querystring, {
      repeatable: ['id'],
      single: ['days', 'status', 'value', 'time'],
      aliases: { alert_id: 'id' },
    });
    const days = query.integer('days', 3, 1, 90);
    const status = query.oneOf('status', HISTORY_STATUSES);
    const value = query.number('value');
    const time = query.integer('time', 0, 0, Number.MAX_SAFE_INTEGER);
    const ids = query.list('id');
    if (ids.length > 100) query.problems.push({ path: 'id', message: 'at most 100 ids' });
    else if (ids.length > 0) {
      // Another account's alert does not exist for this one: the same 400 as an id that never existed.
      const known = await deps.store.alerts.searchAlerts(account, { names: [], ids, search: null, page: 1, max: 100 });
      const knownIds = new Set(known.items.map((alert) => alert.id));
      for (const id of ids) if (!knownIds.has(id)) query.problems.push({ path: 'id', message: `no alert with id ${echo(id)}` });
    }
    query.assertValid();
    const since = Math.max(Math.floor(deps.now() / 1000) - days * 86_400, time);
    const entries = await deps.store.history.searchHistory(account, { alertIds: ids, since, status, value });
    const body: Record<string, HistoryEntry[]> = {};
    for (const entry of entries) {
      (body[entry.alertId] ??= []).push({
        status: entry.status,
        value: entry.value,
        time: String(entry.time),
        metric: entry.metric,
      });
    }
    ctx.body = body;
  });
}
