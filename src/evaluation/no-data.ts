import type { AlertJudgement, TriggeredMetric } from './judge-alert.js';
import { advanceAlert, type Advance, type AdvanceContext, type CycleInput, type EvalState } from './transitions.js';

/** What an alert does when its queries answer no data (its on_no_data, or the server's default for null). */
export type NoDataPolicy = 'ignore' | 'notify' | 'alerting';

/**
 * advanceAlert, with the alert's no-data policy applied. "No data" is a judgement that is neither true nor false:
 * the letters the expression needs have no non-null point in the window they judge (their time_period, or the last
 * ten minutes when instantaneous), because no series matched or every series held only nulls there. `missing`
 * letters never lack data: no data is what they look for.
 *
 * - `alerting`: the alert is judged to hold, the letters without data triggered by their queries with no value (as a
 *   `missing` alert's are), so it alerts, reminds, escalates and recovers exactly like any alerting alert.
 * - `notify` and `ignore`: the status stays as it was; the alert's state reads `no_data` until data returns. The
 *   first cycle without data records a `no_data` history entry per query and, with `notify` (and not muted), sends
 *   `no_data`; when data returns, `no_data_recovered` goes to whoever was told, muted or not (a resolve is never lost).
 * - A query failure says nothing about data: the no-data memory stays as it was.
 */
export function advanceWithNoData(previous: EvalState, input: CycleInput, context: AdvanceContext, policy: NoDataPolicy): Advance {
  if (input.kind === 'query_failed') return advanceAlert(previous, input, context);
  const { judgement } = input;
  if (judgement.state !== 'unknown') return dataReturned(previous, advanceAlert(previous, input, context));
  const silent = silentQueries(judgement);
  if (policy === 'alerting') {
    const holds: AlertJudgement = { ...judgement, state: 'holds', triggered: silent };
    return dataReturned(previous, advanceAlert(previous, { kind: 'judged', judgement: holds }, context));
  }
  const advance = advanceAlert(previous, input, context);
  if (previous.noData) return advance;
  advance.state.noData = true;
  for (const one of silent) advance.history.push({ status: 'no_data', value: null, metric: one.metric, time: context.now });
  if (policy === 'notify' && !context.muted) {
    advance.notifications.push({ event: 'no_data', triggered: silent });
    advance.state.noDataNotified = true;
  } else {
    advance.suppressed.push({ event: 'no_data', triggered: silent, reason: context.muted ? 'muted' : `on_no_data is ${policy}` });
  }
  return advance;
}

/** Closes a no-data episode: the state forgets it, and whoever was told about it is told that data returned. */
function dataReturned(previous: EvalState, advance: Advance): Advance {
  if (!previous.noData) return advance;
  advance.state.noData = false;
  if (previous.noDataNotified) advance.notifications.push({ event: 'no_data_recovered', triggered: [] });
  advance.state.noDataNotified = false;
  return advance;
}

/** The queries of the letters that had no data (all the alert's queries when none is told apart), without a value. */
function silentQueries(judgement: AlertJudgement): TriggeredMetric[] {
  const silent = judgement.outcomes.filter((outcome) => outcome.state === 'unknown');
  const named = silent.length > 0 ? silent : judgement.outcomes;
  return [...new Set(named.map((outcome) => outcome.metric))].map((metric) => ({ metric, value: null }));
}
