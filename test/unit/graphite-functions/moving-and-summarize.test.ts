import { describe, expect, it } from 'vitest';
import { lookbackSecondsOf } from '../../../src/graphite-functions/index.js';
import { evaluate, series, valuesOf } from './series-fixture.js';

const points = series('m', 1000, 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, null, null, null]);

describe('movingAverage and summarize', () => {
  it('averages the window before each point, reading history before from', () => {
    // (1030, 1110]: points 1040..1110; a 3-point window needs 1010..1030 too.
    expect(evaluate('movingAverage(m, 3)', [points], { from: 1030, until: 1110 })).toEqual([
      {
        target: 'movingAverage(m,3)',
        datapoints: [[3, 1040], [4, 1050], [5, 1060], [6, 1070], [7, 1080], [8, 1090], [8.5, 1100], [9, 1110]],
      },
    ]);
    expect(valuesOf(evaluate("movingAverage(m, '20s')", [points], { from: 1030, until: 1060 }))).toEqual({ 'movingAverage(m,"20s")': [3.5, 4.5, 5.5] });
    expect(valuesOf(evaluate('movingAverage(m, 3, 0.5)', [points], { from: 1090, until: 1110 }))).toEqual({ 'movingAverage(m,3)': [8.5, null] });
  });

  it('tells the caller how much history to supply, windows of nested calls added', () => {
    expect(lookbackSecondsOf('movingAverage(m, 3)', 10)).toBe(30);
    expect(lookbackSecondsOf("sumSeries(movingAverage(movingAverage(m, '1min'), 2), n)", 60)).toBe(180);
    expect(lookbackSecondsOf('m | movingAverage(5)', 10)).toBe(50);
    expect(lookbackSecondsOf('sumSeries(m)', 10)).toBe(0);
  });

  it('summarizes into buckets aligned to the interval, or to from', () => {
    // (995, 1115]: 1000..1110; 30 s buckets from 990.
    expect(evaluate("summarize(m, '30s')", [points], { from: 995, until: 1110 })).toEqual([
      { target: 'summarize(m, "30s", "sum")', datapoints: [[3, 990], [12, 1020], [21, 1050], [9, 1080], [null, 1110]] },
    ]);
    expect(valuesOf(evaluate("summarize(m, '30s', 'max', true)", [points], { from: 995, until: 1110 }))).toEqual({ 'summarize(m, "30s", "max", true)': [3, 6, 9, null] });
  });
});
