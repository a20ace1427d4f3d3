import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RenderSeries } from '../../../src/graphite/types.js';
import { historyQueryRange, queryRangeMinutes } from '../../../src/evaluation/criteria.js';
import { judgeCriterion, type Criterion } from '../../../src/evaluation/judge-alert.js';
import type { AlertCriteria } from '../../../src/model/types.js';
import { createCriterionCursor } from '../../../src/impact/criterion-cursor.js';

/** What the server's cycle would read at `at`: points in its query range, up to `at`. */
function asRenderedAt(series: RenderSeries[], at: number, fromMinutes: number): RenderSeries[] {
  return series.map((one) => ({ target: one.target, datapoints: one.datapoints.filter(([, t]) => t >= at - fromMinutes * 60 && t <= at) }));
}

function serverOutcome(criterion: Criterion, series: RenderSeries[], at: number) {
  const window = asRenderedAt(series, at, queryRangeMinutes(criterion.criteria));
  const range = historyQueryRange(criterion.criteria);
  const history = range ? asRenderedAt(series, at, range.fromMinutes).filter((s) => s.datapoints.some(([v]) => v !== null)) : undefined;
  // Graphite leaves out of a wildcard's answer the series with no point at all in the range.
  return judgeCriterion(criterion, window.filter((s) => s.datapoints.length > 0), at, history);
}

const criteriaArb: fc.Arbitrary<AlertCriteria> = fc.oneof(
  fc.record({ type: fc.constant('above' as const), above_value: fc.integer({ min: 0, max: 10 }), time_period: fc.constantFrom(undefined, 1, 2, 5) }),
  fc.record({ type: fc.constant('below' as const), below_value: fc.integer({ min: 0, max: 10 }), time_period: fc.constantFrom(undefined, 1, 3) }),
  fc.record({
    type: fc.constant('outside_bounds' as const),
    above_value: fc.integer({ min: 6, max: 10 }),
    below_value: fc.integer({ min: 0, max: 5 }),
    time_period: fc.constantFrom(1, 4),
  }),
  fc.record({ type: fc.constant('missing' as const), time_period: fc.constantFrom(undefined, 1, 3) }),
);

/** Series at `step` seconds from `start`, values 0..10 or null (runs of nulls make gaps). */
const seriesArb = (step: number, count: number) =>
  fc.array(fc.array(fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constant(null), fc.constant(null)), { minLength: count, maxLength: count }), {
    minLength: 1,
    maxLength: 3,
  });

describe('the backtest cursor judges as the server does at every step', () => {
  for (const step of [10, 60]) {
    it(`on ${step} s data`, () => {
      const start = 1_700_000_040 - (1_700_000_040 % 60);
      const count = step === 10 ? 120 : 40;
      fc.assert(
        fc.property(criteriaArb, seriesArb(step, count), (criteria, valueLists) => {
          const series: RenderSeries[] = valueLists.map((values, i) => ({
            target: `host${i}.load`,
            datapoints: values.map((v, j) => [v, start + j * step] as [number | null, number]),
          }));
          const criterion: Criterion = { letter: 'a', metric: 'host*.load', criteria };
          const cursor = createCriterionCursor(criterion, series);
          const evalStep = Math.max(30, step);
          for (let stepStart = start; stepStart + evalStep - 1 <= start + count * step; stepStart += evalStep) {
            const at = stepStart + evalStep - 1;
            const mine = cursor.judgeAt(at);
            const server = serverOutcome(criterion, series, at);
            expect({ at, state: mine.state, triggered: mine.triggered.map((t) => t.metric) }).toEqual({
              at,
              state: server.state,
              triggered: server.triggered.map((t) => t.metric),
            });
          }
        }),
        { numRuns: 300 },
      );
    });
  }
});
