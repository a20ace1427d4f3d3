/** The evaluation resolution: finer data is averaged into buckets of this many seconds. */
export const BUCKET_SECONDS = 30;

/** A non-null point: the start of its interval (unix seconds), its value and the interval's length. */
export interface Point {
  time: number;
  value: number;
  step: number;
}

/**
 * Turns Graphite datapoints into the evaluation resolution: data finer than 30 s is averaged into 30 s buckets
 * (nulls left out of the average; a bucket of nulls is no point at all), coarser data is kept as it is. Null
 * points disappear, so they can neither trigger nor resolve anything.
 */
export function bucketDatapoints(datapoints: readonly (readonly [number | null, number])[]): Point[] {
  const step = inferStep(datapoints);
  if (step >= BUCKET_SECONDS) {
    const points: Point[] = [];
    for (const [value, time] of datapoints) if (value !== null) points.push({ time, value, step });
    return points;
  }
  const sums = new Map<number, { sum: number; count: number }>();
  for (const [value, time] of datapoints) {
    if (value === null) continue;
    const bucket = Math.floor(time / BUCKET_SECONDS) * BUCKET_SECONDS;
    const entry = sums.get(bucket);
    if (entry) {
      entry.sum += value;
      entry.count += 1;
    } else sums.set(bucket, { sum: value, count: 1 });
  }
  return [...sums.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([time, { sum, count }]) => ({ time, value: sum / count, step: BUCKET_SECONDS }));
}

/** The series' step: the smallest gap between consecutive timestamps (Graphite sends a regular grid). */
function inferStep(datapoints: readonly (readonly [number | null, number])[]): number {
  let step = Infinity;
  for (let i = 1; i < datapoints.length; i += 1) {
    const gap = datapoints[i]![1] - datapoints[i - 1]![1];
    if (gap > 0 && gap < step) step = gap;
  }
  return Number.isFinite(step) ? step : BUCKET_SECONDS;
}
