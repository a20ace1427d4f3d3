import type Router from '@koa/router';
import { GRAPH_RANGES, readAlertGraph, type GraphRange } from '../graph/read-graph.js';
import { backtestAlert } from '../graph/backtest-alert.js';
import { BacktestSlots } from '../graph/backtest-slots.js';
import { parseDurationSeconds } from '../../impact/duration.js';
import { QueryReader } from '../validation/query.js';
import { findAlert, presentAlerts } from './alerts.js';
import { presentChannel, presentSchedule } from '../present.js';
import { accountOf, prefixesOf, type RouteDeps } from './route-context.js';

/** The most entries one timeline answer carries (newest first). */
export const MAX_TIMELINE_ENTRIES = 1000;

/**
 * alertform's own (additive) views of one alert for the console: its graph, backtest, definition and timeline.
 * Each answers 404 for an alert of another account, as GET /v2/alerts/{id}/ does; bad query values are 400.
 */
export function registerAlertConsoleRoutes(router: Router, deps: RouteDeps<'alerts' | 'channels' | 'console' | 'history' | 'schedules' | 'windows'>): void {
  const { store } = deps;
  const backtests = new BacktestSlots();

  router.get('/v2/alerts/:id/graph', async (ctx) => {
    const query = new QueryReader(ctx.querystring, { single: ['range'] });
    const range = (query.oneOf('range', Object.keys(GRAPH_RANGES)) ?? '6h') as GraphRange;
    query.assertValid();
    const alert = await findAlert(ctx, store.alerts);
    ctx.body = await readAlertGraph(alert, GRAPH_RANGES[range], { graphite: deps.graphite, store, prefixes: prefixesOf(ctx), now: deps.now(), settleSeconds: deps.settleSeconds });
  });

  router.get('/v2/alerts/:id/backtest', async (ctx) => {
    const query = new QueryReader(ctx.querystring, { single: ['window'] });
    const windowSeconds = readWindow(query);
    query.assertValid();
    const alert = await findAlert(ctx, store.alerts);
    const account = accountOf(ctx);
    ctx.body = await backtests.run(account, async () => {
      const [channels, schedules] = await Promise.all([
        store.channels.findChannelsByRefs(account, alert.notificationChannels),
        store.schedules.getSchedulesByIds(account, alert.scheduledMutes),
      ]);
      return backtestAlert(alert, windowSeconds, { graphite: deps.backtestGraphite, channels, schedules, prefixes: prefixesOf(ctx), now: deps.now() });
    });
  });

  router.get('/v2/alerts/:id/definition', async (ctx) => {
    const alert = await findAlert(ctx, store.alerts);
    const account = accountOf(ctx);
    const [channels, schedules, managed, parents] = await Promise.all([
      store.channels.findChannelsByRefs(account, alert.notificationChannels),
      store.schedules.getSchedulesByIds(account, alert.scheduledMutes),
      store.console.isManagedFromGit(account, alert.id),
      // The depends_on parents (at most 10), for their names: git names a parent, the store keeps its id.
      Promise.all((alert.dependsOn ?? []).map((edge) => store.alerts.getAlert(account, edge.alert))),
    ]);
    // pull's own writer, given a server state that holds this alert and what it refers to: the same YAML. Loaded at
    // the first ask (with the YAML writer), not at every server's start.
    const { renderPulledDefinitions } = await import('../../plan/pull.js');
    const files = renderPulledDefinitions(
      {
        alerts: await presentAlerts(ctx, deps, [alert]),
        channels: channels.map((channel) => presentChannel(channel)),
        schedules: schedules.map(presentSchedule),
        muteStatus: {},
        schedulesSupported: true,
      },
      undefined,
      parents.flatMap((parent) => (parent ? [{ id: parent.id, name: parent.name }] : [])),
    );
    ctx.body = { yaml: files.find((file) => file.name === 'alerts.yaml')!.text, managed_from_git: managed };
  });

  router.get('/v2/alerts/:id/timeline', async (ctx) => {
    const query = new QueryReader(ctx.querystring, { single: ['days'] });
    const days = query.integer('days', 7, 1, 90);
    query.assertValid();
    const alert = await findAlert(ctx, store.alerts);
    const since = Math.floor(deps.now() / 1000) - days * 86_400;
    const entries = await store.console.listTimeline(accountOf(ctx), alert.id, since, MAX_TIMELINE_ENTRIES);
    ctx.body = {
      entries: entries.map((entry) => ({
        time: entry.time,
        kind: entry.kind,
        metric: entry.metric === '' ? null : entry.metric,
        value: entry.value,
        channel: entry.channel,
        reason: entry.reason,
        by: entry.by,
      })),
    };
  });
}

/** The longest backtest window: a week of points per series is what plan --impact reads by default. */
export const MAX_BACKTEST_SECONDS = 14 * 86_400;

/** `window=` as `plan --impact` spells it (7d, 36h, 90m), 1 hour to 14 days; default 7d. */
function readWindow(query: QueryReader): number {
  const text = query.text('window') ?? '7d';
  try {
    const seconds = parseDurationSeconds(text);
    if (seconds >= 3600 && seconds <= MAX_BACKTEST_SECONDS) return seconds;
  } catch {
    // Said below, in the same words as a value out of range.
  }
  query.problems.push({ path: 'window', message: 'must be a duration from 1h to 14d, e.g. 7d, 36h' });
  return 0;
}
