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
    for (const point of datapoints) {
      const value = point?.[0];
      if (isValue(value) && typeof point[1] === 'number') points.push({ time: point[1], value, step });
    }
    return points;
  }
  // Graphite sends points in time order: one pass, one running bucket. Out-of-order input takes the general path.
  const points: Point[] = [];
  let bucketTime = -Infinity;
  let sum = 0;
  let count = 0;
  for (const point of datapoints) {
    const value = point?.[0];
    const time = point?.[1];
    if (!isValue(value) || typeof time !== 'number') continue;
    const bucket = Math.floor(time / BUCKET_SECONDS) * BUCKET_SECONDS;
    if (bucket < bucketTime) return bucketUnordered(datapoints);
    if (bucket !== bucketTime) {
      if (count > 0) points.push({ time: bucketTime, value: sum / count, step: BUCKET_SECONDS });
      bucketTime = bucket;
      sum = 0;
      count = 0;
    }
    sum += value;
    count += 1;
  }
  if (count > 0) points.push({ time: bucketTime, value: sum / count, step: BUCKET_SECONDS });
  return points;
}

/** bucketDatapoints for points in any order. */
function bucketUnordered(datapoints: readonly (readonly [number | null, number])[]): Point[] {
  const sums = new Map<number, { sum: number; count: number }>();
  for (const point of datapoints) {
    const value = point?.[0];
    const time = point?.[1];
    if (!isValue(value) || typeof time !== 'number') continue;
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

/** A real value: not null, not a string or NaN a broken backend might send. */
export function isValue(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The series' step: the smallest gap between consecutive timestamps (Graphite sends a regular grid). */
function inferStep(datapoints: readonly (readonly [number | null, number])[]): number {
  let step = Infinity;
  for (let i = 1; i < datapoints.length; i += 1) {
    const gap = (datapoints[i]?.[1] as number) - (datapoints[i - 1]?.[1] as number);
    if (gap > 0 && gap < step) step = gap;
  }
  return Number.isFinite(step) ? step : BUCKET_SECONDS;
}
