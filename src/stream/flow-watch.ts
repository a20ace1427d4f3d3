/** How the whole stream's flow stands: a sudden large drop (a relay half failing) or not. */
export interface FlowState {
  /** Whether the flow is down by at least the drop share against its baseline. */
  dropped: boolean;
  /** When the drop was first seen (epoch ms); null when not dropped. */
  since: number | null;
  /** Points in the last minute. */
  perMinute: number;
  /** Points a minute before the drop (or now, when none): the median of the minutes before. */
  baselinePerMinute: number | null;
}

export interface FlowWatchOptions {
  /** The share of the baseline the flow must lose at once to count as a drop; default 0.3. */
  dropShare?: number;
  /** Minutes of history the baseline is the median of; default 10. */
  baselineMinutes?: number;
  /** A baseline below this many points a minute is too thin to judge a drop on; default 60. */
  minPointsPerMinute?: number;
  /** After this long a drop is taken as the new normal (a decommissioned fleet), ms; default 15 minutes. */
  maxDropMs?: number;
  /** The length of a slot, ms (a "minute" is six slots); default 10 s. Tests shorten it. */
  slotMs?: number;
}

const SLOTS_PER_MINUTE = 6;

/**
 * Watches the whole stream's flow for a sudden, large drop: the points of the last minute (a sliding window of
 * 10 s slots) against the median minute of the minutes before. A half-failed relay drops the flow by a large share
 * at once, and every alert whose series came through it would go silent together: a stream that shows this must
 * not have those alerts called no data without asking render first. Pure: counts and a clock the caller gives.
 */
export class FlowWatch {
  private readonly dropShare: number;
  private readonly baselineMinutes: number;
  private readonly minPerMinute: number;
  private readonly maxDropMs: number;
  private readonly slotMs: number;
  /** Points per 10 s slot, by slot index modulo the ring's length. */
  private readonly counts: number[];
  private readonly slots: number[];
  private firstSlot: number | null = null;
  private dropSince: number | null = null;
  private frozenBaseline: number | null = null;

  constructor(options: FlowWatchOptions = {}) {
    this.dropShare = options.dropShare ?? 0.3;
    this.baselineMinutes = options.baselineMinutes ?? 10;
    this.minPerMinute = options.minPointsPerMinute ?? 60;
    this.maxDropMs = options.maxDropMs ?? 15 * 60_000;
    this.slotMs = options.slotMs ?? 10_000;
    const length = (this.baselineMinutes + 2) * SLOTS_PER_MINUTE;
    this.counts = new Array<number>(length).fill(0);
    this.slots = new Array<number>(length).fill(-1);
  }

  /** Counts `points` received at `nowMs`. */
  count(points: number, nowMs: number): void {
    const slot = Math.floor(nowMs / this.slotMs);
    this.firstSlot ??= slot;
    const at = slot % this.counts.length;
    if (this.slots[at] !== slot) {
      this.slots[at] = slot;
      this.counts[at] = 0;
    }
    this.counts[at]! += points;
  }

  /** The flow's state at `nowMs`; a drop starts when the last minute is down by the drop share, ends when it is back. */
  check(nowMs: number): FlowState {
    // The current slot is still filling: the last minute is the six slots before it.
    const current = Math.floor(nowMs / this.slotMs);
    const perMinute = this.sum(current - SLOTS_PER_MINUTE, current);
    const baseline = this.frozenBaseline ?? this.baseline(current - SLOTS_PER_MINUTE);
    if (this.dropSince !== null) {
      const recovered = baseline === null || perMinute >= (1 - this.dropShare / 2) * baseline;
      if (recovered || nowMs - this.dropSince >= this.maxDropMs) {
        this.dropSince = null;
        this.frozenBaseline = null;
        return { dropped: false, since: null, perMinute, baselinePerMinute: this.baseline(current - SLOTS_PER_MINUTE) };
      }
      return { dropped: true, since: this.dropSince, perMinute, baselinePerMinute: baseline };
    }
    if (baseline !== null && baseline >= this.minPerMinute && perMinute < (1 - this.dropShare) * baseline) {
      this.dropSince = nowMs;
      this.frozenBaseline = baseline;
      return { dropped: true, since: nowMs, perMinute, baselinePerMinute: baseline };
    }
    return { dropped: false, since: null, perMinute, baselinePerMinute: baseline };
  }

  /** The median of the whole minutes before slot `end` that were watched (null with fewer than three). */
  private baseline(end: number): number | null {
    const minutes: number[] = [];
    for (let m = 1; m <= this.baselineMinutes; m += 1) {
      const to = end - (m - 1) * SLOTS_PER_MINUTE;
      const from = to - SLOTS_PER_MINUTE;
      if (this.firstSlot === null || from < this.firstSlot) break;
      minutes.push(this.sum(from, to));
    }
    if (minutes.length < 3) return null;
    minutes.sort((a, b) => a - b);
    return minutes[Math.floor(minutes.length / 2)]!;
  }

  /** Points in slots [from, to). */
  private sum(from: number, to: number): number {
    let total = 0;
    for (let slot = from; slot < to; slot += 1) {
      const at = ((slot % this.counts.length) + this.counts.length) % this.counts.length;
      if (this.slots[at] === slot) total += this.counts[at]!;
    }
    return total;
  }
}
