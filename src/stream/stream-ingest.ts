import type { CarbonPoint } from './carbon-point.js';
import { PathMatcher } from './path-matcher.js';
import { PathTable } from './path-table.js';
import type { PointBatch } from './point-batch.js';
import { SeriesRings, type RingHandle } from './series-rings.js';

/**
 * What the receiver hands its points to: the path matcher and the series rings, owned together, so that a point
 * is matched once and kept only when something reads it. Subscribers (an alert's query, for the stream evaluator)
 * come and go here; each says how far back it reads, and a series keeps the longest window of those that read it.
 * Listeners hear of the matched points of each batch, with their subscribers.
 */
export interface StreamIngestOptions {
  /** Path decisions cached (matched or not), and paths the receiver's path table holds. */
  cacheSize: number;
  maxSeries: number;
  maxPointsPerSeries: number;
}

/** A point and who reads it. */
export interface MatchedPoint<T> {
  point: CarbonPoint;
  subscribers: readonly T[];
}

export type MatchedListener<T> = (matched: readonly MatchedPoint<T>[]) => void;

/** windowAt's mark of a path no subscriber reads. */
const UNMATCHED = -1;

export class StreamIngest<T> {
  readonly matcher: PathMatcher<T>;
  readonly rings: SeriesRings;
  /** The receiver's paths by their bytes: a batch's path ids are this table's. */
  readonly table: PathTable;
  /** Points handed over, and those some subscriber reads. */
  received = 0;
  matched = 0;
  private readonly windows = new Map<T, number>();
  /** The longest window of one match answer (answers are the same frozen array until subscriptions change). */
  private readonly longest = new WeakMap<readonly T[], number>();
  private readonly listeners = new Set<MatchedListener<T>>();
  /** Per path id of `table`: its subscribers, decided at matcher version `decidedAt[id]` (the decision cache). */
  private decisions: (readonly T[] | undefined)[] = [];
  private decidedAt: number[] = [];
  /** Per path id: the longest window of its subscribers (its ring's retention), UNMATCHED when it has none. */
  private windowAt: number[] = [];
  /** Per path id: its series' ring (a Map lookup saved per point), valid while the rings' generation holds. */
  private ringAt: (RingHandle | undefined)[] = [];
  private ringsGeneration = 0;
  /** The table's epoch the decisions belong to. */
  private epoch = 0;

  constructor(options: StreamIngestOptions) {
    this.matcher = new PathMatcher<T>({ cacheSize: options.cacheSize });
    this.table = new PathTable({ maxPaths: options.cacheSize });
    this.epoch = this.table.epoch;
    this.rings = new SeriesRings({ maxSeries: options.maxSeries, maxPointsPerSeries: options.maxPointsPerSeries });
  }

  /**
   * Subscribes to the paths of `queries` (plain paths or globs), confined to `allowedPrefixes` (null or empty: not
   * confined), keeping `windowSeconds` of each matched series. Subscribing again replaces the earlier subscription.
   */
  subscribe(subscriber: T, queries: readonly string[], allowedPrefixes: readonly string[] | null, windowSeconds: number): void {
    this.matcher.remove(subscriber);
    try {
      for (const query of queries) this.matcher.add(subscriber, query, allowedPrefixes);
    } catch (error) {
      // A malformed glob subscribes nothing (not half of the queries).
      this.matcher.remove(subscriber);
      this.windows.delete(subscriber);
      throw error;
    }
    this.windows.set(subscriber, windowSeconds);
  }

  unsubscribe(subscriber: T): void {
    this.matcher.remove(subscriber);
    this.windows.delete(subscriber);
  }

  /** Hears the matched points of each batch; returns the way to stop hearing them. */
  onMatched(listener: MatchedListener<T>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Matches a batch of points, keeps the matched ones in the rings, tells the listeners; returns how many matched. */
  accept(points: readonly CarbonPoint[]): number {
    let matchedHere = 0;
    const told: MatchedPoint<T>[] | null = this.listeners.size > 0 ? [] : null;
    for (const point of points) {
      const subscribers = this.matcher.match(point.path);
      if (subscribers.length === 0) continue;
      matchedHere += 1;
      this.rings.append(point.path, point.timestamp, point.value, this.windowOf(subscribers));
      told?.push({ point, subscribers });
    }
    this.received += points.length;
    this.matched += matchedHere;
    if (told !== null && told.length > 0) for (const listener of this.listeners) listener(told);
    return matchedHere;
  }

  /**
   * accept(), for a batch in columns (the receiver's way): each path id is decided once (again when subscriptions
   * change) and then costs an array read; a string exists only for paths something reads, and a point object only
   * for a matched point a listener hears of. Reads the batch before returning (the caller reuses it).
   */
  acceptBatch(batch: PointBatch): number {
    const table = batch.table;
    if (table.epoch !== this.epoch) {
      this.decisions = [];
      this.decidedAt = [];
      this.windowAt = [];
      this.ringAt = [];
      this.epoch = table.epoch;
    }
    // A ring kept per path id, asked of the rings again once they forgot any series.
    if (this.ringsGeneration !== this.rings.generation) {
      this.ringAt = [];
      this.ringsGeneration = this.rings.generation;
    }
    const ringAt = this.ringAt;
    const decisions = this.decisions;
    const decidedAt = this.decidedAt;
    const windowAt = this.windowAt;
    while (decisions.length < table.size) {
      decisions.push(undefined);
      decidedAt.push(-1);
      windowAt.push(UNMATCHED);
    }
    const version = this.matcher.version;
    const { ids, values, timestamps, length } = batch;
    let matchedHere = 0;
    const told: MatchedPoint<T>[] | null = this.listeners.size > 0 ? [] : null;
    for (let k = 0; k < length; k += 1) {
      const id = ids[k]!;
      if (decidedAt[id] !== version) {
        const decided = this.matcher.decideUncached(table.pathOf(id));
        decisions[id] = decided;
        decidedAt[id] = version;
        windowAt[id] = decided.length === 0 ? UNMATCHED : this.windowOf(decided);
        if (decided.length === 0) table.release(id);
      }
      // An unmatched point (most of a stream) costs these two reads of small integers.
      const window = windowAt[id]!;
      if (window === UNMATCHED) continue;
      matchedHere += 1;
      const timestamp = timestamps[k]!;
      const value = values[k]!;
      const ring = ringAt[id] ?? (ringAt[id] = this.rings.handle(table.pathOf(id), window));
      if (ring !== undefined) this.rings.appendTo(ring, timestamp, value, window);
      if (told !== null) {
        const path = table.pathOf(id);
        told.push({ point: { path, value, timestamp }, subscribers: decisions[id]! });
      }
    }
    this.received += length;
    this.matched += matchedHere;
    if (told !== null && told.length > 0) for (const listener of this.listeners) listener(told);
    return matchedHere;
  }

  /** Forgets series no subscriber reads any more, or that stopped arriving (now: unix seconds). */
  sweep(now: number): number {
    return this.rings.sweep(now, (path) => this.matcher.match(path).length > 0);
  }

  private windowOf(subscribers: readonly T[]): number {
    let window = this.longest.get(subscribers);
    if (window === undefined) {
      window = 0;
      for (const subscriber of subscribers) window = Math.max(window, this.windows.get(subscriber) ?? 0);
      this.longest.set(subscribers, window);
    }
    return window;
  }
}
