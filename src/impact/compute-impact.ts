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
import { replayAlert, type ChannelInfo, type ReplayableAlert, type ReplayResult } from './replay.js';
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
  const uses = changed.flatMap(({ after, before }) => [...listTargetUses(after), ...(before ? listTargetUses(before) : [])]);
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
  for (const { action, after, before } of changed) {
    const series = seriesOf(after, results);
    if (typeof series === 'string') {
      skipped.push({ name: after.name, reason: series });
      continue;
    }
    const replayed = replayAlert(after, series, { start, end, channels: afterChannels, mutedAt: mutedBy(after.scheduled_mutes, afterSchedules) });
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
  return {
    impact: { window_seconds: context.windowSeconds, from: new Date(start * 1000).toISOString(), until: new Date(end * 1000).toISOString(), step_seconds: coarsest, alerts, skipped },
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
