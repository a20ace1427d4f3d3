import { describe, expect, it } from 'vitest';
import { SeriesRings } from '../../../src/stream/series-rings.js';
import { StreamIngest } from '../../../src/stream/stream-ingest.js';

describe('the series rings', () => {
  it('keeps points in time order, late ones in their place, the last write of a time winning', () => {
    const rings = new SeriesRings({ maxSeries: 10, maxPointsPerSeries: 100 });
    for (const [time, value] of [[10, 1], [30, 3], [20, 2], [30, 33], [40, 4], [5, 0.5]] as const) rings.append('a', time, value);
    expect(rings.read('a', 0, 100)).toEqual([[0.5, 5], [1, 10], [2, 20], [33, 30], [4, 40]]);
    expect(rings.read('a', 10, 30)).toEqual([[2, 20], [33, 30]]);
    // As whisper answers with a step: aligned intervals in (from, until], null where nothing came.
    expect(rings.read('a', 0, 60, 10)).toEqual([[1, 10], [2, 20], [33, 30], [4, 40], [null, 50], [null, 60]]);
    expect(rings.read('missing', 0, 20, 10)).toEqual([[null, 10], [null, 20]]);
  });

  it('trims to the retention and to the point bound, and refuses series past the series bound', () => {
    const rings = new SeriesRings({ maxSeries: 2, maxPointsPerSeries: 8 });
    rings.setRetention('a', 100);
    for (let t = 0; t <= 1000; t += 10) rings.append('a', t, t);
    expect(rings.read('a', -1, 2000).map(([, t]) => t)).toEqual([930, 940, 950, 960, 970, 980, 990, 1000]);
    rings.setRetention('a', 30);
    expect(rings.read('a', -1, 2000).map(([, t]) => t)).toEqual([970, 980, 990, 1000]);
    expect(rings.append('a', 900, 1)).toBe(false);
    expect(rings.append('b', 1, 1)).toBe(true);
    expect(rings.append('c', 1, 1)).toBe(false);
    expect(rings.stats()).toMatchObject({ series: 2, points: 5, refusedSeries: 1 });
    rings.forget('a');
    expect(rings.stats()).toMatchObject({ series: 1, points: 1 });
  });

  it('drops the points past the retention as newer ones come into a ring with room, around its end many times', () => {
    const rings = new SeriesRings({ maxSeries: 1, maxPointsPerSeries: 1000 });
    rings.setRetention('a', 30);
    const kept: [number, number][] = [];
    for (let t = 0; t <= 2000; t += 10) {
      // A late point now and then (the general path) between the newer ones (the common one).
      const time = t % 70 === 0 && t > 0 ? t - 15 : t;
      rings.append('a', time, time);
      kept.push([time, time]);
      const newest = Math.max(...kept.map(([at]) => at));
      const expected = kept.filter(([at]) => at >= newest - 30).sort((x, y) => x[0] - y[0]);
      expect(rings.read('a', -1, 10_000), `after ${time}`).toEqual(expected.map(([at, value]) => [value, at]));
      expect(rings.stats().points).toBe(expected.length);
    }
  });

  it('accounts its bytes as the rings grow and go', () => {
    const rings = new SeriesRings({ maxSeries: 10, maxPointsPerSeries: 64 });
    for (let t = 1; t <= 64; t += 1) rings.append('a.b', t, t);
    const { bytes } = rings.stats();
    expect(bytes).toBeGreaterThanOrEqual(64 * 12);
    rings.forget('a.b');
    expect(rings.stats().bytes).toBe(0);
  });
});

describe('the stream ingest', () => {
  it('keeps matched points for the longest window of their subscribers, tells listeners, and sweeps what nobody reads', () => {
    const ingest = new StreamIngest<string>({ cacheSize: 100, maxSeries: 100, maxPointsPerSeries: 1000 });
    ingest.subscribe('short', ['web.*.cpu'], null, 60);
    ingest.subscribe('long', ['web.1.cpu'], null, 600);
    const heard: string[] = [];
    ingest.onMatched((matched) => heard.push(...matched.map(({ point, subscribers }) => `${point.path}:${[...subscribers].sort().join('+')}`)));
    expect(ingest.accept([
      { path: 'web.1.cpu', value: 1, timestamp: 1000 },
      { path: 'web.2.cpu', value: 2, timestamp: 1000 },
      { path: 'db.1.cpu', value: 3, timestamp: 1000 },
    ])).toBe(2);
    expect(heard).toEqual(['web.1.cpu:long+short', 'web.2.cpu:short']);
    expect(ingest.rings.retentionOf('web.1.cpu')).toBe(600);
    expect(ingest.rings.retentionOf('web.2.cpu')).toBe(60);
    expect(ingest.rings.has('db.1.cpu')).toBe(false);
    expect({ received: ingest.received, matched: ingest.matched }).toEqual({ received: 3, matched: 2 });
    ingest.unsubscribe('short');
    expect(ingest.sweep(1000)).toBe(1);
    expect(ingest.rings.has('web.1.cpu')).toBe(true);
    expect(ingest.sweep(1000 + 601)).toBe(1);
  });

  it('subscribes nothing of a subscriber whose glob is malformed', () => {
    const ingest = new StreamIngest<string>({ cacheSize: 10, maxSeries: 10, maxPointsPerSeries: 10 });
    expect(() => ingest.subscribe('a', ['ok.path', 'bad.{x'], null, 60)).toThrow();
    expect(ingest.accept([{ path: 'ok.path', value: 1, timestamp: 1 }])).toBe(0);
  });
});
