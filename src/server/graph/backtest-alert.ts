import type { GraphiteClient } from '../../graphite/index.js';
import { seriesOf } from '../../impact/compute-impact.js';
import { listCriteria } from '../../evaluation/judge-alert.js';
import { fetchWindowSeries, listTargetUses } from '../../impact/fetch-window.js';
import { replayAlertInSlices, type ChannelInfo, type ReplayableAlert } from '../../impact/replay.js';
import { isScheduleActive } from '../../model/schedule-active.js';
import type { AlertRecord, ChannelRecord, ScheduleRecord } from '../store/store.js';
import { checkMetricPrefixes } from '../validation/metric-prefixes.js';
import { MAX_SERIES } from './read-graph.js';

/** What the current definition of an alert would have done over the window (times unix seconds). */
export interface AlertBacktest {
  window_seconds: number;
  fired: number;
  minutes_alerting: number;
  longest_episode_seconds: number;
  episodes: { from: number; until: number | null }[];
  /** Deliveries each channel would have been sent. */
  notifications: { channel_id: string; count: number }[];
  /** Why there are no figures (no Graphite, a failed query, a query outside the metric prefixes). */
  error: string | null;
  /** Why the figures are partial: a criterion matched more than MAX_SERIES series and only the first were replayed. */
  note: string | null;
}

export interface BacktestSources {
  /** The backtest render client (longer timeouts, smaller batches); null without a Graphite. */
  graphite: GraphiteClient | null;
  channels: readonly ChannelRecord[];
  schedules: readonly ScheduleRecord[];
  prefixes: readonly string[];
  /** Epoch ms. */
  now: number;
}

/**
 * Replays an alert's current definition over the last `windowSeconds` with the code `plan --impact` uses
 * (src/impact: one read per query over the window, then the evaluator's judging and state machine step by step),
 * its channels and scheduled mutes as the server holds them.
 */
export async function backtestAlert(alert: AlertRecord, windowSeconds: number, sources: BacktestSources): Promise<AlertBacktest> {
  const empty = (error: string): AlertBacktest => ({
    window_seconds: windowSeconds,
    fired: 0,
    minutes_alerting: 0,
    longest_episode_seconds: 0,
    episodes: [],
    notifications: [],
    error,
    note: null,
  });
  const replayable: ReplayableAlert = {
    metric: alert.metric,
    alert_criteria: alert.alertCriteria,
    additional_criteria: alert.additionalCriteria,
    expression: alert.expression,
    notification_type: alert.notificationType,
    notification_channels: alert.notificationChannels,
  };
  for (const { target } of listTargetUses(replayable)) {
    const outside = checkMetricPrefixes(target, sources.prefixes);
    if (outside) return empty(outside);
  }
  if (!sources.graphite) return empty('this server reads no Graphite (alertform serve --graphite-url)');
  const results = await fetchWindowSeries(sources.graphite, listTargetUses(replayable), windowSeconds);
  const series = seriesOf(replayable, results);
  if (typeof series === 'string') return empty(series);
  const notes: string[] = [];
  for (const [index, { letter, metric }] of listCriteria(replayable).entries()) {
    const name = index === 0 ? 'alert_criteria' : letter;
    const all = series.get(metric)!;
    // The graph's cap: a wildcard over a fleet would otherwise make every backtest index and judge thousands of
    // series over the whole window (seconds of CPU per request).
    if (all.length > MAX_SERIES) {
      notes.push(`${name}: replayed ${MAX_SERIES} of ${all.length} series`);
      series.set(metric, all.slice(0, MAX_SERIES));
    }
  }
  const end = Math.floor(sources.now / 1000);
  const channels = new Map<string, ChannelInfo>(sources.channels.map((c) => [c.id, { type: c.type, auto_resolve: c.autoResolve }]));
  const schedules = sources.schedules.filter((s) => alert.scheduledMutes.includes(s.id));
  const replayed = await replayAlertInSlices(replayable, series, {
    start: end - windowSeconds,
    end,
    channels,
    ...(schedules.length > 0 ? { mutedAt: (at: number) => schedules.some((s) => isScheduleActive(s, at * 1000)) } : {}),
  });
  return {
    window_seconds: windowSeconds,
    fired: replayed.fired,
    minutes_alerting: replayed.alertingMinutes,
    longest_episode_seconds: Math.round(replayed.longestEpisodeMinutes * 60),
    episodes: replayed.episodes.map((e) => ({ from: e.start, until: e.end })),
    notifications: Object.entries(replayed.notifications).map(([channel_id, count]) => ({ channel_id, count })),
    error: null,
    note: notes.length > 0 ? notes.join('; ') : null,
  };
}
