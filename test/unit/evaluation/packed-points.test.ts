import { describe, expect, it } from 'vitest';
import { bucketDatapoints } from '../../../src/evaluation/buckets.js';
import { judgeMissing } from '../../../src/evaluation/criteria.js';
import { bucketSeries, judgeMissingSeries } from '../../../src/evaluation/packed-points.js';
import { parseRenderJson } from '../../../src/graphite/render-json.js';
import type { RenderSeries } from '../../../src/graphite/types.js';

const NOW = 1_700_000_000;

/** A seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** Series of every kind a cycle meets: steps finer and coarser than 30 s, nulls, gaps, out of order, repeated times. */
function randomSeries(next: () => number, count: number): [number | null, number][][] {
  return Array.from({ length: count }, () => {
    const step = [1, 10, 15, 30, 60, 1800][Math.floor(next() * 6)]!;
    const length = Math.floor(next() * 40);
    const points: [number | null, number][] = [];
    for (let k = 0; k < length; k += 1) {
      const value = next() < 0.3 ? null : Math.round((next() * 200 - 50) * 1000) / 1000;
      points.push([value, NOW - (length - k) * step + (next() < 0.1 ? Math.floor(next() * 3) * step : 0)]);
    }
    if (next() < 0.1) points.reverse();
    return points;
  });
}

/** The same series as the render client reads them (packed) and as JSON.parse made them (pairs). */
function bothWays(pairs: [number | null, number][][]): { packed: RenderSeries[]; plain: RenderSeries[] } {
  const plain = pairs.map((datapoints, i) => ({ target: `s${i}`, datapoints }));
  const packed = parseRenderJson(JSON.stringify(plain));
  expect(packed.every((one) => one.packed !== undefined)).toBe(true);
  return { packed, plain };
}

describe('judging packed series', () => {
  it('buckets packed points exactly as bucketDatapoints buckets the pairs', () => {
    const { packed, plain } = bothWays(randomSeries(random(7), 2_000));
    packed.forEach((one, i) => expect(bucketSeries(one), JSON.stringify(plain[i])).toEqual(bucketDatapoints(plain[i]!.datapoints)));
  });

  it('judges missing data on packed points exactly as judgeMissing does on the pairs, with and without history', () => {
    const next = random(11);
    const windows = bothWays(randomSeries(next, 1_000));
    const histories = bothWays(randomSeries(next, 1_000));
    for (let i = 0; i < 1_000; i += 1) {
      const criteria = { type: 'missing' as const, time_period: 1 + Math.floor(next() * 10) };
      const window = windows.packed[i]!;
      const history = histories.packed[i]!;
      const pairs = { window: windows.plain[i]!.datapoints, history: histories.plain[i]!.datapoints };
      expect(judgeMissingSeries(criteria, window, history, NOW)).toEqual(judgeMissing(criteria, pairs.window, pairs.history, NOW));
      expect(judgeMissingSeries(criteria, window, undefined, NOW)).toEqual(judgeMissing(criteria, pairs.window, undefined, NOW));
      expect(judgeMissingSeries(criteria, window, null, NOW)).toEqual(judgeMissing(criteria, pairs.window, [], NOW));
      expect(judgeMissingSeries(criteria, null, history, NOW)).toEqual(judgeMissing(criteria, [], pairs.history, NOW));
      // A series JSON.parse read (another shape of answer) is judged from its pairs.
      expect(judgeMissingSeries(criteria, windows.plain[i]!, history, NOW)).toEqual(judgeMissing(criteria, pairs.window, pairs.history, NOW));
    }
  });
});
