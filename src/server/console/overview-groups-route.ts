import type Router from '@koa/router';
import { readTarget } from '../../model/graphite-target/target.js';
import { QueryReader } from '../validation/query.js';
import { accountOf, type RouteDeps } from '../routes/route-context.js';
import type { AlertRecord, ScheduleRecord } from '../store/store.js';
import { OVERVIEW_STATES, classifyAlert, countStates, mutedByWindow, summarizeAlert } from './alert-overview.js';
import { windowMutesOf } from '../routes/windows.js';
import { groupKey } from '../../evaluation/grouping.js';

/** The most groups one answer lists (the busiest first); `group_count` says how many there were. */
export const MAX_GROUPS = 500;
/** Path node indexes a grouping may name, and the highest index. */
const MAX_NODES = 5;
const MAX_NODE_INDEX = 31;

/**
 * alertform's own (additive) GET /v2/alerts/overview/groups/?nodes=1: the console's overview grouped by path nodes
 * (`servers.{dc}.{host}.cpu` by node 1 is by data centre), with the count of each state per group. An alert's keys
 * are the nodes of the series it has triggered, or of its metric's path when it has triggered none; an alert with
 * triggered series in two groups counts in both.
 */
export function registerOverviewGroupsRoute(router: Router, deps: RouteDeps): void {
  router.get('/v2/alerts/overview/groups', async (ctx) => {
    const query = new QueryReader(ctx.querystring, { repeatable: ['nodes'] });
    const nodes = query.list('nodes').flatMap((text) => text.split(',')).map((text) => Number(text.trim()));
    if (nodes.length === 0 || nodes.length > MAX_NODES || nodes.some((node) => !Number.isInteger(node) || node < 0 || node > MAX_NODE_INDEX)) {
      query.problems.push({ path: 'nodes', message: `must be 1 to ${MAX_NODES} path node indexes from 0 to ${MAX_NODE_INDEX} (e.g. nodes=1 or nodes=1,2)` });
    }
    query.assertValid();
    const account = accountOf(ctx);
    const now = deps.now();
    const alerts = (await deps.store.alerts.searchAlerts(account, { names: [], ids: [], search: null, page: 1, max: 1_000_000 })).items;
    const scheduleIds = [...new Set(alerts.flatMap((alert) => alert.scheduledMutes))];
    const schedules = new Map<string, ScheduleRecord>(
      scheduleIds.length ? (await deps.store.schedules.getSchedulesByIds(account, scheduleIds)).map((schedule) => [schedule.id, schedule]) : [],
    );
    const evaluating = await deps.evaluation.evaluating();
    const windows = await windowMutesOf(deps.store, account, now);
    const groups = new Map<string, ReturnType<typeof classifyAlert>[]>();
    for (const alert of alerts) {
      const item = mutedByWindow(
        classifyAlert(summarizeAlert(alert), alert.scheduledMutes.flatMap((id) => schedules.get(id) ?? []), now, evaluating),
        windows.get(alert.id)?.until,
      );
      for (const key of groupKeysOf(alert, nodes)) {
        const members = groups.get(key) ?? [];
        members.push(item);
        groups.set(key, members);
      }
    }
    const counted = [...groups].map(([key, items]) => ({ key, counts: countStates(items) }));
    // The groups that need attention first: most alerting, then most failing, then by key.
    counted.sort((a, b) => b.counts.alerting - a.counts.alerting || b.counts.query_failing - a.counts.query_failing || a.key.localeCompare(b.key));
    ctx.body = { nodes, states: OVERVIEW_STATES, group_count: counted.length, groups: counted.slice(0, MAX_GROUPS) };
  });
}

/** The alert's group keys: its triggered series' nodes, or its metric path's when none triggered. */
function groupKeysOf(alert: AlertRecord, nodes: readonly number[]): Set<string> {
  const paths = alert.currentlyTriggeredMetrics.length > 0 ? alert.currentlyTriggeredMetrics : [metricPath(alert.metric)];
  return new Set(paths.map((path) => groupKey(path, nodes)));
}

/** The first path a target reads (`sumSeries(servers.dc1.*.cpu)` reads `servers.dc1.*.cpu`); the text itself when it reads none. */
function metricPath(metric: string): string {
  try {
    return readTarget(metric).paths[0] ?? metric;
  } catch {
    return metric;
  }
}
