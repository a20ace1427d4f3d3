import type { RenderQuery, RenderResult } from '../../graphite/index.js';
import { isBatchableTarget } from '../../model/graphite-target/glob.js';
import { DEFAULT_TARGETS_PER_REQUEST } from '../../graphite/render-client.js';

/**
 * How many plain targets the Graphite client puts in one request (the server's client uses the default): a page's
 * batchable queries are handed to it in multiples of this, the rest held for the next page, so that rendering page
 * by page sends (nearly) the same full requests as rendering the whole cycle at once.
 */
export const RENDER_BATCH = DEFAULT_TARGETS_PER_REQUEST;

/**
 * The distinct render queries of one cycle whose alerts arrive a page at a time: each query is asked once per
 * cycle whichever page first needs it, and its answer is kept until every alert using it (on any page) is judged.
 * Queries are indexed by range (a handful per cycle; a plain window keyed by its minutes alone, no string built),
 * then by target. Everything here lives for one cycle: nothing per alert or per query outlasts it.
 */
export class CycleQueries {
  /** Every distinct query of the cycle so far, by slot. */
  readonly queries: RenderQuery[] = [];
  /** For each query: its answer, once in; dropped when its last use is judged after the listing ended. */
  readonly results: (RenderResult | undefined)[] = [];
  private readonly slots = new Map<number | string, Map<string, number>>();
  /** For each query: the plans waiting for its answer (one entry per use), null once it is in. */
  private readonly waiting: (number[] | null)[] = [];
  /** For each query: how many of its uses by alerts are not judged yet. */
  private readonly unjudged: number[] = [];
  /** Batchable queries not asked yet, by range. */
  private readonly held = new Map<number | string, number[]>();
  /** Queries that go alone (functions), not asked yet. */
  private alone: number[] = [];
  private listed = false;

  /** The slot of a query used by plan `planIndex` (added, and held for asking, when new). */
  use(target: string, fromMinutes: number, maxDataPoints: number | undefined, planIndex: number): number {
    const rangeKey = maxDataPoints === undefined ? fromMinutes : `${fromMinutes}/${maxDataPoints}`;
    let byTarget = this.slots.get(rangeKey);
    if (byTarget === undefined) this.slots.set(rangeKey, (byTarget = new Map()));
    let slot = byTarget.get(target);
    if (slot === undefined) {
      slot = this.queries.push(maxDataPoints === undefined ? { target, fromMinutes } : { target, fromMinutes, maxDataPoints }) - 1;
      byTarget.set(target, slot);
      this.waiting.push([planIndex]);
      this.unjudged.push(1);
      if (isBatchableTarget(target)) {
        const held = this.held.get(rangeKey);
        if (held) held.push(slot);
        else this.held.set(rangeKey, [slot]);
      } else this.alone.push(slot);
      return slot;
    }
    this.unjudged[slot]! += 1;
    this.waiting[slot]?.push(planIndex);
    return slot;
  }

  /** Whether the query's answer is in (a plan then counts it as already answered). */
  answered(slot: number): boolean {
    return this.waiting[slot] === null;
  }

  /** Stores an answer; answers the plans that waited for it (one entry per use). */
  answer(slot: number, result: RenderResult): readonly number[] {
    this.results[slot] = result;
    const waiting = this.waiting[slot] ?? [];
    this.waiting[slot] = null;
    return waiting;
  }

  /** One use of the query was judged: once the listing is over and no use is left, its answer is dropped. */
  release(slot: number): void {
    if ((this.unjudged[slot]! -= 1) === 0 && this.listed) this.results[slot] = undefined;
  }

  /**
   * The slots to ask now: whole batches of each range, and every query that goes alone; with `all` (the listing is
   * over), everything held. Ranges in the order they first came, so the first requests leave with the first page.
   */
  take(all: boolean): number[] {
    const slots = this.alone;
    this.alone = [];
    for (const [rangeKey, held] of this.held) {
      const count = all ? held.length : held.length - (held.length % RENDER_BATCH);
      if (count === 0) continue;
      for (let i = 0; i < count; i += 1) slots.push(held[i]!);
      if (count === held.length) this.held.delete(rangeKey);
      else held.splice(0, count);
    }
    return slots;
  }

  /** The listing is over: no later page can use an answer any more, so those fully used are dropped now. */
  endListing(): void {
    this.listed = true;
    this.slots.clear();
    for (let slot = 0; slot < this.results.length; slot += 1) if (this.unjudged[slot] === 0) this.results[slot] = undefined;
  }
}
