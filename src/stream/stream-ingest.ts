import type { CarbonPoint } from './carbon-point.js';
import { PathMatcher } from './path-matcher.js';
import { SeriesRings } from './series-rings.js';

/**
 * What the receiver hands its points to: the path matcher and the series rings, owned together, so that a point
 * is matched once and kept only when something reads it. Subscribers (an alert's query, for the stream evaluator)
 * come and go here; each says how far back it reads, and a series keeps the longest window of those that read it.
 * Listeners hear of the matched points of each batch, with their subscribers.
 */
export interface StreamIngestOptions {
  /** Path decisions cached (matched or not). */
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

export class StreamIngest<T> {
  readonly matcher: PathMatcher<T>;
  readonly rings: SeriesRings;
  /** Points handed over, and those some subscriber reads. */
  received = 0;
  matched = 0;
  private readonly windows = new Map<T, number>();
  /** The longest window of one match answer (answers are the same frozen array until subscriptions change). */
  private readonly longest = new WeakMap<readonly T[], number>();
  private readonly listeners = new Set<MatchedListener<T>>();

  constructor(options: StreamIngestOptions) {
    this.matcher = new PathMatcher<T>({ cacheSize: options.cacheSize });
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
