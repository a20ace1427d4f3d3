import { describe, expect, it } from 'vitest';
import type { AlertJudgement } from '../../../src/evaluation/judge-alert.js';
import { parseEvalState } from '../../../src/evaluation/stored-state.js';
import { advanceAlert, initialEvalState, type AdvanceContext, type CycleInput, type EvalState } from '../../../src/evaluation/transitions.js';
import type { EscalationStep } from '../../../src/evaluation/escalation.js';

const T0 = 1_700_000_000;
const holds: CycleInput = { kind: 'judged', judgement: { state: 'holds', triggered: [{ metric: 'web.cpu', value: 95 }], outcomes: [] } as AlertJudgement };
const clear: CycleInput = {
  kind: 'judged',
  judgement: {
    state: 'clear',
    triggered: [],
    outcomes: [{ letter: 'a', metric: 'web.cpu', criteria: { type: 'above', above_value: 90 }, state: 'clear', triggered: [], latest: new Map([['web.cpu', 10]]) }],
  },
};
const unknown: CycleInput = { kind: 'judged', judgement: { state: 'unknown', triggered: [], outcomes: [] } };

const STEPS: EscalationStep[] = [
  { after_minutes: 15, notification_channels: ['lead'] },
  { after_minutes: 30, notification_channels: ['manager', 'lead'] },
];

/** Runs [minute, input, context] cycles from a healthy state; answers what each cycle sent and held. */
function run(cycles: [number, CycleInput, Partial<AdvanceContext>?][], steps = STEPS, start: EvalState = initialEvalState()) {
  let state = start;
  return cycles.map(([minute, input, extra]) => {
    const advance = advanceAlert(state, input, {
      now: T0 + minute * 60,
      notificationType: ['state_change'],
      muted: false,
      onQueryFailure: null,
      acknowledged: false,
      escalation: steps,
      channels: ['oncall'],
      ...extra,
    });
    state = advance.state;
    return {
      minute,
      sent: advance.notifications.map((n) => `${n.event}${n.channels ? `>${n.channels.join('+')}` : ''}${n.escalation ? `#${n.escalation.step}` : ''}`),
      held: advance.suppressed.map((s) => `${s.event}: ${s.reason}`),
      state,
    };
  });
}

describe('escalation steps', () => {
  it('fire at the minute their after has passed since the episode began, each once, to their own channels', () => {
    const cycles = run([[0, holds], [14, holds], [15, holds], [16, holds], [29, holds], [30, holds], [90, holds]]);
    expect(cycles.map((c) => [c.minute, c.sent])).toEqual([
      [0, ['alerting']],
      [14, []],
      [15, ['escalated>lead#1']],
      [16, []],
      [29, []],
      [30, ['escalated>manager+lead#2']],
      [90, []],
    ]);
  });

  it('send every overdue step in one cycle, in order, when cycles were missed (a downtime)', () => {
    const cycles = run([[0, holds], [45, holds], [46, holds]]);
    expect(cycles[1]!.sent).toEqual(['escalated>lead#1', 'escalated>manager+lead#2']);
    expect(cycles[2]!.sent).toEqual([]);
  });

  it('send the recovery to the escalated channels that are not the alert own, then start over on the next episode', () => {
    const cycles = run([[0, holds], [30, holds], [31, clear], [40, holds], [54, holds], [55, holds]], [
      { after_minutes: 15, notification_channels: ['oncall', 'lead'] },
      { after_minutes: 30, notification_channels: ['manager'] },
    ]);
    expect(cycles[2]!.sent).toEqual(['recovered', 'recovered>lead+manager']);
    expect(cycles[2]!.state.escalation).toEqual({ alertingSince: null, escalatedSteps: [], heldSteps: [], escalatedChannels: [] });
    // The second episode began at minute 40: its first step is due at 55, not at once.
    expect(cycles[4]!.sent).toEqual([]);
    expect(cycles[5]!.sent).toEqual(['escalated>oncall+lead#1']);
  });

  it('hold a due step while acknowledged, recorded once with why, and send it when the ack ends while still alerting', () => {
    const cycles = run([[0, holds], [15, holds, { acknowledged: true }], [16, holds, { acknowledged: true }], [20, holds]]);
    expect(cycles[1]!.sent).toEqual([]);
    expect(cycles[1]!.held).toEqual(['escalated: step 1 (after 15 minutes) held back: acknowledged']);
    expect(cycles[2]!.held).toEqual([]);
    expect(cycles[3]!.sent).toEqual(['escalated>lead#1']);
  });

  it('hold a due step while muted, and still send the recovery to every channel told, escalated ones too, when muted', () => {
    const cycles = run([[0, holds], [15, holds, { muted: true }], [20, holds], [21, clear, { muted: true }]]);
    expect(cycles[1]!.held).toEqual(['escalated: step 1 (after 15 minutes) held back: muted']);
    expect(cycles[2]!.sent).toEqual(['escalated>lead#1']);
    // A resolve is never lost: the alert's channel and the lead were paged, both are told it is over.
    expect(cycles[3]!.sent).toEqual(['recovered', 'recovered>lead']);
  });

  it('keep the clock through cycles without data, and survive a round trip of the stored state', () => {
    const [first, second] = run([[0, holds], [10, unknown]]);
    const restored = parseEvalState(JSON.stringify(second!.state), 'alerting', ['web.cpu']);
    expect(restored.escalation?.alertingSince).toBe(first!.state.escalation?.alertingSince);
    const [after] = run([[15, holds]], STEPS, restored);
    expect(after!.sent).toEqual(['escalated>lead#1']);
  });

  it('start the clock at the first cycle for an alerting state stored before escalation existed, rather than escalating at once', () => {
    const old = { ...initialEvalState('alerting', ['web.cpu']) } as EvalState;
    delete old.escalation;
    const cycles = run([[100, holds], [114, holds], [115, holds]], STEPS, parseEvalState(JSON.stringify(old), 'alerting', ['web.cpu']));
    expect(cycles.map((c) => c.sent)).toEqual([[], [], ['escalated>lead#1']]);
  });

  it('send nothing more for an alert without steps', () => {
    const cycles = run([[0, holds], [600, holds], [601, clear]], []);
    expect(cycles.map((c) => c.sent)).toEqual([['alerting'], [], ['recovered']]);
  });
});
