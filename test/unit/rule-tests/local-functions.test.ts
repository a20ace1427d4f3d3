import { describe, expect, it } from 'vitest';
import { evaluateTestQuery } from '../../../src/rule-tests/local-functions.js';
import type { RuleTestCase } from '../../../src/rule-tests/read-rule-tests.js';

const at = { file: 'alerts.test.yaml', line: 1, column: 1 };
function testCase(start: number, interval: number, series: RuleTestCase['series']): RuleTestCase {
  return { name: 't', alert: 'a', location: at, alertLocation: at, interval, start, series, expect: [] };
}

describe('a rule test\'s function query, evaluated locally', () => {
  it('keeps every input point at its own time, even when the start is not a multiple of the interval', () => {
    const start = 1_700_000_007; // 7 s past a minute
    const test = testCase(start, 60, [
      { name: 'shop.web1.errors', values: [1, 2, null, 4] },
      { name: 'shop.web2.errors', values: [10, null, 30, 40] },
      { name: 'other.errors', values: [100, 100, 100, 100] },
    ]);
    const evaluated = evaluateTestQuery('sumSeries(shop.*.errors)', test, start + 4 * 60 - 1);
    expect(evaluated).toEqual({
      series: [
        {
          target: 'sumSeries(shop.*.errors)',
          datapoints: [[11, start], [2, start + 60], [30, start + 120], [44, start + 180]],
        },
      ],
    });
  });

  it('reads no history before the first point: a moving window starts short, as on a fresh Graphite', () => {
    const test = testCase(1_700_000_040, 60, [{ name: 'a.b', values: [3, 6, 9, 12] }]);
    const evaluated = evaluateTestQuery('movingAverage(a.b, 2)', test, 1_700_000_040 + 239);
    expect(evaluated).toEqual({ series: [{ target: 'movingAverage(a.b,2)', datapoints: [[null, 1_700_000_040], [3, 1_700_000_100], [4.5, 1_700_000_160], [7.5, 1_700_000_220]] }] });
  });

  it('reports where graphite-web would fail, and a query too large to evaluate here', () => {
    const test = testCase(1_700_000_040, 60, [{ name: 'c', values: [1, null, 3] }]);
    expect(evaluateTestQuery('perSecond(c, 100)', test, 1_700_000_040 + 179)).toEqual({ failure: expect.stringContaining('Graphite would fail on "perSecond(c, 100)": graphite-web fails on this (HTTP 500)') });
    expect(evaluateTestQuery('movingAverage(c, 99999999)', test, 1_700_000_040 + 179)).toEqual({ notRun: expect.stringContaining('too large to evaluate locally') });
  });
});
