import { describe, expect, it } from 'vitest';
import type { AlertJudgement } from '../../../src/evaluation/judge-alert.js';
import {
  advanceAlert,
  initialEvalState,
  type AdvanceContext,
  type CycleInput,
  type EvalState,
} from '../../../src/evaluation/transitions.js';
import { parseEvalState, serializeEvalState } from '../../../src/evaluation/stored-state.js';
import type { NotificationType } from '../../../src/model/types.js';

const T0 = 1_700_000_000;

const holds = (value = 95, metric = 'web.1.cpu'): CycleInput => ({
  kind: 'judged',
  judgement: { state: 'holds', triggered: [{ metric, value }], outcomes: [] } as AlertJudgement,
});
const clear = (value = 10, metric = 'web.1.cpu'): CycleInput => ({
  kind: 'judged',
  judgement: {
    state: 'clear',
    triggered: [],
    outcomes: [{ letter: 'a', metric, criteria: { type: 'above', above_value: 90 }, state: 'clear', triggered: [], latest: new Map([[metric, value]]) }],
  },
});
const unknown: CycleInput = { kind: 'judged', judgement: { state: 'unknown', triggered: [], outcomes: [] } };
const failed: CycleInput = { kind: 'query_failed', failures: [{ metric: 'sumSeries(x.*)', message: 'render answered HTTP 500' }] };

/** Runs a timeline of [minute, input] steps on a fake clock and returns what each step sent. */
function timeline(
  steps: [number, CycleInput, Partial<AdvanceContext>?][],
  notificationType: NotificationType,
  start: EvalState = initialEvalState(),
) {
  let state = start;
  return steps.map(([minute, input, extra]) => {
    const advance = advanceAlert(state, input, { now: T0 + minute * 60, notificationType, muted: false, onQueryFailure: null, acknowledged: false, ...extra });
    state = advance.state;
    return { minute, status: state.status, sent: advance.notifications.map((n) => n.event), history: advance.history };
  });
}

describe('transitions', () => {
  it('goes alerting when the alert holds and records the breaching value per triggered metric', () => {
    const [step] = timeline([[0, holds(97)]], ['state_change']);
    expect(step!.status).toBe('alerting');
    expect(step!.history).toEqual([{ status: 'alerting', value: 97, metric: 'web.1.cpu', time: T0 }]);
  });

  it('recovers only on non-null data: unknown keeps the alert alerting', () => {
    const steps = timeline([[0, holds()], [1, unknown], [2, clear(12)]], ['state_change']);
    expect(steps.map((s) => s.status)).toEqual(['alerting', 'alerting', 'healthy']);
    expect(steps[1]!.history).toEqual([]);
    expect(steps[2]!.history).toEqual([{ status: 'recovered', value: 12, metric: 'web.1.cpu', time: T0 + 120 }]);
  });

  it('never leaves healthy on missing data', () => {
    expect(timeline([[0, unknown], [1, clear()]], ['state_change']).map((s) => [s.status, s.history.length])).toEqual([
      ['healthy', 0],
      ['healthy', 0],
    ]);
  });
});

