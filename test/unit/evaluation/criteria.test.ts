import { describe, expect, it } from 'vitest';
import { bucketDatapoints } from '../../../src/evaluation/buckets.js';
import { historyQueryRange, judgeMissing, judgeSeries, queryRangeMinutes } from '../../../src/evaluation/criteria.js';
import type { AlertCriteria } from '../../../src/model/types.js';

const NOW = 1_700_000_010; // the start of a 30 s bucket

/** Datapoints every `step` seconds, the last one at NOW. */
function points(values: (number | null)[], step = 30) {
  const start = NOW - (values.length - 1) * step;
  return bucketDatapoints(values.map((value, i) => [value, start + i * step] as [number | null, number]));
}

const above = (above_value: number, time_period?: number): AlertCriteria => ({ type: 'above', above_value, ...(time_period ? { time_period } : {}) });

describe('30 s buckets', () => {
  it('averages finer data into 30 s buckets and leaves nulls out of the average', () => {
    const buckets = bucketDatapoints([
      [1, NOW],
      [null, NOW + 10],
      [3, NOW + 20],
      [10, NOW + 30],
    ]);
    expect(buckets).toEqual([
      { time: NOW, value: 2, step: 30, high: 3, low: 1, last: 3 },
      { time: NOW + 30, value: 10, step: 30, high: 10, low: 10, last: 10 },
    ]);
  });

  it('keeps coarser data as it is and drops null points', () => {
    expect(bucketDatapoints([[5, 1_700_000_040], [null, 1_700_000_100], [7, 1_700_000_160]])).toEqual([
      { time: 1_700_000_040, value: 5, step: 60, high: 5, low: 5, last: 5 },
      { time: 1_700_000_160, value: 7, step: 60, high: 7, low: 7, last: 7 },
    ]);
  });

  it('gives the same buckets for points out of time order as for the same points in order', () => {
    const ordered: [number | null, number][] = [[1, NOW], [null, NOW + 10], [3, NOW + 20], [10, NOW + 30], [4, NOW + 40], [null, NOW + 60], [7, NOW + 70]];
    const shuffled = [ordered[3]!, ordered[4]!, ordered[0]!, ordered[1]!, ordered[2]!, ordered[6]!, ordered[5]!];
    expect(bucketDatapoints(shuffled)).toEqual(bucketDatapoints(ordered));
    expect(bucketDatapoints(ordered)).toEqual([
      { time: NOW, value: 2, step: 30, high: 3, low: 1, last: 3 },
      { time: NOW + 30, value: 7, step: 30, high: 10, low: 4, last: 4 },
      { time: NOW + 60, value: 7, step: 30, high: 7, low: 7, last: 7 },
    ]);
  });

  it('turns a bucket of only nulls into no point at all', () => {
    expect(bucketDatapoints([[null, 1_700_000_000], [null, 1_700_000_010]])).toEqual([]);
  });
});

