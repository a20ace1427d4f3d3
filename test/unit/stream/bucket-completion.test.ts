import { describe, expect, it } from 'vitest';
import { BucketCompletion, bucketStart } from '../../../src/stream/bucket-completion.js';

/** A bucket start well away from zero. */
const B = 1_800_000_000 - (1_800_000_000 % 30);

describe('bucket completion of one series', () => {
  it('completes a 10 s series bucket at its last point (+20 s), not before', () => {
    const c = new BucketCompletion({ maxSeries: 10 });
    c.learn('a', 10, B - 10);
    expect(c.seriesCompleteUntil('a')).toBe(B);
    expect(c.observe('a', B)).toBe(false);
    expect(c.seriesCompleteUntil('a')).toBe(B);
    expect(c.observe('a', B + 10)).toBe(false);
    expect(c.observe('a', B + 20)).toBe(true);
    expect(c.seriesCompleteUntil('a')).toBe(B + 30);
  });

  it('completes a bucket when a point of a later bucket arrives, even if its last point never did', () => {
    const c = new BucketCompletion({ maxSeries: 10 });
    c.learn('a', 10, B - 10);
    c.observe('a', B);
    expect(c.observe('a', B + 30)).toBe(true);
    expect(c.seriesCompleteUntil('a')).toBe(B + 30);
  });

  it('learns the step from the points when there is no history, and until then waits for a later bucket', () => {
    const c = new BucketCompletion({ maxSeries: 10 });
    c.observe('a', B + 20);
    // One point: the step is unknown, so its own bucket is not known to be complete.
    expect(c.seriesCompleteUntil('a')).toBe(B);
    expect(c.stepOf('a')).toBeNull();
    c.observe('a', B + 30);
    expect(c.stepOf('a')).toBe(10);
    expect(c.seriesCompleteUntil('a')).toBe(B + 30);
    expect(c.observe('a', B + 50)).toBe(true);
    expect(c.seriesCompleteUntil('a')).toBe(B + 60);
  });

  it('counts a point of a 60 s series as complete for its whole interval', () => {
    const c = new BucketCompletion({ maxSeries: 10 });
    c.learn('m', 60, B - 60);
    expect(c.seriesCompleteUntil('m')).toBe(B);
    expect(c.observe('m', B)).toBe(true);
    expect(c.seriesCompleteUntil('m')).toBe(B + 60);
  });

  it('handles steps that do not divide 30 s and timestamps off the grid', () => {
    const c = new BucketCompletion({ maxSeries: 10 });
    c.learn('t', 20, B - 20);
    c.observe('t', B);
    expect(c.seriesCompleteUntil('t')).toBe(B);
    c.observe('t', B + 20);
    expect(c.seriesCompleteUntil('t')).toBe(B + 30);
    const j = new BucketCompletion({ maxSeries: 10 });
    j.learn('j', 10, B - 7);
    j.observe('j', B + 3);
    j.observe('j', B + 13);
    expect(j.seriesCompleteUntil('j')).toBe(B);
    j.observe('j', B + 23);
    expect(j.seriesCompleteUntil('j')).toBe(B + 30);
  });

  it('ignores a point older than the newest (a late duplicate changes no completion)', () => {
    const c = new BucketCompletion({ maxSeries: 10 });
    c.learn('a', 10, B + 20);
    expect(c.observe('a', B + 10)).toBe(false);
    expect(c.seriesCompleteUntil('a')).toBe(B + 30);
    expect(c.lastPoint('a')).toBe(B + 20);
  });

  it('is bounded: the oldest series goes first', () => {
    const c = new BucketCompletion({ maxSeries: 2 });
    c.observe('a', B);
    c.observe('b', B);
    c.observe('c', B);
    expect(c.size()).toBe(2);
    expect(c.lastPoint('a')).toBeNull();
    expect(c.lastPoint('c')).toBe(B);
  });
});

describe('bucket completion of an aggregate', () => {
  const members = Array.from({ length: 10 }, (_, i) => `sum.s${i}`);
  const SETTLE = 60;

  function warm(): BucketCompletion {
    const c = new BucketCompletion({ maxSeries: 100 });
    for (const path of members) c.learn(path, 10, B - 10);
    return c;
  }

  it('is complete only when every member has reported the bucket (late collectors hold it)', () => {
    const c = warm();
    for (const path of members) c.observe(path, B);
    for (const path of members) c.observe(path, B + 10);
    for (const path of members.slice(0, 5)) c.observe(path, B + 20);
    expect(c.completeUntil(members, B + 22, SETTLE)).toBe(B);
    for (const path of members.slice(5)) c.observe(path, B + 20);
    expect(c.completeUntil(members, B + 25, SETTLE)).toBe(B + 30);
  });

  it('waits for a late member until the settle delay has passed, then excuses it', () => {
    const c = warm();
    for (const path of members.slice(1)) for (const k of [0, 10, 20, 30]) c.observe(path, B + k);
    // s0 reported nothing since B - 10. Within the settle delay after B + 30, it holds the bucket B.
    expect(c.completeUntil(members, B + 31, SETTLE)).toBe(B);
    expect(c.completeUntil(members, B + 30 + SETTLE - 1, SETTLE)).toBe(B);
    // Past it, s0 no longer holds anything back: the others' completion counts.
    expect(c.completeUntil(members, B + 30 + SETTLE, SETTLE)).toBe(B + 30);
  });

  it('never lets a dead member hold the alert: its completion ends at the settle cutoff, never later', () => {
    const c = warm();
    // Every member but s0 keeps reporting for ten minutes.
    for (let t = B; t < B + 600; t += 10) for (const path of members.slice(1)) c.observe(path, t);
    expect(c.completeUntil(members, B + 600, SETTLE)).toBe(B + 600);
    expect(c.completeUntil(members, B + 605, SETTLE)).toBe(B + 600);
  });

  it('falls back to the settle cutoff when no member is known or all are silent', () => {
    const c = new BucketCompletion({ maxSeries: 10 });
    expect(c.completeUntil(['x', 'y'], B + 95, SETTLE)).toBe(bucketStart(B + 95 - SETTLE));
    c.learn('x', 10, B - 300);
    expect(c.completeUntil(['x'], B + 95, SETTLE)).toBe(B + 30);
  });

  it('never reaches past the end of the current bucket, whatever timestamps a clock running ahead sends', () => {
    const c = new BucketCompletion({ maxSeries: 10 });
    c.learn('a', 10, B + 3_600);
    expect(c.completeUntil(['a'], B + 5, SETTLE)).toBe(B + 30);
  });

  it('a member that comes back late by less than the settle delay is waited for again', () => {
    const c = warm();
    for (const path of members) c.observe(path, B);
    // s0 is silent for 20 s (inside the delay): the aggregate waits for its +10 and +20 points.
    for (const path of members.slice(1)) for (const k of [10, 20]) c.observe(path, B + k);
    expect(c.completeUntil(members, B + 40, SETTLE)).toBe(B);
    c.observe('sum.s0', B + 10);
    expect(c.completeUntil(members, B + 41, SETTLE)).toBe(B);
    c.observe('sum.s0', B + 20);
    expect(c.completeUntil(members, B + 42, SETTLE)).toBe(B + 30);
  });
});
