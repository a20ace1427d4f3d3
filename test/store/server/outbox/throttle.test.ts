import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { alertWrite, storeBackends } from '../../../helpers/store-backends.js';
import { openStore } from '../../../../src/server/store/open-store.js';
import type { AlertWrite, Store } from '../../../../src/server/store/store.js';
import { startDeliveryWorker, type DeliveryWorker } from '../../../../src/server/outbox/delivery-worker.js';
import type { Notification } from '../../../../src/notifications/types.js';
import type { EvaluationUpdate } from '../../../../src/server/store/evaluation-store.js';
import { until } from '../../../helpers/until.js';

const BACKENDS = storeBackends();
afterAll(async () => {
  for (const backend of BACKENDS) await backend.dispose();
});
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** 2026-01-01T10:00:00Z: the first window runs to 11:00 UTC. */
const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const MINUTE = 60_000;

/** An alert of `name` on `channels`, notified on state changes (the shared fixture otherwise). */
function alertOn(name: string, channels: string[]): AlertWrite {
  return alertWrite(channels[0]!, { name, metric: `disk.${name}`, notificationChannels: channels, notificationType: ['state_change'] });
}

/** Two Store objects on one database where the backend allows (two replicas' pools on PostgreSQL), else one. */
async function twoStores(backend: (typeof BACKENDS)[number]): Promise<[Store, Store]> {
  const db = await backend.createDb();
  const first = await openStore(db);
  const second = db === ':memory:' ? first : await openStore(db);
  cleanups.push(async () => {
    await first.close();
    if (second !== first) await second.close();
  });
  return [first, second];
}

async function throttledAccount(store: Store) {
  const account = await store.accounts.createAccount('ops@example.com');
  const hook = await store.channels.createChannel(account.id, {
    type: 'webhook',
    description: 'ops hook',
    destination: 'https://hooks.example/ops',
    autoResolve: false,
    throttle: { max_notifications: 2, window_minutes: 60 },
  });
  const mail = await store.channels.createChannel(account.id, { type: 'email', description: 'mail', destination: 'ops@example.com', autoResolve: false });
  const alerts = [];
  for (const name of ['disk-1', 'disk-2', 'disk-3', 'disk-4']) alerts.push(await store.alerts.createAlert(account.id, alertOn(name, [hook.id, mail.id])));
  return { account, hook, mail, alerts };
}

/** What run-cycle writes for one transition: the state, a history entry per channel, a delivery per channel. */
function transition(alertId: string, name: string, event: 'alerting' | 'recovered', channels: string[], at: number): EvaluationUpdate {
  const value = event === 'alerting' ? 95 : 40;
  const notification = { event, alert: { id: alertId, name }, triggered: [{ metric: `disk.${name}`, value }], time: Math.floor(at / 1000) };
  return {
    alertId,
    status: event === 'alerting' ? 'alerting' : 'healthy', currentlyTriggeredMetrics: [], evalState: null,
    history: channels.map((channelId) => ({ status: 'notification_sent', value, metric: `disk.${name}`, time: Math.floor(at / 1000), channelId, reason: event })),
    deliveries: channels.map((channelId) => ({ channelId, event, payload: notification, createdAt: at })),
  };
}