describe('criteria on one series', () => {
  it('above without a time period looks at the latest non-null point only', () => {
    expect(judgeSeries(above(90), points([10, 10, 10, 95, 95, 95]), NOW)).toEqual({ state: 'holds', value: 95 });
    expect(judgeSeries(above(90), points([95, 95, 95, 10, 10, 10]), NOW)).toEqual({ state: 'clear', value: 10 });
    expect(judgeSeries(above(90), points([10, 10, 10, 95, 95, 95, null, null]), NOW)).toEqual({ state: 'holds', value: 95 });
  });

  it('above with a time period needs every point in the window above the value', () => {
    const rising = points([50, 50, 50, 50, 95, 95, 95, 95]); // 2 minutes of 30 s data above 90
    expect(judgeSeries(above(90, 1), rising, NOW).state).toBe('holds');
    expect(judgeSeries(above(90, 2), rising, NOW)).toEqual({ state: 'holds', value: 95 });
    expect(judgeSeries(above(90, 3), rising, NOW)).toEqual({ state: 'clear', value: 95 });
  });

  it('is not fooled by a value equal to the threshold', () => {
    expect(judgeSeries(above(90), points([90, 90, 90]), NOW).state).toBe('clear');
    expect(judgeSeries({ type: 'below', below_value: 5 }, points([5, 5, 5]), NOW).state).toBe('clear');
  });

  it('below and outside_bounds judge every point of the window', () => {
    expect(judgeSeries({ type: 'below', below_value: 5, time_period: 1 }, points([1, 2, 3, 4, 1, 2]), NOW)).toEqual({ state: 'holds', value: 1 });
    const bounds: AlertCriteria = { type: 'outside_bounds', below_value: 10, above_value: 20, time_period: 1 };
    expect(judgeSeries(bounds, points([1, 1, 1, 30, 30, 30]), NOW)).toEqual({ state: 'holds', value: 30 });
    expect(judgeSeries(bounds, points([1, 1, 1, 15, 15, 15]), NOW)).toEqual({ state: 'clear', value: 15 });
  });

  it('records a breach with the worst value Graphite returned in the window, never a bucket mean', () => {
    // 10 s data: a spike to 500 beside 50 is a bucket of mean 275; what Graphite held, and what is recorded, is 500.
    const spike = bucketDatapoints([[50, NOW], [500, NOW + 10], [null, NOW + 20]]);
    expect(spike[0]!.value).toBe(275);
    expect(judgeSeries(above(100), spike, NOW + 29)).toEqual({ state: 'holds', value: 500 });
    const dips = bucketDatapoints([[4, NOW - 30], [1, NOW - 20], [3, NOW], [2, NOW + 10]]);
    expect(judgeSeries({ type: 'below', below_value: 5, time_period: 1 }, dips, NOW + 29)).toEqual({ state: 'holds', value: 1 });
    const bounds: AlertCriteria = { type: 'outside_bounds', below_value: 10, above_value: 20 };
    // A bucket of mean 9.7: 2 is 8 below the lower bound, 24 is 4 above the upper one; 2 is the worst.
    expect(judgeSeries(bounds, bucketDatapoints([[2, NOW], [3, NOW + 10], [24, NOW + 20]]), NOW + 29)).toEqual({ state: 'holds', value: 2 });
    // A clear series reports its latest value as returned, not a mean.
    expect(judgeSeries(above(100), bucketDatapoints([[10, NOW], [30, NOW + 10]]), NOW + 29)).toEqual({ state: 'clear', value: 30 });
  });

  it('never triggers nor resolves on nulls: a window of nulls says nothing', () => {
    expect(judgeSeries(above(90, 1), points([95, 95, 95, null, null, null]), NOW)).toEqual({ state: 'unknown' });
    expect(judgeSeries(above(90), points([null, null]), NOW)).toEqual({ state: 'unknown' });
  });

  it('ignores nulls inside the window: a gap does not break a breach', () => {
    expect(judgeSeries(above(90, 2), points([10, 95, null, 95, 96]), NOW)).toEqual({ state: 'holds', value: 96 });
  });

  it('uses coarse (60 s) data as it is within the window', () => {
    expect(judgeSeries(above(90, 3), points([10, 95, 95, 95], 60), NOW).state).toBe('holds');
    expect(judgeSeries(above(90, 4), points([10, 95, 95, 95], 60), NOW).state).toBe('clear');
    expect(judgeSeries(above(90, 1), points([10, 95], 300), NOW).state).toBe('holds');
  });

  it('missing holds when a series that had data has none in the window', () => {
    const missing: AlertCriteria = { type: 'missing', time_period: 5 };
    const stopped = points([1, 2, 3, ...Array<null>(12).fill(null)]); // data 6 minutes ago, nothing since
    expect(judgeSeries(missing, stopped, NOW)).toEqual({ state: 'holds', value: null });
    expect(judgeSeries(missing, points([1, 2, 3, ...Array<null>(8).fill(null)]), NOW)).toEqual({ state: 'clear', value: 3 });
    expect(judgeSeries(missing, points([null, null, null]), NOW)).toEqual({ state: 'unknown' });
  });

  it('fetches the window with a minute of slack, and 24 h of coarse points for missing', () => {
    expect(queryRangeMinutes({ type: 'missing', time_period: 5 })).toBe(6);
    expect(historyQueryRange({ type: 'missing', time_period: 5 })).toEqual({ fromMinutes: 5 + 1440, maxDataPoints: 48 });
    expect(historyQueryRange(above(1, 5))).toBeNull();
    expect(queryRangeMinutes(above(1, 5))).toBe(6);
    expect(queryRangeMinutes(above(1))).toBe(11);
  });

  it('missing uses the 24 h history query to know that a silent series had data', () => {
    const missing: AlertCriteria = { type: 'missing', time_period: 5 };
    const silentWindow: [number | null, number][] = [[null, NOW - 240], [null, NOW - 120], [null, NOW]];
    const history: [number | null, number][] = [[3, NOW - 7200], [null, NOW - 1800], [null, NOW]];
    expect(judgeMissing(missing, silentWindow, history, NOW).verdict).toEqual({ state: 'holds', value: null });
    expect(judgeMissing(missing, silentWindow, [[null, NOW - 7200]], NOW).verdict).toEqual({ state: 'unknown' });
    expect(judgeMissing(missing, [[null, NOW - 240], [4, NOW - 60]], history, NOW).verdict).toEqual({ state: 'clear', value: 4 });
  });
});
