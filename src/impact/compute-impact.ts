import type { Definitions, Defined, AlertDefinition } from '../definitions/definitions.js';
import { canonicalTimezone } from '../model/timezone.js';
import type { Problem } from '../definitions/problems.js';
import type { GraphiteClient, RenderResult, RenderSeries } from '../graphite/index.js';
import { listCriteria } from '../evaluation/judge-alert.js';
import { isScheduleActive, type ScheduleTiming } from '../model/schedule-active.js';
import type { ChannelRead, ScheduleRead, Weekday } from '../model/types.js';
import type { CanonicalAlert, Plan } from '../plan/types.js';
import { buildChart } from './chart-data.js';
import { describeDuration } from './duration.js';
import { fetchWindowSeries, listTargetUses } from './fetch-window.js';
import { checkQueryResult, DEFAULT_MAX_SERIES } from './live-checks.js';
import { isSentTo, replayAlert, type ChannelInfo, type ReplayableAlert, type ReplayResult } from './replay.js';
import { countMessages, timelineRecorder, type AlertTimeline } from './noise-replay.js';
import { canonicalGroupBy, type CanonicalGroupBy } from '../model/canonical.js';
import { adapterFor } from '../plan/adapters/registry.js';
import type { DependencyEdge } from '../evaluation/dependencies.js';
import type { AlertImpact, ImpactFigures, ImpactOutcome, PlanImpact } from './types.js';
import type { ReadReporter } from '../progress/reads.js';

export type { ImpactOutcome } from './types.js';

/** Where the backtest reads and what it compares. */
export interface ImpactContext {
  graphite: GraphiteClient;
  windowSeconds: number;
  now: Date;
  definitions: Definitions;
  /** The server's schedules and channels (the current versions of updated alerts use them). */
  server: { schedules: readonly ScheduleRead[]; channels: readonly ChannelRead[] };
  maxSeries?: number;
  /** Told after each render answer. */
  reportRead?: ReadReporter;
}


/**
 * Backtests every alert a plan creates or updates: reads each distinct query once over the window, runs the live
 * checks on the answers, and replays the server's evaluator for the new version and (for updates) the server's
 * current one. Alerts whose queries failed are listed as skipped with the reason.
 */
export async function computePlanImpact(plan: Plan, context: ImpactContext): Promise<ImpactOutcome> {
  const end = Math.floor(context.now.getTime() / 1000);
  const start = end - context.windowSeconds;
  const changed = plan.changes.flatMap((change) =>
    change.kind === 'alert' && (change.action === 'create' || change.action === 'update')
      ? [{ action: change.action, after: change.after as CanonicalAlert, before: change.action === 'update' ? (change.before as CanonicalAlert) : undefined }]
      : [],
  );
  const noise = noiseScope(plan, changed.map(({ after }) => after), context.definitions);
  const uses = [
    ...changed.flatMap(({ after, before }) => [...listTargetUses(after), ...(before ? listTargetUses(before) : [])]),
    ...[...(noise?.extra.values() ?? [])].flatMap((alert) => listTargetUses(alert)),
  ];
  const results = await fetchWindowSeries(context.graphite, uses, context.windowSeconds, context.reportRead);
  const { warnings, problems } = checkResults(
    changed.map(({ after }) => after),
    results,
    context,
  );

  const afterSchedules = scheduleTimings(context.definitions.schedules.map((s) => ({ ...s.spec, timezone: canonicalTimezone(s.spec.timezone), repeat: s.spec.repeat ?? [] })), context.now);
  const beforeSchedules = scheduleTimings(context.server.schedules, context.now);
  const afterChannels = new Map<string, ChannelInfo>(context.definitions.channels.map((c) => [c.key, { type: c.spec.type, auto_resolve: c.spec.auto_resolve === true }]));
  const beforeChannels = new Map<string, ChannelInfo>(context.server.channels.map((c) => [c.description, { type: c.type, auto_resolve: c.auto_resolve }]));

  const alerts: AlertImpact[] = [];
  const skipped: PlanImpact['skipped'] = [];
  let coarsest = 30;
  const timelines = new Map<string, AlertTimeline>();
  /** The replay's onStep that records the alert's timeline, when noise control is counted. */
  const recorder = (alert: CanonicalAlert) => {
    if (!noise) return {};
    const { timeline, onStep } = timelineRecorder((event) => alert.notification_channels.filter((channel) => isSentTo(event, afterChannels.get(channel))));
    timelines.set(alert.name, timeline);
    return { onStep };
  };
  for (const { action, after, before } of changed) {
    const series = seriesOf(after, results);
    if (typeof series === 'string') {
      skipped.push({ name: after.name, reason: series });
      continue;
    }
    const replayed = replayAlert(after, series, { start, end, channels: afterChannels, mutedAt: mutedBy(after.scheduled_mutes, afterSchedules), ...recorder(after) });
    coarsest = Math.max(coarsest, replayed.stepSeconds);
    const impact: AlertImpact = {
      name: after.name,
      action,
      ...figuresOf(replayed),
      step_seconds: replayed.stepSeconds,
      episodes: replayed.episodes,
      chart: buildChart(after.alert_criteria, series.get(after.metric) ?? [], replayed.episodes, start, end),
    };
    if (before) {
      const beforeSeries = seriesOf(before, results);
      if (typeof beforeSeries !== 'string') {
        impact.before = figuresOf(replayAlert(before, beforeSeries, { start, end, channels: beforeChannels, mutedAt: mutedBy(before.scheduled_mutes, beforeSchedules) }));
      }
    }
    alerts.push(impact);
  }
  let noiseCount: PlanImpact['noise'];
  if (noise) {
    for (const alert of noise.extra.values()) {
      const series = seriesOf(alert, results);
      if (typeof series !== 'string') replayAlert(alert, series, { start, end, channels: afterChannels, mutedAt: mutedBy(alert.scheduled_mutes, afterSchedules), ...recorder(alert) });
    }
    const counted = new Map([...timelines].filter(([name]) => noise.counted.has(name)));
    noiseCount = countMessages({ counted, replayed: timelines, dependsOn: noise.dependsOn, groupBy: noise.groupBy });
  }
  return {
    impact: {
      window_seconds: context.windowSeconds,
      from: new Date(start * 1000).toISOString(),
      until: new Date(end * 1000).toISOString(),
      step_seconds: coarsest,
      alerts,
      skipped,
      ...(noiseCount ? { noise: noiseCount } : {}),
    },
    warnings,
    problems,
  };
}

