import { afterEach, describe, expect, it } from 'vitest';
import { createGraphiteClient } from '../../../../src/graphite/render-client.js';
import { runEvaluationCycle } from '../../../../src/server/evaluator/run-cycle.js';
import { makeSeries, startFakeRender } from '../../../helpers/fake-render-server.js';
import { MemoryEvaluationStore } from '../../../helpers/memory-evaluation-store.js';

const T0 = 1_700_000_000;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe('an evaluation cycle with escalation steps', () => {
  it('writes each step to its own channels, records held steps with why, and sends the recovery to the escalated channels', async () => {
    let value = 95;
    // The data follows the clock: an instantaneous criterion reads the latest point of its 10-minute look-back.
    let at = T0;
    const fake = await startFakeRender((request) => ({ series: request.targets.map((t) => makeSeries(t, [value, value], at, 30)) }));
    closers.push(fake.close);
    const graphite = createGraphiteClient({ baseUrl: fake.url });
    const store = new MemoryEvaluationStore();
    for (const id of ['own', 'lead', 'boss']) store.channels.set(id, { id, type: 'webhook', description: id, destination: 'http://127.0.0.1:9/', autoResolve: false });
    store.addAlert({
      id: 'cpu', metric: 'web.cpu', alertCriteria: { type: 'above', above_value: 90 }, notificationChannels: ['own'],
      escalation: [{ after_minutes: 10, notification_channels: ['lead'] }, { after_minutes: 20, notification_channels: ['boss'] }],
    });
    const alert = store.alerts.get('cpu')!;
    const cycle = (minute: number) => {
      at = T0 + minute * 60;
      return runEvaluationCycle({ store, graphite, now: () => at * 1000 });
    };
    const outboxFrom = (from: number) => store.outbox.slice(from).map((d) => `${d.notification.event}>${d.channelId}`);

    await cycle(0);
    await cycle(10);
    expect(outboxFrom(0)).toEqual(['alerting>own', 'escalated>lead']);
    expect(store.outbox[1]!.notification.escalation).toEqual({ step: 1, of: 2, after_minutes: 10 });
    // The step names its alerting episode, as the alerting page does: its one-click link acknowledges that episode.
    expect(store.outbox[1]!.notification.episode).toBe(T0);
    expect(store.outbox[0]!.notification.episode).toBe(T0);
    alert.acknowledged = true;
    await cycle(20);
    await cycle(21);
    expect(outboxFrom(2)).toEqual([]);
    alert.acknowledged = false;
    value = 10;
    await cycle(22);
    expect(outboxFrom(2)).toEqual(['recovered>own', 'recovered>lead']);
    expect(store.notificationHistory.get('cpu')!.map((e) => `${e.status} ${e.channelId ?? '-'} ${e.reason}`)).toEqual([
      'notification_sent own alerting',
      'notification_sent lead escalated: step 1 of 2, after 10 minutes',
      'notification_suppressed - escalated: step 2 (after 20 minutes) held back: acknowledged',
      'notification_sent own recovered',
      'notification_sent lead recovered',
    ]);
  });
});
