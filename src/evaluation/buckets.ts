/** The evaluation resolution: finer data is averaged into buckets of this many seconds. */
export const BUCKET_SECONDS = 30;

/**
 * A non-null point: the start of its interval (unix seconds), its value (the mean of a bucket) and the interval's
 * length; `high`, `low` and `last` are the largest, smallest and latest values Graphite returned inside it (all
 * equal to `value` for data at 30 s or coarser), so that what is recorded is a value Graphite really held.
 */
export interface Point {
  time: number;
  value: number;
  step: number;
  high: number;
  low: number;
  last: number;
}

/** A point of data at 30 s or coarser: one value. */
export function singlePoint(time: number, value: number, step: number): Point {
  return { time, value, step, high: value, low: value, last: value };
}

/** Sums a bucket's values one at a time, keeping the extremes and the latest (bucketDatapoints, bucketSeries). */
export class BucketSum {
  sum = 0;
  count = 0;
  high = -Infinity;
  low = Infinity;
  last = 0;

  add(value: number): void {
    this.sum += value;
    this.count += 1;
    if (value > this.high) this.high = value;
    if (value < this.low) this.low = value;
    this.last = value;
  }

  /** The bucket's point, and a fresh start for the next bucket. */
  take(time: number): Point {
    const point = { time, value: this.sum / this.count, step: BUCKET_SECONDS, high: this.high, low: this.low, last: this.last };
    this.sum = 0;
    this.count = 0;
    this.high = -Infinity;
    this.low = Infinity;
    return point;
  }
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
      if (isValue(value) && typeof point[1] === 'number') points.push(singlePoint(point[1], value, step));
    }
    return points;
  }
  // Graphite sends points in time order: one pass, one running bucket. Out-of-order input takes the general path.
  const points: Point[] = [];
  let bucketTime = -Infinity;
  const bucket = new BucketSum();
  for (const point of datapoints) {
    const value = point?.[0];
    const time = point?.[1];
    if (!isValue(value) || typeof time !== 'number') continue;
    const start = Math.floor(time / BUCKET_SECONDS) * BUCKET_SECONDS;
    if (start < bucketTime) return bucketUnordered(datapoints);
    if (start !== bucketTime) {
      if (bucket.count > 0) points.push(bucket.take(bucketTime));
      bucketTime = start;
    }
    bucket.add(value);
  }
  if (bucket.count > 0) points.push(bucket.take(bucketTime));
  return points;
}

/** bucketDatapoints for points in any order. */
function bucketUnordered(datapoints: readonly (readonly [number | null, number])[]): Point[] {
  const sums = new Map<number, BucketSum>();
  for (const point of datapoints) {
    const value = point?.[0];
    const time = point?.[1];
    if (!isValue(value) || typeof time !== 'number') continue;
    const start = Math.floor(time / BUCKET_SECONDS) * BUCKET_SECONDS;
    let bucket = sums.get(start);
    if (!bucket) sums.set(start, (bucket = new BucketSum()));
    bucket.add(value);
  }
  return [...sums.entries()].sort((x, y) => x[0] - y[0]).map(([time, bucket]) => bucket.take(time));
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
