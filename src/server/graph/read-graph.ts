import type { GraphiteClient, RenderSeries } from '../../graphite/index.js';
import type { AlertCriteria } from '../../model/types.js';
import type { AlertRecord, Store } from '../store/store.js';
import { checkMetricPrefixes } from '../validation/metric-prefixes.js';

/** The ranges the console's graph offers, in minutes. */
export const GRAPH_RANGES = { '6h': 360, '24h': 1440, '7d': 10_080 } as const;
export type GraphRange = keyof typeof GRAPH_RANGES;

/** At most this many points per series (Graphite consolidates): enough for a page or a PNG, small on the wire. */
const MAX_POINTS = 720;
/** At most this many series per criterion: a wildcard over a fleet would otherwise draw thousands of lines. */
export const MAX_SERIES = 50;

/** One criterion of an alert with its series over the range. */
export interface GraphCriterion {
  /** `alert_criteria` for the alert's own criterion, else the additional_criteria key. */
  name: string;
  metric: string;
  type: string;
  /** The criterion's bounds: above_value / below_value (both for outside_bounds), none for missing. */
  thresholds: number[];
  series: { target: string; points: [number, number | null][] }[];
}

/** What the graph endpoint answers and the PNG draws. Times are unix seconds. */
export interface AlertGraph {
  from: number;
  until: number;
  criteria: GraphCriterion[];
  /** Alerting periods from the alert's history; `until` null while still alerting. */
  alerting: { from: number; until: number | null }[];
  /** The alert's settle delay in effect (its own, or the server's): the last this many seconds are not judged yet. */
  settle_seconds: number;
  /** Why some or all series are missing (no Graphite, a failed query, a query outside the account's prefixes). */
  error: string | null;
}

export interface GraphSources {
  /** The server's render client; null when the server reads no Graphite. */
  graphite: GraphiteClient | null;
  store: Pick<Store, 'history'>;
  /** The account's metric prefixes (empty: not confined). */
  prefixes: readonly string[];
  /** Epoch ms. */
  now: number;
  /** The server's settle delay (seconds), for an alert without its own; default 0. */
  settleSeconds?: number;
}

/**
 * Reads an alert's graph: each criterion's series over the last `minutes` from the server's own Graphite (the
 * evaluator's render client with its limits; queries outside the account's metric prefixes are not run), and the
 * alerting periods from the alert's history.
 */
export async function readAlertGraph(
  alert: AlertRecord,
  minutes: number,
  sources: GraphSources,
  /** Unix seconds the picture ends at (a notification's graph), default now. */
  endAt?: number,
): Promise<AlertGraph> {
  const now = Math.floor(sources.now / 1000);
  const until = Math.min(endAt ?? now, now);
  const from = until - minutes * 60;
  // The render API reads "the last N minutes": a window that ended earlier is read up to now and cut, with as many
  // more points as the extra time needs for the same resolution.
  const readMinutes = Math.ceil((now - from) / 60);
  const maxDataPoints = Math.min(50_000, Math.ceil((MAX_POINTS * readMinutes) / minutes));
  const criteria: GraphCriterion[] = [
    { name: 'alert_criteria', ...describe(alert.metric, alert.alertCriteria) },
    ...Object.entries(alert.additionalCriteria ?? {})
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([key, { metric, ...rule }]) => ({ name: key, ...describe(metric, rule) })),
  ];
  const errors: string[] = [];
  const readable = criteria.filter((criterion) => {
    const outside = checkMetricPrefixes(criterion.metric, sources.prefixes);
    if (outside) errors.push(`${criterion.name}: ${outside}`);
    return !outside;
  });
  if (!sources.graphite) errors.push('this server reads no Graphite (alertform serve --graphite-url)');
  else if (readable.length > 0) {
    const results = await sources.graphite.render(readable.map((c) => ({ target: c.metric, fromMinutes: readMinutes, maxDataPoints })));
    readable.forEach((criterion, index) => {
      const result = results[index]!;
      if (!result.ok) {
        errors.push(`${criterion.name}: ${result.failure.message}`);
        return;
      }
      if (result.series.length > MAX_SERIES) errors.push(`${criterion.name}: showing ${MAX_SERIES} of ${result.series.length} series`);
      criterion.series = result.series.slice(0, MAX_SERIES).map((series) => toPoints(series, from, until));
    });
  }
  const alerting = (await readAlertingPeriods(alert, from, sources.store))
    .filter((period) => period.from <= until)
    .map((period) => (period.until === null || period.until > until ? { from: period.from, until: until < now ? until : period.until } : period));
  const settleSeconds = alert.settleSeconds ?? sources.settleSeconds ?? 0;
  return { from, until, criteria, alerting, settle_seconds: settleSeconds, error: errors.length > 0 ? errors.join('; ') : null };
}

function describe(metric: string, rule: AlertCriteria): Omit<GraphCriterion, 'name'> {
  const thresholds =
    rule.type === 'above' ? [rule.above_value] : rule.type === 'below' ? [rule.below_value] : rule.type === 'outside_bounds' ? [rule.below_value, rule.above_value] : [];
  return { metric, type: rule.type, thresholds: thresholds.filter((value): value is number => typeof value === 'number'), series: [] };
}

function toPoints(series: RenderSeries, from: number, until: number): GraphCriterion['series'][number] {
  return {
    target: series.target,
    points: series.datapoints
      .filter(([, time]) => time >= from && time <= until)
      .map(([value, time]) => [time, typeof value === 'number' && Number.isFinite(value) ? value : null]),
  };
}

/**
 * The alerting periods inside [from, now] from the alert's history (alerting opens one, recovered closes it). A
 * period that began before the window starts at `from`: a recovery first in the window, or an alert alerting now
 * with nothing in the window.
 */
export async function readAlertingPeriods(alert: AlertRecord, from: number, store: Pick<Store, 'history'>): Promise<AlertGraph['alerting']> {
  const entries = await store.history.searchHistory(alert.accountId, { alertIds: [alert.id], since: from, status: null, value: null });
  const periods: AlertGraph['alerting'] = [];
  let open: { from: number; until: number | null } | null = null;
  const oldestFirst = entries.filter((entry) => entry.status !== 'query_failed').reverse();
  for (const entry of oldestFirst) {
    if (entry.status === 'alerting' && !open) {
      open = { from: entry.time, until: null };
      periods.push(open);
    } else if (entry.status === 'recovered') {
      if (open) open.until = entry.time;
      else if (periods.length === 0) periods.push({ from, until: entry.time });
      open = null;
    }
  }
  if (oldestFirst.length === 0 && alert.status === 'alerting') periods.push({ from, until: null });
  return periods;
}
