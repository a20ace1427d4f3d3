import { describe, expect, it } from 'vitest';
import { evaluate, series, valuesOf } from './series-fixture.js';

// Points at 1010..1050 (a range (1000, 1050] reads five 10 s slots).
const range = { from: 1000, until: 1050 };
const web = [
  series('web.a.req', 1010, 10, [1, 2, null, 4, 5]),
  series('web.b.req', 1010, 10, [10, null, null, 40, 0.5]),
  series('web.c.req', 1010, 10, [100, 200, null, null, null]),
];

describe('combine: sumSeries, averageSeries, minSeries, maxSeries, diffSeries, countSeries, divideSeries', () => {
  it('names an aggregate by its path expressions and skips nulls; a row of nulls is null', () => {
    expect(evaluate('sumSeries(web.*.req)', web, range)).toEqual([
      { target: 'sumSeries(web.*.req)', datapoints: [[111, 1010], [202, 1020], [null, 1030], [44, 1040], [5.5, 1050]] },
    ]);
    expect(valuesOf(evaluate('sum(web.a.req, web.{b,c}.req)', web, range))).toEqual({ 'sumSeries(web.a.req,web.{b,c}.req)': [111, 202, null, 44, 5.5] });
    expect(valuesOf(evaluate('averageSeries(web.*.req)', web, range))).toEqual({ 'averageSeries(web.*.req)': [37, 101, null, 22, 2.75] });
    expect(valuesOf(evaluate('avg(web.a.req)', web, range))).toEqual({ 'averageSeries(web.a.req)': [1, 2, null, 4, 5] });
    expect(valuesOf(evaluate('minSeries(web.*.req)', web, range))).toEqual({ 'minSeries(web.*.req)': [1, 2, null, 4, 0.5] });
    expect(valuesOf(evaluate('maxSeries(web.*.req)', web, range))).toEqual({ 'maxSeries(web.*.req)': [100, 200, null, 40, 5] });
    // The first present value minus the others present.
    expect(valuesOf(evaluate('diffSeries(web.b.req, web.a.req)', web, range))).toEqual({ 'diffSeries(web.b.req,web.a.req)': [9, 2, null, 36, -4.5] });
  });

  it('counts series, nulls included, and answers no series for a path that matches none', () => {
    expect(valuesOf(evaluate('countSeries(web.*.req)', web, range))).toEqual({ 'countSeries(web.*.req)': [3, 3, 3, 3, 3] });
    expect(evaluate('sumSeries(nothing.*)', web, range)).toEqual([]);
  });

  it('consolidates series of different steps to their least common multiple, lined up from the earliest start', () => {
    const mixed = [series('m.fine', 1010, 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), series('m.coarse', 1020, 30, [100, 200, 300, 400])];
    // (1000, 1120]: fine has 1010..1120 (12 slots), coarse 1020..1110 (4): step 30, from 1010, fine averaged by three.
    expect(evaluate('sumSeries(m.*)', mixed, { from: 1000, until: 1120 })).toEqual([
      { target: 'sumSeries(m.*)', datapoints: [[102, 1010], [205, 1040], [308, 1070], [411, 1100]] },
    ]);
  });

  it('divides each dividend by the one divisor (null for a zero or null divisor), or answers MISSING', () => {
    const both = [...web, series('tot', 1010, 10, [10, 0, 10, null, 10])];
    expect(valuesOf(evaluate('divideSeries(web.{a,b}.req, tot)', both, range))).toEqual({
      'divideSeries(web.a.req,tot)': [0.1, null, null, null, 0.5],
      'divideSeries(web.b.req,tot)': [1, null, null, null, 0.05],
    });
    expect(valuesOf(evaluate('divideSeries(web.a.req, nothing)', both, range))).toEqual({ 'divideSeries(web.a.req,MISSING)': [null, null, null, null, null] });
    expect(() => evaluate('divideSeries(web.a.req, web.*.req)', both, range)).toThrow(/HTTP 400/);
  });
});
