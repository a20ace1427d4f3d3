import type { AlertCriteria } from '../model/types.js';
import type { RenderSeries } from './render-series.js';
import { BUCKET_SECONDS, BucketSum, bucketDatapoints, singlePoint, type Point } from './buckets.js';
import { judgeMissing, timePeriodMinutes, type SeriesVerdict } from './criteria.js';

/*
 * bucketDatapoints and judgeMissing over a series as the render client read it: straight from its packed points
 * (value, time, value, time, ...; NaN where the value is null) when it has them, so that a cycle builds no
 * `[value, time]` pair per point; from its datapoints otherwise. The same arithmetic on the same numbers: a packed
 * value is a number (NaN for null, which isValue refuses as it refuses null) and a packed time always a number.
 */

/** bucketDatapoints(series.datapoints), the same points. */
export function bucketSeries(series: RenderSeries): Point[] {
  const packed = series.packed;
  if (!packed) return bucketDatapoints(series.datapoints);
  const count = packed.length >> 1;
  let step = Infinity;
  for (let i = 1; i < count; i += 1) {
    const gap = packed[2 * i + 1]! - packed[2 * i - 1]!;
    if (gap > 0 && gap < step) step = gap;
  }
  if (!Number.isFinite(step)) step = BUCKET_SECONDS;
  const points: Point[] = [];
  if (step >= BUCKET_SECONDS) {
    for (let i = 0; i < count; i += 1) {
      const value = packed[2 * i]!;
      if (Number.isFinite(value)) points.push(singlePoint(packed[2 * i + 1]!, value, step));
    }
    return points;
  }
  let bucketTime = -Infinity;
  const bucket = new BucketSum();
  for (let i = 0; i < count; i += 1) {
    const value = packed[2 * i]!;
    if (!Number.isFinite(value)) continue;
    const start = Math.floor(packed[2 * i + 1]! / BUCKET_SECONDS) * BUCKET_SECONDS;
    // Out of order: the general path, rare enough to read the pairs.
    if (start < bucketTime) return bucketDatapoints(series.datapoints);
    if (start !== bucketTime) {
      if (bucket.count > 0) points.push(bucket.take(bucketTime));
      bucketTime = start;
    }
    bucket.add(value);
  }
  if (bucket.count > 0) points.push(bucket.take(bucketTime));
  return points;
}

/**
 * judgeMissing(criteria, window's datapoints or [], history's datapoints, [] or undefined, now): `window` null is a
 * series absent from the window query, `history` null one absent from the history query, undefined no history query.
 */
export function judgeMissingSeries(
  criteria: AlertCriteria,
  window: RenderSeries | null,
  history: RenderSeries | null | undefined,
  now: number,
): { verdict: SeriesVerdict; latest: number | null } {
  const windowPoints = window?.packed ?? (window ? undefined : EMPTY);
  const historyPoints = history ? history.packed : EMPTY;
  if (!windowPoints || !historyPoints) {
    return judgeMissing(criteria, window?.datapoints ?? [], history === undefined ? undefined : (history?.datapoints ?? []), now);
  }
  const windowStart = now - (timePeriodMinutes(criteria) ?? 1) * 60;
  let latest: number | null = null;
  let inWindow = false;
  for (let i = 0; i < windowPoints.length; i += 2) {
    const value = windowPoints[i]!;
    if (!Number.isFinite(value)) continue;
    latest = value;
    if (windowPoints[i + 1]! > windowStart) inWindow = true;
  }
  if (inWindow) return { verdict: { state: 'clear', value: latest! }, latest };
  if (latest === null && history !== undefined) {
    for (let i = 0; i < historyPoints.length; i += 2) {
      const value = historyPoints[i]!;
      if (Number.isFinite(value)) latest = value;
    }
  }
  return { verdict: latest === null ? { state: 'unknown' } : { state: 'holds', value: null }, latest };
}

const EMPTY = new Float64Array(0);
