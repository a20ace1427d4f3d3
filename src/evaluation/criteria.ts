import type { AlertCriteria } from '../model/types.js';
import { isValue, type Point } from './buckets.js';

/**
 * What one series says about one criterion: it holds (with the latest breaching value; null for missing data), it
 * is clear (with its latest value), or it says nothing (no non-null data where it matters).
 */
export type SeriesVerdict =
  | { state: 'holds'; value: number | null }
  | { state: 'clear'; value: number }
  | { state: 'unknown' };

/** The criteria's time_period in minutes, or null when the evaluation is instantaneous. */
export function timePeriodMinutes(criteria: AlertCriteria): number | null {
  const period = criteria.time_period;
  return typeof period === 'number' && period > 0 ? period : null;
}

/** Minutes of data a criterion's window needs (one minute of slack so the first bucket is fetched whole). */
export function queryRangeMinutes(criteria: AlertCriteria): number {
  const period = timePeriodMinutes(criteria);
  if (criteria.type === 'missing') return (period ?? 1) + 1;
  return period === null ? INSTANT_RANGE_MINUTES : period + 1;
}

/** Points asked of the 24 h history query of `missing` (30-minute points: only presence matters there). */
export const MISSING_HISTORY_POINTS = 48;

/**
 * The second query of a `missing` criterion: the 24 h before (and including) its window, consolidated to a few
 * points, to know which series had data. Null for other criteria.
 */
export function historyQueryRange(criteria: AlertCriteria): { fromMinutes: number; maxDataPoints: number } | null {
  if (criteria.type !== 'missing') return null;
  return { fromMinutes: (timePeriodMinutes(criteria) ?? 1) + 24 * 60, maxDataPoints: MISSING_HISTORY_POINTS };
}

/** How far back an instantaneous criterion looks for its latest non-null point. */
export const INSTANT_RANGE_MINUTES = 10;

/** Whether one value breaches a threshold criterion. */
export function breaches(criteria: AlertCriteria, value: number): boolean {
  switch (criteria.type) {
    case 'above':
      return value > (criteria.above_value ?? Infinity);
    case 'below':
      return value < (criteria.below_value ?? -Infinity);
    case 'outside_bounds':
      return value > (criteria.above_value ?? Infinity) || value < (criteria.below_value ?? -Infinity);
    case 'missing':
      return false;
  }
}

/**
 * Judges one series (already in 30 s buckets, nulls gone) against a criterion at time `now` (unix seconds).
 * The window is the last time_period minutes: points stamped after `now - time_period`. Without a time_period
 * only the latest point counts. Threshold criteria hold when every point in the window breaches and
 * there is at least one; `missing` holds when the window has no point although the series had data before it.
 */
export function judgeSeries(criteria: AlertCriteria, points: readonly Point[], now: number): SeriesVerdict {
  const period = timePeriodMinutes(criteria);
  // Loops rather than filter/every with a callback each: this runs per alert per cycle.
  if (criteria.type === 'missing') {
    const windowStart = now - (period ?? 1) * 60;
    for (let i = points.length - 1; i >= 0; i -= 1) {
      if (points[i]!.time > windowStart) return { state: 'clear', value: points[i]!.value };
    }
    return points.length > 0 ? { state: 'holds', value: null } : { state: 'unknown' };
  }
  // Without a period only the latest point counts; with one, the points stamped after its start.
  const windowStart = period === null ? -Infinity : now - period * 60;
  let inWindow = 0;
  let latest = 0;
  let allBreach = true;
  let worst = 0;
  let worstExcess = -Infinity;
  for (let i = period === null ? Math.max(points.length - 1, 0) : 0; i < points.length; i += 1) {
    const point = points[i]!;
    if (period !== null && !(point.time > windowStart)) continue;
    inWindow += 1;
    latest = point.last;
    if (allBreach && !breaches(criteria, point.value)) allBreach = false;
    if (allBreach) {
      const extreme = worstOf(criteria, point);
      if (extreme.excess > worstExcess) ({ value: worst, excess: worstExcess } = extreme);
    }
  }
  if (inWindow === 0) return { state: 'unknown' };
  // The value a breach is recorded with is the window's worst one Graphite returned, never a bucket's mean (a spike
  // to 500 in a bucket with 50 is 500, not 275).
  return allBreach ? { state: 'holds', value: worst } : { state: 'clear', value: latest };
}

/** A point's value furthest beyond the criterion's threshold, and by how much (its high for above, low for below). */
function worstOf(criteria: AlertCriteria, point: Point): { value: number; excess: number } {
  const above = criteria.above_value;
  const below = criteria.below_value;
  if (criteria.type === 'above') return { value: point.high, excess: point.high - (above ?? 0) };
  if (criteria.type === 'below') return { value: point.low, excess: (below ?? 0) - point.low };
  const high = above === undefined || above === null ? -Infinity : point.high - above;
  const low = below === undefined || below === null ? -Infinity : below - point.low;
  return high >= low ? { value: point.high, excess: high } : { value: point.low, excess: low };
}

/**
 * `missing` judged straight on raw datapoints, without building 30 s buckets: it only asks whether a non-null
 * point lies in the window and whether the series had data before it. `history` is the series in the 24 h query
 * (coarse points); without it, the window's own series is the history. Same answers as judgeSeries on bucketed
 * data, give or take where a bucket's start falls.
 */
export function judgeMissing(
  criteria: AlertCriteria,
  window: readonly (readonly [number | null, number])[],
  history: readonly (readonly [number | null, number])[] | undefined,
  now: number,
): { verdict: SeriesVerdict; latest: number | null } {
  const windowStart = now - (timePeriodMinutes(criteria) ?? 1) * 60;
  let latest: number | null = null;
  let inWindow = false;
  for (const point of window) {
    const value = point?.[0];
    const time = point?.[1];
    if (!isValue(value) || typeof time !== 'number') continue;
    latest = value;
    if (time > windowStart) inWindow = true;
  }
  if (inWindow) return { verdict: { state: 'clear', value: latest! }, latest };
  if (latest === null && history) {
    for (const point of history) {
      if (isValue(point?.[0])) latest = point[0];
    }
  }
  return { verdict: latest === null ? { state: 'unknown' } : { state: 'holds', value: null }, latest };
}
