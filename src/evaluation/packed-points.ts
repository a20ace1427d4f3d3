import type { AlertCriteria } from '../model/types.js';
import type { RenderSeries } from './render-series.js';
import { BUCKET_SECONDS, BucketSum, bucketDatapoints, singlePoint, type Point } from './buckets.js';
import { judgeMissing, missingVerdict, type MissingJudgement } from './criteria.js';
import { judgedWindow } from './judged-window.js';

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
 * judgeMissing(criteria, window's datapoints or [], history's datapoints, [] or undefined, now, settleSeconds):
 * `window` null is a series absent from the window query, `history` null one absent from the history query,
 * undefined no history query.
 */
export function judgeMissingSeries(
  criteria: AlertCriteria,
  window: RenderSeries | null,
  history: RenderSeries | null | undefined,
  now: number,
  settleSeconds = 0,
): MissingJudgement {
  const windowPoints = window?.packed ?? (window ? undefined : EMPTY);
  const historyPoints = history ? history.packed : EMPTY;
  if (!windowPoints || !historyPoints) {
    return judgeMissing(criteria, window?.datapoints ?? [], history === undefined ? undefined : (history?.datapoints ?? []), now, settleSeconds);
  }
  let step = Infinity;
  for (let i = 3; i < windowPoints.length; i += 2) {
    const gap = windowPoints[i]! - windowPoints[i - 2]!;
    if (gap > 0 && gap < step) step = gap;
  }
  const { start, end } = judgedWindow(criteria, now, settleSeconds, Number.isFinite(step) ? step : BUCKET_SECONDS);
  let latest: number | null = null;
  let inWindow = false;
  let newer = false;
  for (let i = 0; i < windowPoints.length; i += 2) {
    const value = windowPoints[i]!;
    if (!Number.isFinite(value)) continue;
    const time = windowPoints[i + 1]!;
    if (time >= end) {
      newer = true;
      continue;
    }
    latest = value;
    if (time >= start) inWindow = true;
  }
  if (inWindow || latest !== null || history === undefined) return missingVerdict(inWindow, latest, undefined);
  // As judgeMissing: a series with points only newer than the window counts history bins that end before it.
  const before = newer ? start : Infinity;
  let historyStep = Infinity;
  for (let i = 3; i < historyPoints.length; i += 2) {
    const gap = historyPoints[i]! - historyPoints[i - 2]!;
    if (gap > 0 && gap < historyStep) historyStep = gap;
  }
  if (!Number.isFinite(historyStep)) historyStep = 0;
  let historyLatest: number | null = null;
  for (let i = 0; i < historyPoints.length; i += 2) {
    const value = historyPoints[i]!;
    if (Number.isFinite(value) && historyPoints[i + 1]! + historyStep <= before) historyLatest = value;
  }
  return missingVerdict(false, null, historyLatest);
}

const EMPTY = new Float64Array(0);
