import { describe, expect, it } from 'vitest';
import { advanceWithNoData } from '../../../src/evaluation/no-data.js';
import { initialEvalState, type AdvanceContext, type CycleInput, type EvalState } from '../../../src/evaluation/transitions.js';
import { judgeAlert, judgeCriterion } from '../../../src/evaluation/judge-alert.js';
import { makeSeries } from '../../helpers/fake-render-server.js';
import { alertStateOf, stateFactsOf } from '../../../src/model/alert-state.js';
import { serializeEvalState } from '../../../src/evaluation/stored-state.js';

const NOW = 1_800_000_000;
const context = (change: Partial<AdvanceContext> = {}): AdvanceContext => ({
  now: NOW,
  notificationType: ['state_change'],
  muted: false,
  onQueryFailure: null,
  acknowledged: false,
  ...change,
});
const criterion = { letter: 'a', metric: 'web.*.cpu', criteria: { type: 'above' as const, above_value: 90, time_period: 5 } };
/** The cycle input of `web.*.cpu` answering `values` (one series), or no series at all. */
const judged = (values: (number | null)[] | null): CycleInput => ({
  kind: 'judged',
  judgement: judgeAlert('a', [judgeCriterion(criterion, values ? [makeSeries('web.1.cpu', values, NOW - 30, 30)] : [], NOW)]),
});
const stateOf = (state: EvalState) => alertStateOf(stateFactsOf(state.status, serializeEvalState(state)), true);

describe('no data', () => {
  it('is no series, or only nulls in the judged window; either reads no_data, not healthy', () => {
    for (const input of [judged(null), judged([null, null])]) {
      const advance = advanceWithNoData(initialEvalState(), input, context(), 'ignore');
      expect(stateOf(advance.state)).toBe('no_data');
      expect(advance.state.status).toBe('healthy');
      expect(advance.history).toEqual([{ status: 'no_data', value: null, metric: 'web.*.cpu', time: NOW }]);
      expect(advance.notifications).toEqual([]);
      expect(advance.suppressed).toEqual([{ event: 'no_data', triggered: [{ metric: 'web.*.cpu', value: null }], reason: 'on_no_data is ignore' }]);
    }
  });

  it('notify: one no_data notification per episode, and no_data_recovered when data returns, muted or not', () => {
    const first = advanceWithNoData(initialEvalState(), judged(null), context(), 'notify');
    expect(first.notifications).toEqual([{ event: 'no_data', triggered: [{ metric: 'web.*.cpu', value: null }] }]);
    const again = advanceWithNoData(first.state, judged(null), context({ now: NOW + 30 }), 'notify');
    expect(again.notifications).toEqual([]);
    expect(again.history).toEqual([]);
    const back = advanceWithNoData(again.state, judged([10, 10]), context({ now: NOW + 60, muted: true }), 'notify');
    expect(back.notifications).toEqual([{ event: 'no_data_recovered', triggered: [] }]);
    expect(stateOf(back.state)).toBe('healthy');
  });

  it('notify while muted: held back, and no recovery owed for it', () => {
    const muted = advanceWithNoData(initialEvalState(), judged(null), context({ muted: true }), 'notify');
    expect(muted.notifications).toEqual([]);
    expect(muted.suppressed[0]).toMatchObject({ event: 'no_data', reason: 'muted' });
    const back = advanceWithNoData(muted.state, judged([10, 10]), context({ now: NOW + 30 }), 'notify');
    expect(back.notifications).toEqual([]);
  });

  it('alerting: the alert alerts on its query with no value, and recovers like any alert when data returns', () => {
    const down = advanceWithNoData(initialEvalState(), judged(null), context(), 'alerting');
    expect(down.state.status).toBe('alerting');
    expect(stateOf(down.state)).toBe('alerting');
    expect(down.notifications).toEqual([{ event: 'alerting', triggered: [{ metric: 'web.*.cpu', value: null }] }]);
    expect(down.history).toEqual([{ status: 'alerting', value: null, metric: 'web.*.cpu', time: NOW }]);
    const back = advanceWithNoData(down.state, judged([10, 10]), context({ now: NOW + 30 }), 'alerting');
    expect(back.state.status).toBe('healthy');
    expect(back.notifications.map((one) => one.event)).toEqual(['recovered']);
  });

  it('an alerting alert whose data vanishes keeps its status but reads no_data; a query failure leaves the no-data memory alone', () => {
    const hot = advanceWithNoData(initialEvalState(), judged([95, 95]), context(), 'ignore');
    const gone = advanceWithNoData(hot.state, judged(null), context({ now: NOW + 30 }), 'ignore');
    expect(gone.state.status).toBe('alerting');
    expect(stateOf(gone.state)).toBe('no_data');
    const failed = advanceWithNoData(gone.state, { kind: 'query_failed', failures: [{ metric: 'web.*.cpu', message: '500' }] }, context({ now: NOW + 60 }), 'ignore');
    expect(failed.state.noData).toBe(true);
    expect(stateOf(failed.state)).toBe('query_failing');
  });
});

describe('the one state', () => {
  it('puts what cannot be known first: not evaluated, then query failing, then no data, then the status', () => {
    const facts = { status: 'alerting', evaluated: true, queryFailing: true, noData: true };
    expect(alertStateOf(facts, false)).toBe('not_evaluated');
    expect(alertStateOf({ ...facts, evaluated: false }, true)).toBe('not_evaluated');
    expect(alertStateOf(facts, true)).toBe('query_failing');
    expect(alertStateOf({ ...facts, queryFailing: false }, true)).toBe('no_data');
    expect(alertStateOf({ ...facts, queryFailing: false, noData: false }, true)).toBe('alerting');
    expect(alertStateOf({ ...facts, status: 'healthy', queryFailing: false, noData: false }, true)).toBe('healthy');
    expect(stateFactsOf('healthy', '{"version":1,"noData":true}')).toEqual({ status: 'healthy', evaluated: true, queryFailing: false, noData: true });
    expect(stateFactsOf('healthy', null).evaluated).toBe(false);
  });
});
