import type { AlertCriteria } from '../../spec/types.js';
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

/** Minutes of history a criterion needs: its window, plus 24 h before it for `missing` (to know a series). */
export function queryRangeMinutes(criteria: AlertCriteria): number {
  const period = timePeriodMinutes(criteria);
  if (criteria.type === 'missing') return (period ?? 1) + 24 * 60;
  // One bucket of slack so that the bucket overlapping the window's start is fetched whole.
  return period === null ? INSTANT_RANGE_MINUTES : period + 1;
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
  if (criteria.type === 'missing') {
    const windowStart = now - (period ?? 1) * 60;
    const inWindow = points.filter((p) => p.time > windowStart);
    if (inWindow.length > 0) return { state: 'clear', value: inWindow[inWindow.length - 1]!.value };
    return points.length > 0 ? { state: 'holds', value: null } : { state: 'unknown' };
  }
  const inWindow =
    period === null
      ? points.slice(-1)
      : points.filter((p) => p.time > now - period * 60);
  if (inWindow.length === 0) return { state: 'unknown' };
  const latest = inWindow[inWindow.length - 1]!.value;
  return inWindow.every((p) => breaches(criteria, p.value)) ? { state: 'holds', value: latest } : { state: 'clear', value: latest };
}

/**
 * `missing` judged straight on raw datapoints, without building 30 s buckets: it only asks whether a non-null
 * point lies in the window and whether any lies before it, and its 24 h ranges are most of the points a cycle
 * reads. Same answers as judgeSeries on the bucketed series, give or take where a bucket's start falls.
 */
export function judgeMissing(
  criteria: AlertCriteria,
  datapoints: readonly (readonly [number | null, number])[],
  now: number,
): { verdict: SeriesVerdict; latest: number | null } {
  const windowStart = now - (timePeriodMinutes(criteria) ?? 1) * 60;
  let latest: number | null = null;
  let inWindow = false;
  for (const point of datapoints) {
    const value = point?.[0];
    const time = point?.[1];
    if (!isValue(value) || typeof time !== 'number') continue;
    latest = value;
    if (time > windowStart) inWindow = true;
  }
  if (inWindow) return { verdict: { state: 'clear', value: latest! }, latest };
  return { verdict: latest === null ? { state: 'unknown' } : { state: 'holds', value: null }, latest };
}
