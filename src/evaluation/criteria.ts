import type { AlertCriteria } from '../model/types.js';
import { BUCKET_SECONDS, isValue, type Point } from './buckets.js';
import { INSTANT_RANGE_MINUTES, judgedWindow, type JudgedWindow } from './judged-window.js';

export { INSTANT_RANGE_MINUTES } from './judged-window.js';

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
  return (period ?? INSTANT_RANGE_MINUTES) + 1;
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
 * Judges one series (already in 30 s buckets, nulls gone) against a criterion at cycle time `now` (unix seconds)
 * with a settle delay: the window of judgedWindow (judged-window.ts), the time_period ending with the last bucket
 * judged. Threshold criteria hold when every point in the window breaches and there is at least one; without a
 * time_period only the latest point of the look-back counts. `missing` holds when the window has no point although
 * the series had data before it.
 */
export function judgeSeries(criteria: AlertCriteria, points: readonly Point[], now: number, settleSeconds = 0): SeriesVerdict {
  return judgeSeriesIn(criteria, points, judgedWindow(criteria, now, settleSeconds, points[0]?.step ?? BUCKET_SECONDS));
}

/** judgeSeries over an explicit window: the points whose time is in [window.start, window.end). */
export function judgeSeriesIn(criteria: AlertCriteria, points: readonly Point[], window: JudgedWindow): SeriesVerdict {
  const instant = timePeriodMinutes(criteria) === null && criteria.type !== 'missing';
  let end = points.length;
  while (end > 0 && points[end - 1]!.time >= window.end) end -= 1;
  // Loops rather than filter/every with a callback each: this runs per alert per cycle.
  if (criteria.type === 'missing') {
    if (end > 0 && points[end - 1]!.time >= window.start) return { state: 'clear', value: points[end - 1]!.value };
    return end > 0 ? { state: 'holds', value: null } : { state: 'unknown' };
  }
  let inWindow = 0;
  let latest = 0;
  let allBreach = true;
  let worst = 0;
  let worstExcess = -Infinity;
  // Instantaneous: only the latest point of the look-back counts.
  for (let i = instant ? Math.max(end - 1, 0) : 0; i < end; i += 1) {
    const point = points[i]!;
    if (point.time < window.start) continue;
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
 * point lies in the window and whether the series had data before it. The window is judgedWindow's, the same settled
 * buckets as every other criterion (a point counts once its bucket is judged). `history` is the series in the 24 h
 * query (coarse points); without it, the window's own series is the history. A series silent through the window
 * holds even if a point newer than the window has come (its recovery waits for that point to be judged); one whose
 * only points are newer than the window and that had none before it (a new series) says nothing until then. Same
 * answers as judgeSeries on bucketed data.
 */
export function judgeMissing(
  criteria: AlertCriteria,
  window: readonly (readonly [number | null, number])[],
  history: readonly (readonly [number | null, number])[] | undefined,
  now: number,
  settleSeconds = 0,
): MissingJudgement {
  let step = Infinity;
  for (let i = 1; i < window.length; i += 1) {
    const gap = (window[i]?.[1] as number) - (window[i - 1]?.[1] as number);
    if (gap > 0 && gap < step) step = gap;
  }
  const { start, end } = judgedWindow(criteria, now, settleSeconds, Number.isFinite(step) ? step : BUCKET_SECONDS);
  let latest: number | null = null;
  let inWindow = false;
  let newer = false;
  for (const point of window) {
    const value = point?.[0];
    const time = point?.[1];
    if (!isValue(value) || typeof time !== 'number') continue;
    if (time >= end) {
      newer = true;
      continue;
    }
    latest = value;
    if (time >= start) inWindow = true;
  }
  if (inWindow || latest !== null || history === undefined) return missingVerdict(inWindow, latest, undefined);
  // Silent through the query: did it have data before the window? A series with points only newer than the window
  // has just appeared (or come back): only history points whose whole interval ends before the window count.
  const before = newer ? start : Infinity;
  let historyStep = Infinity;
  for (let i = 1; i < history.length; i += 1) {
    const gap = (history[i]?.[1] as number) - (history[i - 1]?.[1] as number);
    if (gap > 0 && gap < historyStep) historyStep = gap;
  }
  if (!Number.isFinite(historyStep)) historyStep = 0;
  let historyLatest: number | null = null;
  for (const point of history) if (isValue(point?.[0]) && (point[1] as number) + historyStep <= before) historyLatest = point[0];
  return missingVerdict(false, null, historyLatest);
}

/**
 * The verdict of `missing` on one series: whether a point lies in the window, the latest value judged (null: none
 * before the window's end), and, for a series silent through its query, the history's latest value that counts.
 */
export function missingVerdict(inWindow: boolean, latest: number | null, historyLatest: number | null | undefined): MissingJudgement {
  if (inWindow) return { verdict: { state: 'clear', value: latest! }, latest };
  if (latest === null && historyLatest !== undefined) latest = historyLatest;
  return { verdict: latest === null ? { state: 'unknown' } : { state: 'holds', value: null }, latest };
}

/** What `missing` says of one series: its verdict, and its latest judged value (from the history when silent). */
export interface MissingJudgement {
  verdict: SeriesVerdict;
  latest: number | null;
}
