import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RenderSeries } from '../../../src/graphite/types.js';
import { historyQueryRange, queryRangeMinutes } from '../../../src/evaluation/criteria.js';
import { judgeAlert, judgeCriterion, listCriteria } from '../../../src/evaluation/judge-alert.js';
import { advanceAlert, initialEvalState, type EvalState } from '../../../src/evaluation/transitions.js';
import type { AlertCriteria } from '../../../src/model/types.js';
import { replayAlert, type ReplayableAlert } from '../../../src/impact/replay.js';

/**
 * The server's cycles and the backtest are one judgement: on random 10 s series (gaps, series that start late or
 * stop), every criterion type and composites, a cycle run at any second after a bucket is settled (its end plus the
 * settle delay, plus up to one bucket of lateness) reaches the state the backtest's step of that bucket reaches.
 * The server's cycle here is run-cycle.ts's judging path: judgeCriterion over what a render at the cycle's time
 * returns (its query range, the points up to that second), judgeAlert, advanceAlert.
 */

const START = 1_767_571_200; // a multiple of 60
const STEP = 10;
const COUNT = 90; // 15 minutes of 10 s points

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

/** Values 0..10 in runs (a breach lasts a while, as real ones do), with nulls; some series begin late or stop. */
const valuesArb = fc
  .array(fc.record({ value: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constant(null)), length: fc.integer({ min: 1, max: 12 }) }), { minLength: 1, maxLength: 30 })
  .map((runs) => runs.flatMap(({ value, length }) => Array<number | null>(length).fill(value)).slice(0, COUNT))
  .map((values) => [...values, ...Array<null>(COUNT - values.length).fill(null)]);

const seriesArb = fc.array(valuesArb, { minLength: 1, maxLength: 3 });

function asSeries(prefix: string, lists: (number | null)[][]): RenderSeries[] {
  return lists.map((values, i) => ({ target: `${prefix}.h${i}`, datapoints: values.map((v, j) => [v, START + j * STEP] as [number | null, number]) }));
}

/** What a render at `now` returns: the points of the query range up to `now`; Graphite leaves out series with no point in it. */
function renderedAt(series: readonly RenderSeries[], now: number, fromMinutes: number): RenderSeries[] {
  return series
    .map((one) => ({ target: one.target, datapoints: one.datapoints.filter(([, t]) => t >= now - fromMinutes * 60 && t <= now) }))
    .filter((one) => one.datapoints.length > 0);
}

/** One server cycle at `now` with a settle delay: what run-cycle.ts does for one alert. */
function serverCycle(alert: ReplayableAlert, data: ReadonlyMap<string, RenderSeries[]>, previous: EvalState, now: number, settle: number): EvalState {
  const settleMinutes = Math.ceil(settle / 60);
  const outcomes = listCriteria(alert).map((criterion) => {
    const all = data.get(criterion.metric) ?? [];
    const range = historyQueryRange(criterion.criteria);
    const history = range ? renderedAt(all, now, range.fromMinutes + settleMinutes) : undefined;
    return judgeCriterion(criterion, renderedAt(all, now, queryRangeMinutes(criterion.criteria) + settleMinutes), now, history, settle);
  });
  const judgement = judgeAlert(alert.expression, outcomes);
  return advanceAlert(previous, { kind: 'judged', judgement }, { now, notificationType: alert.notification_type, muted: false, onQueryFailure: null, acknowledged: false }).state;
}

describe('the server and the backtest give the same verdicts', () => {
  it('at every bucket, for every criterion type and composites, whatever second the cycle runs at', () => {
    fc.assert(
      fc.property(
        criteriaArb,
        fc.option(fc.record({ criteria: criteriaArb, operator: fc.constantFrom('&&', '||') }), { nil: undefined }),
        seriesArb,
        seriesArb,
        fc.constantFrom(10, 30, 60, 75),
        fc.array(fc.integer({ min: 0, max: 29 }), { minLength: 40, maxLength: 40 }),
        (a, b, seriesA, seriesB, settle, lateness) => {
          const alert: ReplayableAlert = {
            metric: 'a.*',
            alert_criteria: a,
            ...(b ? { additional_criteria: { b: { metric: 'b.*', ...b.criteria } }, expression: `a ${b.operator} b` } : {}),
            notification_type: ['state_change'],
            notification_channels: ['pager'],
          };
          const data = new Map([
            ['a.*', asSeries('a', seriesA)],
            ['b.*', asSeries('b', seriesB)],
          ]);
          const backtest: { start: number; status: string; triggered: string[] }[] = [];
          replayAlert(alert, data, { start: START, end: START + COUNT * STEP + 300, onStep: (step) => backtest.push({ start: step.start, status: step.status, triggered: [...step.triggered].sort() }) });
          let state = initialEvalState();
          for (const [i, step] of backtest.entries()) {
            // The backtest's step judges the bucket starting at step.start; a cycle sees it settled from its end + the delay.
            const now = step.start + 30 + settle + lateness[i % lateness.length]!;
            state = serverCycle(alert, data, state, now, settle);
            expect({ bucket: step.start - START, status: state.status, triggered: state.triggered.map((t) => t.metric).sort() }).toEqual({
              bucket: step.start - START,
              status: step.status,
              triggered: step.status === 'alerting' ? step.triggered : [],
            });
          }
        },
      ),
      { numRuns: 250 },
    );
  });

  it('does not page a breach of one bucket on a 1-minute window, and pages one of two', () => {
    const above: ReplayableAlert = { metric: 'a.*', alert_criteria: { type: 'above', above_value: 50, time_period: 1 }, notification_type: ['state_change'], notification_channels: ['pager'] };
    for (const [blip, fired] of [[3, 0], [6, 1]] as const) {
      // 10 s points of 1, then `blip` points of 100 from a bucket's start, then 1 again.
      const values = Array.from({ length: COUNT }, (_, j) => (j >= 30 && j < 30 + blip ? 100 : 1));
      const data = new Map([['a.*', asSeries('a', [values])]]);
      const replayed = replayAlert(above, data, { start: START, end: START + COUNT * STEP });
      expect(replayed.fired, `${blip * 10} s of breach`).toBe(fired);
      let state = initialEvalState();
      let paged = 0;
      for (let now = START + 60; now < START + COUNT * STEP + 120; now += 7) {
        const next = serverCycle(above, data, state, now, 60);
        if (state.status === 'healthy' && next.status === 'alerting') paged += 1;
        state = next;
      }
      expect(paged, `${blip * 10} s of breach, cycles every 7 s`).toBe(fired);
    }
  });
});
