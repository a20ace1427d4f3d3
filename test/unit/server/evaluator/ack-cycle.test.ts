import { afterEach, expect, it } from 'vitest';
import { createGraphiteClient } from '../../../../src/graphite/render-client.js';
import type { EvaluationUpdate } from '../../../../src/server/store/evaluation-store.js';
import { runEvaluationCycle } from '../../../../src/server/evaluator/run-cycle.js';
import { makeSeries, startFakeRender } from '../../../helpers/fake-render-server.js';
import { MemoryEvaluationStore } from '../../../helpers/memory-evaluation-store.js';

const T0 = 1_700_000_010;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

it('holds reminders while acknowledged, and when the acknowledgement expires reminds again and asks the store to end it', async () => {
  let now = T0;
  const fake = await startFakeRender((request) => ({ series: request.targets.map((target) => makeSeries(target, [95, 95], now, 30)) }));
  closers.push(fake.close);
  const store = new MemoryEvaluationStore();
  store.channels.set('ch1', { id: 'ch1', type: 'webhook', description: 'hook', destination: 'http://127.0.0.1:9/x', autoResolve: false });
  store.addAlert({ id: 'disk', metric: 'web.disk', alertCriteria: { type: 'above', above_value: 90 }, notificationChannels: ['ch1'], notificationType: ['every', 5] });
  const saved: EvaluationUpdate[] = [];
  const save = store.saveEvaluations.bind(store);
  store.saveEvaluations = async (updates) => {
    saved.push(...updates);
    await save(updates);
  };
  const cycle = () => runEvaluationCycle({ store, graphite: createGraphiteClient({ baseUrl: fake.url }), now: () => now * 1000 });

  await cycle();
  expect(store.outbox.map((d) => [d.notification.event, d.notification.episode])).toEqual([['alerting', T0]]);

  // Acknowledged at T0 + 60: ten minutes later, no reminder.
  Object.assign(store.alerts.get('disk')!, { acknowledged: true, acknowledgedAt: T0 + 60 });
  now = T0 + 600;
  await cycle();
  expect(store.outbox).toHaveLength(1);

  // Its until has passed (the store still holds it, expired): reminders resume and the update ends it.
  Object.assign(store.alerts.get('disk')!, { acknowledged: false });
  now = T0 + 1200;
  saved.length = 0;
  await cycle();
  expect(store.outbox.map((d) => [d.notification.event, d.notification.episode])).toEqual([['alerting', T0], ['reminder', T0]]);
  expect(saved).toHaveLength(1);
  expect(saved[0]!.endAcknowledgementAt).toBe(T0 + 60);
  expect(saved[0]!.history).toContainEqual({ status: 'unacknowledged', value: null, metric: '', time: T0 + 1200, channelId: null, reason: 'expired' });
});
