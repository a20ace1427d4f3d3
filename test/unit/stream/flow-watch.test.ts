import { describe, expect, it } from 'vitest';
import { FlowWatch } from '../../../src/stream/flow-watch.js';

const T0 = 1_800_000_000_000;

/** Feeds `perSlot` points into every 10 s slot from `from` (ms) for `seconds`. */
function feed(watch: FlowWatch, from: number, seconds: number, perSlot: number): number {
  for (let t = from; t < from + seconds * 1000; t += 10_000) watch.count(perSlot, t);
  return from + seconds * 1000;
}

describe('the flow watch', () => {
  it('sees no drop while the flow is steady, nor before it has a baseline of three minutes', () => {
    const watch = new FlowWatch();
    let t = feed(watch, T0, 120, 100);
    expect(watch.check(t).dropped).toBe(false);
    expect(watch.check(t).baselinePerMinute).toBeNull();
    t = feed(watch, t, 600, 100);
    const state = watch.check(t);
    expect(state).toMatchObject({ dropped: false, perMinute: 600, baselinePerMinute: 600 });
  });

  it('sees half the flow vanish at once as a drop, keeps it while low, and ends it when the flow is back', () => {
    const watch = new FlowWatch();
    let t = feed(watch, T0, 600, 100);
    t = feed(watch, t, 30, 50);
    // Half a minute at half the flow: the last minute is down 25 %, under the 30 % share.
    expect(watch.check(t).dropped).toBe(false);
    t = feed(watch, t, 30, 50);
    const dropped = watch.check(t);
    expect(dropped).toMatchObject({ dropped: true, perMinute: 300, baselinePerMinute: 600 });
    const since = dropped.since;
    // Five minutes at half the flow: still a drop (the baseline is the one before it, not the low minutes).
    t = feed(watch, t, 300, 50);
    expect(watch.check(t)).toMatchObject({ dropped: true, since });
    t = feed(watch, t, 60, 100);
    expect(watch.check(t).dropped).toBe(false);
  });

  it('takes a drop that lasts past the longest drop as the new normal', () => {
    const watch = new FlowWatch({ maxDropMs: 120_000 });
    let t = feed(watch, T0, 600, 100);
    t = feed(watch, t, 60, 10);
    expect(watch.check(t).dropped).toBe(true);
    t = feed(watch, t, 120, 10);
    expect(watch.check(t).dropped).toBe(false);
  });

  it('judges no drop on a thin flow (a few series), where a quiet minute is normal', () => {
    const watch = new FlowWatch();
    let t = feed(watch, T0, 600, 5);
    t = feed(watch, t, 60, 0);
    expect(watch.check(t).dropped).toBe(false);
  });

  it('sees the whole flow stopping (no counts at all) as a drop', () => {
    const watch = new FlowWatch();
    const t = feed(watch, T0, 600, 100);
    expect(watch.check(t + 60_000)).toMatchObject({ dropped: true, perMinute: 0 });
  });
});
