import { ownCopy } from './carbon-point.js';

/**
 * The recent points of each matched series, kept in memory so a stream-evaluated alert reads its window without
 * Graphite. One ring per series: unsigned 32-bit timestamps and 64-bit values in typed arrays (12 bytes a point),
 * sorted by time, grown by doubling up to `maxPointsPerSeries`, trimmed to the series' retention (the longest
 * window its subscribers need). A point for a time already held replaces it (carbon's last write wins); a late
 * point is put in its place. Both bounds hold whatever the stream sends: past `maxSeries` a new series is refused
 * (counted), past `maxPointsPerSeries` the oldest point goes.
 */
export interface SeriesRingsOptions {
  maxSeries: number;
  maxPointsPerSeries: number;
  /** Retention of a series whose retention was never set, seconds. Default 3600. */
  defaultRetentionSeconds?: number;
}

/** What the rings hold, for /metrics: series, points, and the bytes of their arrays and names. */
export interface SeriesRingsStats {
  series: number;
  points: number;
  bytes: number;
  /** New series refused because `maxSeries` were held. */
  refusedSeries: number;
}

const FIRST_CAPACITY = 4;
/** A ring's fixed cost beyond its arrays: the object, two typed-array headers, its map entry (V8, measured roughly). */
const RING_OVERHEAD_BYTES = 200;

class Ring {
  times: Uint32Array;
  values: Float64Array;
  /** Index of the oldest point; points run from there, wrapping. */
  head = 0;
  count = 0;

  constructor(
    public retention: number,
    capacity: number,
  ) {
    this.times = new Uint32Array(capacity);
    this.values = new Float64Array(capacity);
  }

  get capacity(): number {
    return this.times.length;
  }

  timeAt(k: number): number {
    return this.times[this.index(k)]!;
  }

  valueAt(k: number): number {
    return this.values[this.index(k)]!;
  }

  /** The array index of logical point k (0 <= k < capacity): a compare, not a division, on every append. */
  private index(k: number): number {
    const at = this.head + k;
    return at >= this.times.length ? at - this.times.length : at;
  }

  /** The logical index of the first point at or after `time`. */
  lowerBound(time: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.timeAt(mid) < time) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Copies the points into arrays of `capacity`, the oldest first. */
  resize(capacity: number): void {
    const times = new Uint32Array(capacity);
    const values = new Float64Array(capacity);
    const keep = Math.min(this.count, capacity);
    const skip = this.count - keep;
    for (let k = 0; k < keep; k += 1) {
      times[k] = this.timeAt(skip + k);
      values[k] = this.valueAt(skip + k);
    }
    this.times = times;
    this.values = values;
    this.head = 0;
    this.count = keep;
  }
}

/** A series' ring as SeriesRings.handle gives it: only for appendTo, within one generation. */
export type RingHandle = Ring;

export class SeriesRings {
  private readonly rings = new Map<string, Ring>();
  private readonly maxSeries: number;
  private readonly maxPoints: number;
  private readonly defaultRetention: number;
  private points = 0;
  private bytes = 0;
  private refused = 0;
  private forgotten = 0;

  constructor(options: SeriesRingsOptions) {
    this.maxSeries = options.maxSeries;
    this.maxPoints = Math.max(1, options.maxPointsPerSeries);
    this.defaultRetention = options.defaultRetentionSeconds ?? 3600;
  }

  /**
   * Stores a point (timestamp in unix seconds); `retentionSeconds`, when given, becomes the series' retention (the
   * caller knows its subscribers' longest window). False when it is not kept: a new series past `maxSeries`, or a
   * point older than the series' retention behind its newest.
   */
  append(path: string, timestamp: number, value: number, retentionSeconds?: number): boolean {
    const ring = this.handle(path, retentionSeconds);
    return ring !== undefined && this.appendTo(ring, timestamp, value, retentionSeconds);
  }

  /**
   * The ring of a series, made when it is not held (undefined past `maxSeries`): a caller appending to the same
   * series often keeps it, and asks again once `generation` has moved (appendTo then never writes to a dropped ring).
   */
  handle(path: string, retentionSeconds?: number): RingHandle | undefined {
    return this.rings.get(path) ?? this.create(path, retentionSeconds ?? this.defaultRetention);
  }

  /** Moves whenever a series is forgotten: handles taken before may be of dropped rings. */
  get generation(): number {
    return this.forgotten;
  }

  /** append() on a handle taken in this generation. */
  appendTo(ring: RingHandle, timestamp: number, value: number, retentionSeconds?: number): boolean {
    if (retentionSeconds !== undefined && ring.retention !== retentionSeconds) ring.retention = retentionSeconds;
    const count = ring.count;
    const newest = count > 0 ? ring.timeAt(count - 1) : -1;
    if (count > 0 && timestamp <= newest) {
      if (timestamp < newest - ring.retention) return false;
      const at = ring.lowerBound(timestamp);
      if (ring.timeAt(at) === timestamp) {
        ring.values[(ring.head + at) % ring.capacity] = value;
        return true;
      }
      return this.insert(ring, at, timestamp, value);
    }
    if (count === ring.capacity) {
      const kept = this.insert(ring, count, timestamp, value);
      this.trim(ring);
      return kept;
    }
    // The common case, a newer point with room for it: written at the end, then the points past the retention
    // dropped from the start, with compares where the general path divides (this runs for every matched point).
    const { times, values } = ring;
    const capacity = times.length;
    let slot = ring.head + count;
    if (slot >= capacity) slot -= capacity;
    times[slot] = timestamp;
    values[slot] = value;
    const oldest = timestamp - ring.retention;
    let head = ring.head;
    let held = count + 1;
    while (held > 0 && times[head]! < oldest) {
      head += 1;
      if (head === capacity) head = 0;
      held -= 1;
    }
    ring.head = head;
    ring.count = held;
    this.points += held - count;
    return true;
  }

