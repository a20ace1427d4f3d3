import { afterEach, describe, expect, it } from 'vitest';
import { runEvaluationCycle } from '../../../../src/server/evaluator/run-cycle.js';
import { createGraphiteClient } from '../../../../src/graphite/render-client.js';
import { openStore } from '../../../../src/server/store/open-store.js';
import { startDeliveryWorker } from '../../../../src/server/outbox/delivery-worker.js';
import type { Notification } from '../../../../src/notifications/types.js';
import { advanceAlert, initialEvalState, type AdvanceContext } from '../../../../src/evaluation/transitions.js';
import { makeSeries, startFakeRender } from '../../../helpers/fake-render-server.js';
import { until } from '../../../helpers/until.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const T0 = 1_800_000_000;

describe('the flap guard', () => {
  it('notifies once that the alert is flapping, suppresses its changes, and tells its state once it is stable for the window', async () => {
    // The clock the cycles run at (unix seconds) and the value the fake Graphite answers at that moment.
    let clock = T0;
    let value = 0;
    const render = await startFakeRender((request) => ({ series: request.targets.map((target) => makeSeries(target, [value, value], clock, 30)) }));
    closers.push(render.close);
    const store = await openStore(':memory:');
    closers.push(() => store.close());
    const account = await store.accounts.createAccount('ops@example.com');
    const hook = await store.channels.createChannel(account.id, { type: 'webhook', description: 'hook', destination: 'https://hooks.example/x', autoResolve: false });
    const alert = await store.alerts.createAlert(account.id, {
      name: 'flappy',
      metric: 'svc.latency',
      alertCriteria: { type: 'above', above_value: 90 },
      additionalCriteria: {},
      expression: 'a',
      notificationChannels: [hook.id],
      notificationType: ['state_change'],
      scheduledMutes: [],
      info: null,
      onQueryFailure: null,
      flapGuard: { max_changes: 3, window_minutes: 10 },
    });
    const deps = { store: store.evaluation, graphite: createGraphiteClient({ baseUrl: render.url }), now: () => clock * 1000 };
    const cycleAt = async (minute: number, next: number) => {
      clock = T0 + minute * 60;
      value = next;
      await runEvaluationCycle(deps);
    };

    // A change every minute for seven minutes: the fourth change within 10 minutes makes it flapping.
    for (const [minute, next] of [[0, 95], [1, 10], [2, 95], [3, 10], [4, 95], [5, 10], [6, 95]] as const) await cycleAt(minute, next);
    // Then it stays alerting; the last change was at minute 6, so it is stable for a window at minute 16.
    for (let minute = 7; minute <= 18; minute += 1) await cycleAt(minute, 95);

    const sent: Notification[] = [];
    const worker = startDeliveryWorker({ store: store.outbox, now: () => clock * 1000, pollMs: 20, send: async (_channel, notification) => void sent.push(notification) });
    closers.push(() => worker.stop(100));
    await until(async () => sent.length, (count) => count >= 6);
    await worker.idle();

    // The recovery of minute 3 is owed (the alerting of minute 2 went out): it goes with the flapping notice.
    expect(sent.map((n) => [n.event, n.time - T0])).toEqual([
      ['alerting', 0],
      ['recovered', 60],
      ['alerting', 120],
      ['recovered', 180],
      ['flapping', 180],
      ['alerting', 16 * 60],
    ]);
    expect(sent[4]!.flapping).toEqual({ changes: 4, window_minutes: 10 });
    expect(sent[5]!.triggered).toEqual([{ metric: 'svc.latency', value: 95 }]);

    const timeline = await store.console.listTimeline(account.id, alert.id, 0, 100);
    const notices = timeline.filter((entry) => entry.kind.startsWith('notification_')).sort((a, b) => a.time - b.time);
    const reason = 'flapping: more than 3 state changes in 10 minutes; notifications resume once it is stable for 10 minutes';
    expect(notices.map((entry) => [entry.kind, entry.time - T0, entry.reason])).toEqual([
      ['notification_sent', 0, 'alerting'],
      ['notification_sent', 60, 'recovered'],
      ['notification_sent', 120, 'alerting'],
      ['notification_sent', 180, 'flapping'],
      ['notification_sent', 180, 'recovered'],
      ['notification_suppressed', 240, `alerting: ${reason}`],
      // Nobody was told of minute 4's alerting: no resolve is owed for it.
      ['notification_suppressed', 300, 'recovered: no alerting notification was sent for this episode'],
      ['notification_suppressed', 360, `alerting: ${reason}`],
      ['notification_sent', 960, 'alerting'],
    ]);
  });

  it('holds while muted too, sends nothing, and leaves an alert without a guard exactly as before', () => {
    const context = (now: number, extra: Partial<AdvanceContext> = {}): AdvanceContext => ({
      now,
      notificationType: ['state_change'],
      muted: false,
      acknowledged: false,
      onQueryFailure: null,
      flapGuard: { max_changes: 1, window_minutes: 5 },
      ...extra,
    });
    const judged = (holds: boolean) => ({
      kind: 'judged' as const,
      judgement: {
        state: holds ? ('holds' as const) : ('clear' as const),
        triggered: holds ? [{ metric: 'm', value: 5 }] : [],
        outcomes: [{ letter: 'a', metric: 'm', criteria: { type: 'above' as const, above_value: 1 }, state: holds ? ('holds' as const) : ('clear' as const), triggered: [], latest: new Map([['m', holds ? 5 : 0]]) }],
      },
    });
    const first = advanceAlert(initialEvalState(), judged(true), context(T0, { muted: true }));
    const second = advanceAlert(first.state, judged(false), context(T0 + 60, { muted: true }));
    expect(second.notifications).toEqual([]);
    expect(second.suppressed.map((one) => [one.event, one.reason])).toEqual([
      ['recovered', 'no alerting notification was sent for this episode'],
      ['flapping', 'muted'],
    ]);
    expect(second.state.flapping).toBe(true);
    // Without a guard the same two changes notify as always, and nothing is remembered.
    const plainFirst = advanceAlert(initialEvalState(), judged(true), context(T0, { flapGuard: null }));
    const plainSecond = advanceAlert(plainFirst.state, judged(false), context(T0 + 60, { flapGuard: null }));
    expect(plainSecond.notifications.map((one) => one.event)).toEqual(['recovered']);
    expect(plainSecond.state).toMatchObject({ recentChanges: [], flapping: false });
  });
});
