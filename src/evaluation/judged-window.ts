import type { AlertCriteria } from '../model/types.js';
import { BUCKET_SECONDS } from './buckets.js';

/**
 * The one window rule, used alike by the server's cycles (judge-alert.ts), the backtest's cursors
 * (impact/criterion-cursor.ts) and anything else that judges: a criterion reads the points whose interval starts at
 * or after `start` and before `end`, unix seconds. `end` is the end of the last bucket judged, so the window always
 * holds its whole length of buckets: a `for 2 minutes` rule reads four whole 30 s buckets, never three and a part.
 */
export interface JudgedWindow {
  start: number;
  end: number;
}

/** Minutes an instantaneous criterion looks back for its latest point (its query's range). */
export const INSTANT_RANGE_MINUTES = 10;

/** Seconds a criterion's window spans: its time_period; one minute for `missing` without one; the look-back of an instantaneous one. */
export function windowSpanSeconds(criteria: AlertCriteria): number {
  const period = criteria.time_period;
  if (typeof period === 'number' && period > 0) return period * 60;
  return criteria.type === 'missing' ? 60 : INSTANT_RANGE_MINUTES * 60;
}

/**
 * The end of the last bucket judged at `now` (unix seconds) for data whose points are `step` seconds apart (finer data
 * is judged in 30 s buckets). With a settle delay, the last bucket whose whole interval is older than the delay: a
 * bucket `[t, t + 30)` is judged once `t + 30 <= now - settleSeconds`. Without one (0), the bucket holding `now`, as
 * it is while it fills.
 */
export function lastBucketEnd(now: number, settleSeconds: number, step: number): number {
  const resolution = Math.max(BUCKET_SECONDS, step);
  if (settleSeconds > 0) return Math.floor((now - settleSeconds) / resolution) * resolution;
  return Math.floor(now / resolution) * resolution + resolution;
}

/**
 * The window a criterion judges at `now` with a settle delay, for data of `step` seconds: the `time_period` (or the
 * span of windowSpanSeconds) ending with the last bucket judged. A window shorter than one point of coarse data holds
 * that one point.
 */
export function judgedWindow(criteria: AlertCriteria, now: number, settleSeconds: number, step: number): JudgedWindow {
  const end = lastBucketEnd(now, settleSeconds, step);
  return { start: end - Math.max(windowSpanSeconds(criteria), Math.max(BUCKET_SECONDS, step)), end };
}