describe('notification timing', () => {
  it('state_change notifies on each transition and never reminds', () => {
    const steps = timeline([[0, holds()], [1, holds()], [90, holds()], [91, clear()], [92, holds()]], ['state_change']);
    expect(steps.map((s) => s.sent)).toEqual([['alerting'], [], [], ['recovered'], ['alerting']]);
  });

  it('every N notifies on the transition, then reminds every N minutes while alerting', () => {
    const steps = timeline(
      [[0, holds()], [5, holds()], [9.5, holds()], [10, holds()], [15, holds()], [20.5, holds()], [21, clear()]],
      ['every', 10],
    );
    expect(steps.map((s) => [s.minute, s.sent])).toEqual([
      [0, ['alerting']],
      [5, []],
      [9.5, []],
      [10, ['reminder']],
      [15, []],
      [20.5, ['reminder']],
      [21, ['recovered']],
    ]);
  });

  it('every N backs off a flapping alert: at most one alerting notification per N minutes', () => {
    const steps = timeline(
      [[0, holds()], [1, clear()], [2, holds()], [3, clear()], [4, holds()], [10, holds()], [11, clear()]],
      ['every', 10],
    );
    expect(steps.map((s) => [s.minute, s.status, s.sent])).toEqual([
      [0, 'alerting', ['alerting']],
      [1, 'healthy', ['recovered']],
      [2, 'alerting', []], // within the backoff: suppressed
      [3, 'healthy', []], // its alerting was never sent, so neither is its recovery
      [4, 'alerting', []],
      [10, 'alerting', ['alerting']], // the backoff is over: the held-back notice goes out
      [11, 'healthy', ['recovered']],
    ]);
    // History records every transition whatever was sent.
    expect(steps.map((s) => s.history.map((h) => h.status)).flat()).toEqual([
      'alerting', 'recovered', 'alerting', 'recovered', 'alerting', 'recovered',
    ]);
  });

  it('sends nothing while muted but keeps evaluating and recording history', () => {
    const muted = { muted: true };
    const steps = timeline([[0, holds(), muted], [30, holds(), muted], [61, holds()], [62, clear()]], ['every', 60]);
    expect(steps.map((s) => [s.status, s.sent])).toEqual([
      ['alerting', []],
      ['alerting', []],
      ['alerting', ['alerting']], // unmuted and still alerting: the channels hear of it now
      ['healthy', ['recovered']],
    ]);
    expect(steps[0]!.history).toHaveLength(1);
  });

  it('pages a state_change alert still alerting when its mute or acknowledgement ends, once, and then owes its resolve', () => {
    // Muted from the start, then muted or acknowledged (an acknowledgement of an episode nobody was paged for), then free.
    for (const hold of [{ muted: true }, { acknowledged: true }]) {
      const steps = timeline([[0, holds(), { muted: true }], [5, holds(), hold], [8, holds()], [9, holds()], [10, clear()]], ['state_change']);
      expect(steps.map((s) => s.sent), JSON.stringify(hold)).toEqual([[], [], ['alerting'], [], ['recovered']]);
    }
  });

  it('does not send a recovery for an alerting episode the channels never heard of (muted then)', () => {
    const steps = timeline([[0, holds(), { muted: true }], [1, clear()]], ['state_change']);
    expect(steps.map((s) => s.sent)).toEqual([[], []]);
    expect(steps[1]!.history.map((h) => h.status)).toEqual(['recovered']);
  });
});

describe('query failures', () => {
  it('change no status, record query_failed once and notify only when on_query_failure is notify', () => {
    const notify = { onQueryFailure: 'notify' as const };
    const steps = timeline([[0, holds()], [1, failed, notify], [2, failed, notify], [3, holds(), notify]], ['state_change']);
    expect(steps.map((s) => s.status)).toEqual(['alerting', 'alerting', 'alerting', 'alerting']);
    expect(steps[1]!.history).toEqual([{ status: 'query_failed', value: null, metric: 'sumSeries(x.*)', time: T0 + 60 }]);
    expect(steps[2]!.history).toEqual([]);
    expect(steps.map((s) => s.sent)).toEqual([['alerting'], ['query_failed'], [], ['query_recovered']]);
  });

  it('stay silent with on_query_failure ignore (or null) but still record history', () => {
    for (const onQueryFailure of ['ignore', null] as const) {
      const steps = timeline([[0, failed, { onQueryFailure }], [1, clear(), { onQueryFailure }]], ['state_change']);
      expect(steps.map((s) => s.sent)).toEqual([[], []]);
      expect(steps[0]!.history.map((h) => h.status)).toEqual(['query_failed']);
    }
  });
});

describe('stored state', () => {
  it('survives a round trip through JSON and falls back to the stored status when unreadable', () => {
    const [, second] = timeline([[0, holds()], [1, holds()]], ['every', 60]);
    expect(second!.status).toBe('alerting');
    const state = advanceAlert(initialEvalState(), holds(), { now: T0, notificationType: ['every', 60], muted: false, onQueryFailure: null, acknowledged: false }).state;
    const restored = parseEvalState(serializeEvalState(state), 'healthy', []);
    expect(restored).toEqual(state);
    // After a restart within the backoff, no duplicate notification.
    const after = advanceAlert(restored, holds(), { now: T0 + 30, notificationType: ['every', 60], muted: false, onQueryFailure: null, acknowledged: false });
    expect(after.notifications).toEqual([]);
    expect(parseEvalState('not json', 'alerting', ['m'])).toMatchObject({ status: 'alerting', triggered: [{ metric: 'm', value: null }] });
    expect(parseEvalState(null, 'healthy', [])).toEqual(initialEvalState());
  });
});