/**
 * The live checks of `validate --graphite-url`: every defined alert's queries read once over the window and
 * checked, with errors located at the metric that Graphite rejects.
 */
export async function checkDefinitionsLive(
  definitions: Definitions,
  context: Pick<ImpactContext, 'graphite' | 'windowSeconds' | 'maxSeries'>,
): Promise<{ warnings: string[]; problems: Problem[] }> {
  const alerts = definitions.alerts.map((d) => d.spec);
  const uses = alerts.flatMap((alert) => listTargetUses(alert));
  const results = await fetchWindowSeries(context.graphite, uses, context.windowSeconds);
  return checkResults(alerts, results, { ...context, definitions });
}

/** What the live checks read of an alert: its name and its queries. */
type CheckedAlert = Pick<ReplayableAlert, 'metric' | 'alert_criteria' | 'additional_criteria'> & { name: string };

function checkResults(
  alerts: readonly CheckedAlert[],
  results: ReadonlyMap<string, RenderResult>,
  context: Pick<ImpactContext, 'windowSeconds' | 'maxSeries' | 'definitions'>,
): { warnings: string[]; problems: Problem[] } {
  const warnings: string[] = [];
  const problems: Problem[] = [];
  const windowText = describeDuration(context.windowSeconds);
  const byName = new Map<string, Defined<AlertDefinition>>(context.definitions.alerts.map((d) => [d.key, d]));
  for (const alert of alerts) {
    for (const criterion of listCriteria(alert)) {
      const result = results.get(criterion.metric);
      if (!result) continue;
      const finding = checkQueryResult(criterion.metric, result, { maxSeries: context.maxSeries ?? DEFAULT_MAX_SERIES, windowText });
      if (!finding) continue;
      const path = criterion.letter === 'a' ? 'metric' : `additional_criteria.${findLetterKey(alert, criterion.letter)}.metric`;
      if (finding.level === 'error') {
        const defined = byName.get(alert.name);
        problems.push({ ...(defined ? { location: defined.locate(path) } : {}), path: defined ? `${defined.path}.${path}` : path, message: finding.message });
      } else warnings.push(`alert "${alert.name}": ${finding.message}`);
    }
  }
  return { warnings, problems };
}

/** The letter as written in the definition (letters are case-insensitive; the canonical form is lower case). */
function findLetterKey(alert: CheckedAlert, letter: string): string {
  return Object.keys(alert.additional_criteria ?? {}).find((key) => key.toLowerCase() === letter) ?? letter;
}

/** The series of each of an alert's queries, or why one cannot be had (also the server's backtest's). */
export function seriesOf(alert: CheckedAlert | Omit<CheckedAlert, 'name'>, results: ReadonlyMap<string, RenderResult>): Map<string, RenderSeries[]> | string {
  const out = new Map<string, RenderSeries[]>();
  for (const { metric } of listCriteria(alert)) {
    const result = results.get(metric);
    if (!result) return `"${metric}" was not read`;
    if (!result.ok) return `"${metric}": ${result.failure.message}`;
    out.set(metric, result.series);
  }
  return out;
}

