import { BUCKET_SECONDS } from '../evaluation/buckets.js';

/** What is known of one series: its step (null until two points or its history say) and its newest point's time. */
interface SeriesClock {
  step: number | null;
  last: number;
}

/**
 * When the buckets (the evaluator's 30 s resolution) of streamed series are complete, so that an alert is judged as
 * soon as its data is whole and never on a half-filled bucket:
 *
 * - a series' bucket is complete when its last point for it has arrived (the step, learnt from its history or its
 *   points, says which point is the last) or a point of a later bucket has;
 * - an aggregate's bucket (several member series) when every member known from recent history has completed it, or
 *   when the settle delay has passed since the bucket's end for the members still missing: a member silent for
 *   longer than the settle delay no longer holds anything back, so a dead collector never holds an alert forever.
 *
 * So the completion point is never later than the settle delay's cutoff (what render polling judges), and earlier
 * whenever the data is whole. Pure: times are unix seconds, given by the caller. Points are assumed to arrive in
 * time order per series (as carbon relays send them); a point older than the newest changes nothing here.
 */
export class BucketCompletion {
  private readonly series = new Map<string, SeriesClock>();

  constructor(private readonly options: { maxSeries: number }) {}

  /**
   * A point of `path` at `timestamp` arrived. Answers whether the series' completion moved forward (the caller then
   * looks at the alerts that read it).
   */
  observe(path: string, timestamp: number): boolean {
    const clock = this.series.get(path);
    if (!clock) {
      this.make(path, { step: null, last: timestamp });
      return false;
    }
    if (timestamp <= clock.last) return false;
    const before = completeUntilOf(clock);
    const gap = timestamp - clock.last;
    if (clock.step === null || gap < clock.step) clock.step = gap;
    clock.last = timestamp;
    return completeUntilOf(clock) > before;
  }

  /** The series' history (render's answer at warm-up): its step, and its newest point if later than any seen. */
  learn(path: string, step: number, lastTimestamp: number | null): void {
    if (!(step > 0)) return;
    const clock = this.series.get(path);
    if (!clock) {
      if (lastTimestamp !== null) this.make(path, { step, last: lastTimestamp });
      return;
    }
    clock.step = clock.step === null ? step : Math.min(clock.step, step);
    if (lastTimestamp !== null && lastTimestamp > clock.last) clock.last = lastTimestamp;
  }

  /** The end (exclusive, unix seconds) of the series' complete data; null for a series never seen. */
  seriesCompleteUntil(path: string): number | null {
    const clock = this.series.get(path);
    return clock ? completeUntilOf(clock) : null;
  }

  /** The time of the series' newest point; null for a series never seen. */
  lastPoint(path: string): number | null {
    return this.series.get(path)?.last ?? null;
  }

  /** The series' step as learnt; null while unknown. */
  stepOf(path: string): number | null {
    return this.series.get(path)?.step ?? null;
  }

  /**
   * The end (exclusive, unix seconds) up to which an aggregate of `members` is complete at `now`: the earliest
   * completion among members still reporting within the settle delay, and never earlier than the settle delay's own
   * cutoff (the end of the last bucket that ended `settleSeconds` ago). No live member: that cutoff.
   */
  completeUntil(members: Iterable<string>, now: number, settleSeconds: number): number {
    const settled = bucketStart(now - settleSeconds);
    // Nothing beyond the current bucket counts as complete, whatever a clock running ahead sends.
    const ceiling = bucketStart(now) + BUCKET_SECONDS;
    let earliest = Infinity;
    for (const path of members) {
      const clock = this.series.get(path);
      if (!clock) continue;
      const until = completeUntilOf(clock);
      // Its first missing bucket is settled already (it is late beyond the delay, or dead): it holds nothing back.
      if (until < settled) continue;
      if (until < earliest) earliest = until;
    }
    return Math.min(ceiling, earliest === Infinity ? settled : earliest);
  }

  /** Forgets a series (no alert reads it any more). */
  forget(path: string): void {
    this.series.delete(path);
  }

  /** How many series are tracked. */
  size(): number {
    return this.series.size;
  }

  private make(path: string, clock: SeriesClock): void {
    // Bounded: the oldest tracked series goes first (the caller forgets series it unsubscribes long before).
    if (this.series.size >= this.options.maxSeries) {
      const oldest = this.series.keys().next().value;
      if (oldest !== undefined) this.series.delete(oldest);
    }
    this.series.set(path, clock);
  }
}

/** The start of the 30 s bucket holding `time`. */
export function bucketStart(time: number): number {
  return Math.floor(time / BUCKET_SECONDS) * BUCKET_SECONDS;
}

/**
 * Where a series' complete data ends: finer than 30 s, at the end of the bucket its newest point completes (the
 * point one step before the bucket's end is its last one) or else the start of that point's bucket; at 30 s or
 * coarser, at the end of the newest point's own interval (it is the only point for it). Step unknown: only a point
 * of a later bucket completes one.
 */
function completeUntilOf({ step, last }: SeriesClock): number {
  if (step === null) return bucketStart(last);
  if (step >= BUCKET_SECONDS) return last + step;
  return bucketStart(last + step);
}