describe('suppressed notifications', () => {
  const advance = (state: EvalState, input: CycleInput, extra: Partial<AdvanceContext> = {}) =>
    advanceAlert(state, input, { now: T0, notificationType: ['every', 30], muted: false, onQueryFailure: null, acknowledged: false, ...extra });

  it('lists an alerting notification held back by a mute, then the recovery nobody is owed', () => {
    const alerting = advance(initialEvalState(), holds(), { muted: true });
    expect(alerting.notifications).toEqual([]);
    expect(alerting.suppressed).toEqual([{ event: 'alerting', triggered: [{ metric: 'web.1.cpu', value: 95 }], reason: 'muted' }]);
    const recovered = advance(alerting.state, clear(), { muted: true });
    expect(recovered.suppressed.map((s) => [s.event, s.reason])).toEqual([['recovered', 'no alerting notification was sent for this episode']]);
  });

  it('never loses a resolve: a recovery (and a query recovery) goes out when channels were told, muted or acknowledged', () => {
    const told = advance(initialEvalState(), holds());
    expect(told.notifications.map((n) => n.event)).toEqual(['alerting']);
    for (const circumstances of [{ muted: true }, { acknowledged: true }, { muted: true, acknowledged: true }]) {
      const recovered = advance(told.state, clear(), circumstances);
      expect(recovered.notifications.map((n) => n.event), JSON.stringify(circumstances)).toEqual(['recovered']);
      expect(recovered.suppressed).toEqual([]);
    }
    // A channel removed from the alert during the episode was told: it gets the resolve too (and only once).
    const paged = advance(initialEvalState(), holds(), { channels: ['a', 'b'] });
    expect(paged.state.pagedChannels).toEqual(['a', 'b']);
    const reminded = advance(paged.state, holds(), { channels: ['b', 'c'], now: T0 + 3600 });
    expect(reminded.notifications.map((n) => n.event)).toEqual(['reminder']);
    expect(reminded.state.pagedChannels).toEqual(['a', 'b', 'c']);
    const resolved = advance(reminded.state, clear(), { channels: ['c'], muted: true });
    expect(resolved.notifications.map((n) => [n.event, n.channels])).toEqual([['recovered', undefined], ['recovered', ['a', 'b']]]);
    expect(resolved.state.pagedChannels).toBeUndefined();
    const failing = advance(initialEvalState(), failed, { onQueryFailure: 'notify' });
    expect(advance(failing.state, clear(), { muted: true }).notifications.map((n) => n.event)).toEqual(['query_recovered']);
  });

  it('lists an alerting notification held back by the backoff with its minutes', () => {
    const state = { ...initialEvalState(), lastNotifiedAt: T0 - 60 };
    const { suppressed, notifications } = advance(state, holds());
    expect(notifications).toEqual([]);
    expect(suppressed[0]!.reason).toBe('backoff: an alerting notification went out less than 30 minutes ago');
  });

  it('lists a failed query held back by on_query_failure, and nothing when it notifies', () => {
    expect(advance(initialEvalState(), failed, { onQueryFailure: 'ignore' }).suppressed).toEqual([
      { event: 'query_failed', triggered: [{ metric: 'sumSeries(x.*)', value: null }], reason: 'on_query_failure is ignore' },
    ]);
    const notified = advance(initialEvalState(), failed, { onQueryFailure: 'notify' });
    expect(notified.suppressed).toEqual([]);
    expect(notified.notifications.map((n) => n.event)).toEqual(['query_failed']);
  });

  it('lists nothing when every notification goes out', () => {
    const alerting = advance(initialEvalState(), holds());
    expect(alerting.suppressed).toEqual([]);
    expect(advance(alerting.state, clear()).suppressed).toEqual([]);
  });
});

describe('acknowledged alerts', () => {
  it('send no reminders while acknowledged, still send the recovery, and name each episode by its start', () => {
    const steps = timeline(
      [
        [0, holds()],
        [10, holds(), { acknowledged: true }],
        [20, holds(), { acknowledged: true }],
        [25, clear(), { acknowledged: true }],
        [30, holds()],
        [40, holds()],
      ],
      ['every', 10],
    );
    expect(steps.map((s) => [s.minute, s.sent])).toEqual([
      [0, ['alerting']],
      [10, []],
      [20, []],
      [25, ['recovered']],
      [30, ['alerting']],
      [40, ['reminder']],
    ]);
    let state = initialEvalState();
    const context = { notificationType: ['every', 10] as NotificationType, muted: false, onQueryFailure: null, acknowledged: false };
    state = advanceAlert(state, holds(), { ...context, now: T0 }).state;
    expect(state.alertingSince).toBe(T0);
    state = advanceAlert(state, holds(), { ...context, now: T0 + 600 }).state;
    expect(state.alertingSince).toBe(T0);
    state = advanceAlert(state, clear(), { ...context, now: T0 + 900 }).state;
    expect(state.alertingSince).toBeNull();
  });
});
