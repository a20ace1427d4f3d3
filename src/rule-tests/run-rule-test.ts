import type { Definitions } from '../definitions/definitions.js';
import type { SourceLocation } from '../definitions/problems.js';
import { compileGraphitePattern, isBatchableTarget, type RenderSeries } from '../graphite/index.js';
import { listCriteria } from '../evaluation/judge-alert.js';
import { isScheduleActive, type ScheduleTiming } from '../model/schedule-active.js';
import { canonicalNotificationType } from '../model/canonical.js';
import { DEFAULT_CHANNEL } from '../model/defaults.js';
import { canonicalTimezone } from '../model/timezone.js';
import { replayAlert, type ChannelInfo } from '../impact/replay.js';
import { whyNotLocal } from '../graphite-functions/index.js';
import { evaluateTestQuery } from './local-functions.js';
import type { RuleTestCase } from './read-rule-tests.js';

/** How one test case ended. `not_run` is never a pass: the reason says what it needs. */
export interface RuleTestResult {
  name: string;
  alert: string;
  location: SourceLocation;
  status: 'passed' | 'failed' | 'not_run';
  /** What differed, one line each (failed), with the place of the expectation. */
  failures: { location: SourceLocation; message: string }[];
  reason?: string;
}

/**
 * Runs one case offline: the input series stand in for Graphite (plain paths by name, wildcards by pattern; the
 * functions of the function engine evaluated on them as graphite-web would), and the server's evaluator is
 * replayed over them from the first point, every 30 s (or every interval when coarser), as `plan --impact` does.
 * A query with another function needs Graphite's own: without `fromGraphite` (see graphite-rule-test.ts) such a
 * case is not run.
 */
export function runRuleTest(
  test: RuleTestCase,
  definitions: Definitions,
  /** Series Graphite computed for the alert's queries (function queries), and the time their first point has. */
  fromGraphite?: { series: Map<string, RenderSeries[]>; start: number },
): RuleTestResult {
  const base = { name: test.name, alert: test.alert, location: test.location };
  const defined = definitions.alerts.find((a) => a.key === test.alert);
  if (!defined) {
    return { ...base, status: 'failed', failures: [{ location: test.alertLocation, message: `no alert named "${test.alert}" is defined here` }] };
  }
  const alert = defined.spec;
  const criteria = listCriteria(alert);
  const unsupported = criteria.find((c) => notLocal(c.metric) !== null);
  if (unsupported && fromGraphite) test = { ...test, start: fromGraphite.start };
  else if (unsupported) {
    return {
      ...base,
      status: 'not_run',
      failures: [],
      reason: `"${unsupported.metric}" is a function query only Graphite can evaluate (${notLocal(unsupported.metric)}; pass --graphite-url)`,
    };
  }
  const longest = Math.max(0, ...test.series.map((s) => s.values.length - 1)) * test.interval;
  const end = test.start + (test.duration ?? Math.max(longest, ...test.expect.map((e) => e.at))) + Math.max(30, test.interval) - 1;
  const series = fromGraphite?.series ?? new Map<string, RenderSeries[]>();
  for (const { metric } of fromGraphite ? [] : criteria) {
    if (!isBatchableTarget(metric)) {
      const evaluated = evaluateTestQuery(metric, test, end);
      if ('failure' in evaluated) return { ...base, status: 'failed', failures: [{ location: test.alertLocation, message: evaluated.failure }] };
      series.set(metric, evaluated.series);
      continue;
    }
    const pattern = compileGraphitePattern(metric);
    series.set(
      metric,
      test.series
        .filter((one) => one.name === metric || pattern.test(one.name))
        .map((one) => ({ target: one.name, datapoints: one.values.map((value, i) => [value, test.start + i * test.interval] as [number | null, number]) })),
    );
  }

  const steps: { start: number; status: string; triggered: string[] }[] = [];
  const channels = new Map<string, ChannelInfo>(definitions.channels.map((c) => [c.key, { type: c.spec.type, auto_resolve: c.spec.auto_resolve === true }]));
  const schedules = definitions.schedules
    .filter((s) => (alert.scheduled_mutes ?? []).includes(s.key))
    .map((s): ScheduleTiming => ({ startTime: s.spec.start_time, duration: s.spec.duration, timezone: canonicalTimezone(s.spec.timezone), repeat: s.spec.repeat ?? [], anchor: test.start * 1000 }));
  const replayed = replayAlert(
    {
      ...alert,
      notification_type: canonicalNotificationType(alert.notification_type),
      notification_channels: alert.notification_channels?.length ? alert.notification_channels : [DEFAULT_CHANNEL],
    },
    series,
    {
      start: test.start - 1,
      end,
      channels,
      ...(schedules.length > 0 ? { mutedAt: (at: number) => schedules.some((s) => isScheduleActive(s, at * 1000)) } : {}),
      onStep: (step) => steps.push(step),
    },
  );

  const failures: RuleTestResult['failures'] = [];
  for (const expectation of test.expect) {
    const time = test.start + expectation.at;
    const step = steps.find((s) => s.start <= time && time < s.start + replayed.stepSeconds);
    const status = step?.status ?? 'healthy';
    if (status !== expectation.status) {
      failures.push({ location: expectation.location, message: `at ${expectation.atText}: expected ${expectation.status}, got ${status}` });
    } else if (expectation.triggered) {
      const got = [...(step?.triggered ?? [])].sort();
      const want = [...expectation.triggered].sort();
      if (got.join('\n') !== want.join('\n')) {
        failures.push({ location: expectation.location, message: `at ${expectation.atText}: expected triggered ${JSON.stringify(want)}, got ${JSON.stringify(got)}` });
      }
    }
  }
  for (const [channel, want] of Object.entries(test.notifications ?? {})) {
    const got = replayed.notifications[channel];
    if (got === undefined) {
      failures.push({ location: test.notificationsLocation!, message: `"${channel}" is not a channel of alert "${test.alert}"` });
    } else if (got !== want) {
      failures.push({ location: test.notificationsLocation!, message: `${channel}: expected ${want} notification(s), got ${got}` });
    }
  }
  return { ...base, status: failures.length > 0 ? 'failed' : 'passed', failures };
}

/** Why a query needs Graphite's own functions (a function the engine does not evaluate), or null. */
export function notLocal(metric: string): string | null {
  return isBatchableTarget(metric) ? null : whyNotLocal(metric);
}