function figuresOf(result: ReplayResult): ImpactFigures {
  return {
    fired: result.fired,
    alerting_minutes: result.alertingMinutes,
    longest_episode_minutes: result.longestEpisodeMinutes,
    notifications: result.notifications,
  };
}

type ScheduleLike = { name: string; start_time: string; duration: number; timezone: string; repeat: readonly Weekday[] };

/**
 * Schedules by name, as isScheduleActive reads them. A one-time schedule's anchor (when it was created) is not
 * in the definitions or the API: it is taken as now, so a one-time mute never covers the past window.
 */
function scheduleTimings(schedules: readonly ScheduleLike[], now: Date): Map<string, ScheduleTiming> {
  return new Map(
    schedules.map((s) => [s.name, { startTime: s.start_time, duration: s.duration, timezone: s.timezone, repeat: s.repeat, anchor: now.getTime() }]),
  );
}

function mutedBy(names: readonly string[], schedules: ReadonlyMap<string, ScheduleTiming>): ((at: number) => boolean) | undefined {
  const timings = names.map((name) => schedules.get(name)).filter((s): s is ScheduleTiming => s !== undefined);
  if (timings.length === 0) return undefined;
  return (at) => timings.some((timing) => isScheduleActive(timing, at * 1000));
}

/** What the noise count replays: alerts counted (by name), alerts replayed only for it, parents and groupings. */
interface NoiseScope {
  counted: Set<string>;
  /** Desired alerts the plan does not change: notifying a channel whose grouping changes (counted), or parents. */
  extra: Map<string, CanonicalAlert>;
  dependsOn: Map<string, DependencyEdge[]>;
  groupBy: Map<string, CanonicalGroupBy>;
}

/**
 * The noise count's scope, or undefined when there is nothing to count: no changed alert depends on another or
 * notifies a grouping channel, and no channel's grouping changes. Counted are the changed alerts and the alerts of a
 * channel whose grouping the plan creates or changes; their parents are replayed too, to know when they alert.
 */
function noiseScope(plan: Plan, changed: readonly CanonicalAlert[], definitions: Definitions): NoiseScope | undefined {
  const groupBy = new Map<string, CanonicalGroupBy>();
  for (const channel of definitions.channels) {
    const grouping = canonicalGroupBy(channel.spec.group_by);
    if (grouping) groupBy.set(channel.key, grouping);
  }
  const regrouped = new Set(
    plan.changes.filter((c) => c.kind === 'channel' && (c.action === 'create' || c.action === 'update') && (c.action === 'create' ? c.after.group_by : c.diffs.some((d) => d.path.startsWith('group_by')))).map((c) => c.key),
  );
  const desired = new Map<string, CanonicalAlert>();
  const canonical = (name: string): CanonicalAlert | undefined => {
    if (desired.has(name)) return desired.get(name);
    const item = definitions.alerts.find((a) => a.key === name);
    // References stay as written: the replay needs channel names, and the plan resolved them already.
    const alert = item ? adapterFor('alert').canonicalDesired(item.spec, { channel: (ref) => ref, schedule: (ref) => ref, alert: (ref) => ref }) : undefined;
    if (alert) desired.set(name, alert);
    return alert;
  };
  const counted = new Set(changed.map((a) => a.name));
  const extra = new Map<string, CanonicalAlert>();
  if (regrouped.size > 0) {
    for (const item of definitions.alerts) {
      if (counted.has(item.key)) continue;
      const alert = canonical(item.key);
      if (alert?.notification_channels.some((channel) => regrouped.has(channel))) {
        counted.add(item.key);
        extra.set(item.key, alert);
      }
    }
  }
  const all = [...changed, ...extra.values()];
  const relevant = all.some((a) => a.depends_on || a.notification_channels.some((channel) => groupBy.has(channel)));
  if (!relevant) return undefined;
  const dependsOn = new Map<string, DependencyEdge[]>();
  for (const alert of all) {
    if (!alert.depends_on) continue;
    dependsOn.set(alert.name, alert.depends_on.map((d) => ({ alertId: d.alert, ...(d.nodes ? { nodes: d.nodes } : {}), ...(d.parent_nodes ? { parentNodes: d.parent_nodes } : {}) })));
    for (const { alert: parent } of alert.depends_on) {
      if (counted.has(parent) || extra.has(parent)) continue;
      const found = canonical(parent);
      if (found) extra.set(parent, found);
    }
  }
  return { counted, extra, dependsOn, groupBy };
}
