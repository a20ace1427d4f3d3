import { describe, expect, it } from 'vitest';
import { evaluate, series, valuesOf } from './series-fixture.js';

const range = { from: 1000, until: 1030 };
const all = [
  series('h1.used', 1010, 10, [1, 2, null]),
  series('h2.used', 1010, 10, [3, 6, 5]),
  series('h1.total', 1010, 10, [4, 8, 10]),
  series('h2.total', 1010, 10, [6, 0, 20]),
  series('h3.total', 1010, 10, [1, 1, 1]),
];

describe('asPercent in each form', () => {
  it('of the sum of the list, of a number (its Python text in the name), of one series', () => {
    expect(valuesOf(evaluate('asPercent(*.used)', all, range))).toEqual({
      'asPercent(h1.used,sumSeries(*.used))': [25, 25, null],
      'asPercent(h2.used,sumSeries(*.used))': [75, 75, 100],
    });
    expect(Object.keys(valuesOf(evaluate('asPercent(h1.used, 1.5e3)', all, range)))).toEqual(['asPercent(h1.used,1500.0)']);
    expect(valuesOf(evaluate('pct(h1.used, 8)', all, range))).toEqual({ 'asPercent(h1.used,8)': [12.5, 25, null] });
    expect(valuesOf(evaluate('asPercent(*.used, h1.total)', all, range))).toEqual({
      'asPercent(h1.used,h1.total)': [25, 25, null],
      'asPercent(h2.used,h1.total)': [75, 75, 50],
    });
  });

  it('of as many totals, paired by sorted name; with nodes, grouped, MISSING where a side has no partner', () => {
    expect(valuesOf(evaluate('asPercent(*.used, h{1,2}.total)', all, range))).toEqual({
      'asPercent(h1.used,h1.total)': [25, 25, null],
      'asPercent(h2.used,h2.total)': [50, null, 25],
    });
    expect(valuesOf(evaluate('asPercent(*.used, *.total, 0)', all, range))).toEqual({
      'asPercent(h1.used,h1.total)': [25, 25, null],
      'asPercent(h2.used,h2.total)': [50, null, 25],
      'asPercent(MISSING,h3.total)': [null, null, null],
    });
  });

  it('fails where graphite-web answers 400: a number total with nodes, a total list of another length', () => {
    expect(() => evaluate('asPercent(*.used, 100, 0)', all, range)).toThrow(/HTTP 400/);
    expect(() => evaluate('asPercent(*.used, *.total)', all, range)).toThrow(/HTTP 400/);
  });
});