  /**
   * The points of a series in (from, until], oldest first, as Graphite's datapoints `[value, timestamp]`. With a
   * step, as whisper answers: one datapoint per step-aligned interval, null where no point was received (the last
   * point of an interval wins).
   */
  read(path: string, from: number, until: number, step?: number): [number | null, number][] {
    const ring = this.rings.get(path);
    if (step !== undefined && step > 0) {
      const first = from - (from % step) + step;
      const end = until - (until % step) + step;
      const out: [number | null, number][] = [];
      for (let time = first; time < end; time += step) out.push([null, time]);
      if (ring === undefined) return out;
      for (let k = ring.lowerBound(first); k < ring.count; k += 1) {
        const time = ring.timeAt(k);
        if (time >= end) break;
        out[Math.floor((time - first) / step)]![0] = ring.valueAt(k);
      }
      return out;
    }
    const out: [number | null, number][] = [];
    if (ring === undefined) return out;
    for (let k = ring.lowerBound(from + 1); k < ring.count; k += 1) {
      const time = ring.timeAt(k);
      if (time > until) break;
      out.push([ring.valueAt(k), time]);
    }
    return out;
  }

  /** Whether a series is held. */
  has(path: string): boolean {
    return this.rings.has(path);
  }

  /** Drops a series and its points. */
  forget(path: string): void {
    const ring = this.rings.get(path);
    if (ring === undefined) return;
    this.rings.delete(path);
    this.forgotten += 1;
    this.points -= ring.count;
    this.bytes -= ringBytes(path, ring.capacity);
  }

  /**
   * How far back a series keeps points, seconds (the longest window its subscribers need); points older than its
   * newest minus this go. A series not held yet is made (empty), so that its first points are kept that long.
   * False when it cannot be made (`maxSeries` held).
   */
  setRetention(path: string, seconds: number): boolean {
    const ring = this.rings.get(path) ?? this.create(path, seconds);
    if (ring === undefined) return false;
    ring.retention = seconds;
    this.trim(ring);
    return true;
  }

  /**
   * Forgets the series for which `keep` says no, and those whose newest point is older than `now` (unix seconds)
   * minus their retention: what no subscriber reads any more, or what stopped arriving. Returns how many went.
   */
  sweep(now: number, keep: (path: string) => boolean): number {
    let dropped = 0;
    for (const [path, ring] of this.rings) {
      const stale = ring.count === 0 || ring.timeAt(ring.count - 1) < now - ring.retention;
      if (stale || !keep(path)) {
        this.forget(path);
        dropped += 1;
      }
    }
    return dropped;
  }

  /** The retention of a held series, seconds, or null. */
  retentionOf(path: string): number | null {
    return this.rings.get(path)?.retention ?? null;
  }

  stats(): SeriesRingsStats {
    return { series: this.rings.size, points: this.points, bytes: this.bytes, refusedSeries: this.refused };
  }

  private create(path: string, retention: number): Ring | undefined {
    if (this.rings.size >= this.maxSeries) {
      this.refused += 1;
      return undefined;
    }
    const capacity = Math.min(FIRST_CAPACITY, this.maxPoints);
    const ring = new Ring(retention, capacity);
    this.rings.set(ownCopy(path), ring);
    this.bytes += ringBytes(path, capacity);
    return ring;
  }

  /** Puts a point at logical index `at`, growing the ring or dropping its oldest point when it is full. */
  private insert(ring: Ring, at: number, timestamp: number, value: number): boolean {
    if (ring.count === ring.capacity) {
      if (ring.capacity < this.maxPoints) {
        const capacity = Math.min(ring.capacity * 2, this.maxPoints);
        this.bytes += (capacity - ring.capacity) * 12;
        ring.resize(capacity);
      } else {
        // Full at its bound: the oldest point goes (a point older than all of them is not kept at all).
        if (at === 0) return false;
        ring.head = (ring.head + 1) % ring.capacity;
        ring.count -= 1;
        this.points -= 1;
        at -= 1;
      }
    }
    const capacity = ring.capacity;
    // Shift the points after `at` one place on (none for a point in order).
    for (let k = ring.count; k > at; k -= 1) {
      const to = (ring.head + k) % capacity;
      const from = (ring.head + k - 1) % capacity;
      ring.times[to] = ring.times[from]!;
      ring.values[to] = ring.values[from]!;
    }
    const slot = (ring.head + at) % capacity;
    ring.times[slot] = timestamp;
    ring.values[slot] = value;
    ring.count += 1;
    this.points += 1;
    return true;
  }

  /** Drops points older than the newest minus the retention. */
  private trim(ring: Ring): void {
    if (ring.count === 0) return;
    const oldest = ring.timeAt(ring.count - 1) - ring.retention;
    while (ring.count > 0 && ring.timeAt(0) < oldest) {
      ring.head = (ring.head + 1) % ring.capacity;
      ring.count -= 1;
      this.points -= 1;
    }
  }
}

function ringBytes(path: string, capacity: number): number {
  return RING_OVERHEAD_BYTES + path.length * 2 + capacity * 12;
}