describe.each(BACKENDS)('a channel throttle on $name', (backend) => {
  if (backend.skip) {
    it.skip(`needs ${backend.reason}`, () => undefined);
    return;
  }

  it('sends 2 per window, holds the rest with the reason in history, and one summary lists exactly what was held, with two delivery workers racing', async () => {
    const [store, replica] = await twoStores(backend);
    const { account, hook, mail, alerts } = await throttledAccount(store);
    const [a1, a2, a3, a4] = alerts;
    const channels = [hook.id, mail.id];
    await store.evaluation.saveEvaluations([transition(a1!.id, 'disk-1', 'alerting', channels, T0), transition(a2!.id, 'disk-2', 'alerting', channels, T0)]);
    await replica.evaluation.saveEvaluations([transition(a3!.id, 'disk-3', 'alerting', channels, T0 + 10 * MINUTE)]);
    await store.evaluation.saveEvaluations([transition(a4!.id, 'disk-4', 'alerting', channels, T0 + 20 * MINUTE)]);
    await replica.evaluation.saveEvaluations([transition(a1!.id, 'disk-1', 'recovered', channels, T0 + 30 * MINUTE)]);

    const pending = await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 100 });
    // The unthrottled channel gets all five; the throttled one its first two, and the resolve (never held, no slot).
    expect(pending.items.filter((d) => d.channel.id === mail.id)).toHaveLength(5);
    expect(pending.items.filter((d) => d.channel.id === hook.id).map((d) => `${d.alert.name}:${d.event}`)).toEqual(['disk-1:alerting', 'disk-2:alerting', 'disk-1:recovered']);
    const held = await store.outbox.listDeliveries(account.id, { states: ['held'], page: 1, max: 100 });
    expect(held.items.map((d) => [d.alert.name, d.event, d.state, d.channel.description, d.nextAttemptAt])).toEqual([
      ['disk-3', 'alerting', 'held', 'ops hook', T0 + 60 * MINUTE],
      ['disk-4', 'alerting', 'held', 'ops hook', T0 + 60 * MINUTE],
    ]);
    const timeline = await store.console.listTimeline(account.id, a3!.id, 0, 50);
    expect(timeline.filter((entry) => entry.channel?.id === hook.id).map((entry) => [entry.kind, entry.reason])).toEqual([
      ['notification_suppressed', 'alerting: throttled: channel ops hook sent 2 in the last 1h; in the summary at 11:00 UTC'],
    ]);
    expect(timeline.filter((entry) => entry.channel?.id === mail.id).map((entry) => entry.kind)).toEqual(['notification_sent']);

    // Two workers (on PostgreSQL, one per replica's pool) send everything once the window has ended.
    const sent: { channel: string; notification: Notification }[] = [];
    const clock = T0 + 60 * MINUTE + 1;
    const workers: DeliveryWorker[] = [store, replica].map((one) =>
      startDeliveryWorker({ store: one.outbox, now: () => clock, pollMs: 20, send: async (channel, notification) => void sent.push({ channel: channel.description, notification }) }),
    );
    cleanups.push(async () => void (await Promise.all(workers.map((worker) => worker.stop(100)))));
    await until(async () => sent.length, (count) => count >= 9);
    await Promise.all(workers.map((worker) => worker.idle()));
    // Both workers also close windows by hand at once: still one summary.
    expect((await Promise.all([store.outbox.closeThrottleWindows(clock), replica.outbox.closeThrottleWindows(clock)])).reduce((a, b) => a + b)).toBe(0);

    const toHook = sent.filter((one) => one.channel === 'ops hook').map((one) => one.notification);
    expect(toHook.map((n) => n.event).sort()).toEqual(['alerting', 'alerting', 'recovered', 'throttled_summary']);
    expect(sent.filter((one) => one.channel === 'mail')).toHaveLength(5);
    const summary = toHook.find((n) => n.event === 'throttled_summary')!;
    expect(summary.throttled).toEqual({
      channel: 'ops hook',
      max_notifications: 2,
      window_minutes: 60,
      window_start: T0 / 1000,
      window_end: T0 / 1000 + 3600,
      held_count: 2,
      held: [
        { alert_id: a3!.id, alert_name: 'disk-3', event: 'alerting', metric: 'disk.disk-3', value: 95, time: T0 / 1000 + 600 },
        { alert_id: a4!.id, alert_name: 'disk-4', event: 'alerting', metric: 'disk.disk-4', value: 95, time: T0 / 1000 + 1200 },
      ],
    });
    const summarized = await store.outbox.listDeliveries(account.id, { states: ['summarized', 'held'], page: 1, max: 100 });
    expect(summarized.items.map((d) => d.state)).toEqual(['summarized', 'summarized']);
    const delivered = await store.outbox.listDeliveries(account.id, { states: ['delivered'], page: 1, max: 100 });
    expect(delivered.items.filter((d) => d.event === 'throttled_summary').map((d) => [d.alert.name, d.channel.description])).toEqual([
      ['throttled notifications', 'ops hook'],
    ]);

    // The next notification opens a new window, and goes out.
    await store.evaluation.saveEvaluations([transition(a3!.id, 'disk-3', 'alerting', channels, T0 + 61 * MINUTE)]);
    const next = await store.outbox.listDeliveries(account.id, { states: ['pending', 'held'], page: 1, max: 100 });
    expect(next.items.map((d) => `${d.channel.description}:${d.alert.name}:${d.event}:${d.state}`).sort()).toEqual([
      'mail:disk-3:alerting:pending',
      'ops hook:disk-3:alerting:pending',
    ]);
  });

  it('lets exactly max_notifications through when replicas save at the same moment', async () => {
    const [store, replica] = await twoStores(backend);
    const { account, hook, alerts } = await throttledAccount(store);
    const saves = Array.from({ length: 12 }, (_, i) => {
      const alert = alerts[i % alerts.length]!;
      return (i % 2 === 0 ? store : replica).evaluation.saveEvaluations([transition(alert.id, alert.name, i % 3 === 0 ? 'recovered' : 'alerting', [hook.id], T0 + i)]);
    });
    await Promise.all(saves);
    const pending = await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 100 });
    const held = await store.outbox.listDeliveries(account.id, { states: ['held'], page: 1, max: 100 });
    // Eight alerting notifications compete for two slots; the four resolves take none. A resolve passes, unless the
    // alerting it resolves is held in this window (then it waits beside it for the summary: nothing is resolved
    // before it was announced), which depends on which replica saved first.
    const count = (list: typeof pending.items, event: string) => list.filter((d) => d.event === event).length;
    expect([count(pending.items, 'alerting'), count(held.items, 'alerting')]).toEqual([2, 6]);
    expect(count(pending.items, 'recovered') + count(held.items, 'recovered')).toBe(4);
    const heldAlerting = new Set(held.items.filter((d) => d.event === 'alerting').map((d) => d.alert.name));
    for (const resolve of held.items.filter((d) => d.event === 'recovered')) expect(heldAlerting.has(resolve.alert.name)).toBe(true);
    // Four windows' closers at once make one summary of all that is held.
    const made = await Promise.all([store, replica, store, replica].map((one) => one.outbox.closeThrottleWindows(T0 + 60 * MINUTE + 20)));
    expect(made.reduce((a, b) => a + b)).toBe(1);
    const summaries = await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 100 });
    expect(summaries.items.filter((d) => d.event === 'throttled_summary')).toHaveLength(1);
  });
});
