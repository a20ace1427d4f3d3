import type Router from '@koa/router';
import { GRAPH_RANGES, readAlertGraph, type GraphRange } from '../graph/read-graph.js';
import { QueryReader } from '../validation/query.js';
import { findAlert } from './alerts.js';
import { accountOf, prefixesOf, type RouteDeps } from './route-context.js';

/** The most entries one timeline answer carries (newest first). */
export const MAX_TIMELINE_ENTRIES = 1000;

/**
 * alertform's own (additive) views of one alert for the console: its graph and its timeline. Each answers 404 for
 * an alert of another account, as GET /v2/alerts/{id}/ does.
 */
export function registerAlertConsoleRoutes(router: Router, deps: RouteDeps): void {
  const { store } = deps;

  router.get('/v2/alerts/:id/graph', async (ctx) => {
    const query = new QueryReader(ctx.querystring, { single: ['range'] });
    const range = (query.oneOf('range', Object.keys(GRAPH_RANGES)) ?? '6h') as GraphRange;
    query.assertValid();
    const alert = await findAlert(ctx, store);
    ctx.body = await readAlertGraph(alert, GRAPH_RANGES[range], { graphite: deps.graphite, store, prefixes: prefixesOf(ctx), now: deps.now() });
  });

  router.get('/v2/alerts/:id/timeline', async (ctx) => {
    const query = new QueryReader(ctx.querystring, { single: ['days'] });
    const days = query.integer('days', 7, 1, 90);
    query.assertValid();
    const alert = await findAlert(ctx, store);
    const since = Math.floor(deps.now() / 1000) - days * 86_400;
    const entries = await store.listTimeline(accountOf(ctx), alert.id, since, MAX_TIMELINE_ENTRIES);
    ctx.body = {
      entries: entries.map((entry) => ({
        time: entry.time,
        kind: entry.kind,
        metric: entry.metric === '' ? null : entry.metric,
        value: entry.value,
        channel: entry.channel,
        reason: entry.reason,
      })),
    };
  });
}
