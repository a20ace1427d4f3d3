import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { alertWrite, storeBackends } from '../../../helpers/store-backends.js';
import { openStore } from '../../../../src/server/store/open-store.js';
import type { Store } from '../../../../src/server/store/store.js';
import type { EvaluationUpdate } from '../../../../src/server/store/evaluation-store.js';
import type { Notification } from '../../../../src/notifications/types.js';

const BACKENDS = storeBackends();
afterAll(async () => {
  for (const backend of BACKENDS) await backend.dispose();
});
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);

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

/** What run-cycle writes for one alert's transition notifying `series` on one channel. */
function transition(alertId: string, event: 'alerting' | 'recovered', series: string[], channelId: string, at: number): EvaluationUpdate {
  const notification = { event, alert: { id: alertId, name: alertId }, triggered: series.map((metric) => ({ metric, value: 1 })), time: Math.floor(at / 1000) };
  return {
    alertId,
    status: event === 'alerting' ? 'alerting' : 'healthy',
    currentlyTriggeredMetrics: event === 'alerting' ? series : [],
    evalState: null,
    // As a cycle's transition writes them: its alerting entries, then what it sent.
    history: [
      ...(event === 'alerting' ? series.map((metric) => ({ status: 'alerting' as const, value: 1, metric, time: Math.floor(at / 1000) })) : []),
      { status: 'notification_sent', value: 1, metric: series[0]!, time: Math.floor(at / 1000), channelId, reason: event },
    ],
    deliveries: [{ channelId, event, payload: notification, createdAt: at }],
  };
}

describe.each(BACKENDS)('grouped delivery on $name', (backend) => {
  if (backend.skip) {
    it.skip(`needs ${backend.reason}`, () => undefined);
    return;
  }

  it('keeps members until their group is due, then makes exactly one message per group however many closers race', async () => {
    const [store, replica] = await twoStores(backend);
    const account = await store.accounts.createAccount('ops@example.com');
    const hook = await store.channels.createChannel(account.id, {
      type: 'webhook', description: 'dc hook', destination: 'https://hooks.example/dc', autoResolve: false,
      groupBy: { nodes: [1], wait_seconds: 5, interval_seconds: 60 },
    });
    const alerts = [];
    for (let i = 0; i < 5; i += 1) alerts.push(await store.alerts.createAlert(account.id, alertWrite(hook.id, { name: `cpu-${i}`, metric: `servers.*.*.cpu${i}` })));
    // Five alerts, each with five series in dc1 and five in dc2: fifty members, split in two saves by two replicas.
    const series = (i: number) => ['dc1', 'dc2'].flatMap((dc) => [0, 1, 2, 3, 4].map((h) => `servers.${dc}.web${h}.cpu${i}`));
    await store.evaluation.saveEvaluations(alerts.slice(0, 3).map((alert, i) => transition(alert.id, 'alerting', series(i), hook.id, T0)));
    await replica.evaluation.saveEvaluations(alerts.slice(3).map((alert, i) => transition(alert.id, 'alerting', series(i + 3), hook.id, T0 + 1_000)));
    // Nothing in the outbox itself, and nothing due before the wait.
    expect((await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 100 })).items).toHaveLength(0);
    expect(await store.outbox.closeDeliveryGroups(T0 + 4_999)).toBe(0);
    const made = await Promise.all([store, replica, store, replica].map((one) => one.outbox.closeDeliveryGroups(T0 + 5_000)));
    // A call closes groups within a time budget and leaves the rest to the next call (on a loaded machine one group
    // can use it all): one more call after the race, and two messages in all, never more.
    made.push(await store.outbox.closeDeliveryGroups(T0 + 5_000));
    expect(made.reduce((a, b) => a + b)).toBe(2);
    const pending = (await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 100 })).items;
    expect(pending.map((delivery) => delivery.event)).toEqual(['grouped', 'grouped']);
    const claimed = await store.outbox.claimDueDeliveries({ worker: 'w', now: T0 + 5_000, leaseMs: 60_000, limit: 10 });
    const messages = claimed.map((delivery) => (delivery.payload as Notification).grouped!).sort((a, b) => a.group_key.localeCompare(b.group_key));
    expect(messages.map((message) => [message.group_key, message.count, message.members.length])).toEqual([
      ['dc1', 25, 10],
      ['dc2', 25, 10],
    ]);
    // A resolve within the interval waits for it to end, then goes in the next message of its group.
    await store.evaluation.saveEvaluations([transition(alerts[0]!.id, 'recovered', series(0).slice(0, 5), hook.id, T0 + 10_000)]);
    expect(await store.outbox.closeDeliveryGroups(T0 + 64_999)).toBe(0);
    expect(await store.outbox.closeDeliveryGroups(T0 + 65_000)).toBe(1);
    const timeline = await store.console.listTimeline(account.id, alerts[0]!.id, 0, 100);
    const grouped = timeline.filter((entry) => entry.kind === 'grouped').map((entry) => entry.reason);
    // Newest first: the resolve's message, then the two of the outage (made at the same time, in either order).
    expect(grouped[0]).toBe('in one message to dc hook for dc1: 5 of its notifications among 5');
    expect(grouped.slice(1).sort()).toEqual([
      'in one message to dc hook for dc1: 5 of its notifications among 25',
      'in one message to dc hook for dc2: 5 of its notifications among 25',
    ]);
  });
});

describe.each(BACKENDS)('a dependency held at the save on $name', (backend) => {
  if (backend.skip) {
    it.skip(`needs ${backend.reason}`, () => undefined);
    return;
  }

  it("holds a child's alerting while its parent's series of the same host alerts, in the stored state or the same round", async () => {
    const store = await backend.openStore();
    cleanups.push(() => store.close());
    const account = await store.accounts.createAccount('ops@example.com');
    const hook = await store.channels.createChannel(account.id, { type: 'webhook', description: 'hook', destination: 'https://hooks.example/a', autoResolve: false });
    const ping = await store.alerts.createAlert(account.id, alertWrite(hook.id, { name: 'ping', metric: 'hosts.*.ping' }));
    const disk = await store.alerts.createAlert(account.id, alertWrite(hook.id, { name: 'disk', metric: 'hosts.*.disk', dependsOn: [{ alert: ping.id, nodes: [1] }] }));
    const state = JSON.stringify({ version: 1, status: 'alerting', triggered: [], lastNotifiedAt: 1, alertingNotified: true, pagedChannels: [hook.id], queryFailing: false, queryFailureNotified: false, alertingSince: 1 });
    // The parent and the child of host a alert in the same round: the child's page is held.
    await store.evaluation.saveEvaluations([
      transition(ping.id, 'alerting', ['hosts.a.ping'], hook.id, T0),
      { ...transition(disk.id, 'alerting', ['hosts.a.disk'], hook.id, T0), evalState: state },
    ]);
    let pending = (await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 100 })).items;
    expect(pending.map((delivery) => delivery.alert.name)).toEqual(['ping']);
    const timeline = await store.console.listTimeline(account.id, disk.id, 0, 100);
    expect(timeline.filter((entry) => entry.kind !== 'alerting').map((entry) => [entry.kind, entry.reason])).toEqual([['held', 'depends on ping, which is alerting']]);
    // Its stored state says nobody was told: no resolve is owed.
    const stored = await store.alerts.getAlert(account.id, disk.id);
    expect(JSON.parse(stored!.evalState!)).toMatchObject({ alertingNotified: false });
    expect(stored!.evalState).not.toHaveProperty('pagedChannels');
    // Host b's disk is not under an alerting ping series: it pages.
    await store.evaluation.saveEvaluations([transition(disk.id, 'alerting', ['hosts.b.disk'], hook.id, T0 + 1_000)]);
    pending = (await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 100 })).items;
    expect(pending.map((delivery) => delivery.alert.name)).toEqual(['ping', 'disk']);
  });

  it("decides from the state another replica committed: the parent saved by one, the child's page held at the other's save", async () => {
    const [store, replica] = await twoStores(backend);
    const account = await store.accounts.createAccount('ops@example.com');
    const hook = await store.channels.createChannel(account.id, { type: 'webhook', description: 'hook', destination: 'https://hooks.example/a', autoResolve: false });
    const switchAlert = await store.alerts.createAlert(account.id, alertWrite(hook.id, { name: 'switch', metric: 'racks.*.switch' }));
    const ping = await store.alerts.createAlert(account.id, alertWrite(hook.id, { name: 'ping', metric: 'racks.*.ping', dependsOn: [{ alert: switchAlert.id }] }));
    const disk = await store.alerts.createAlert(account.id, alertWrite(hook.id, { name: 'disk', metric: 'racks.*.disk', dependsOn: [{ alert: ping.id }] }));
    await store.evaluation.saveEvaluations([transition(switchAlert.id, 'alerting', ['racks.r1.switch'], hook.id, T0)]);
    // The chain holds through each link: ping (held by switch) is alerting, so disk is held too.
    await replica.evaluation.saveEvaluations([transition(ping.id, 'alerting', ['racks.r1.ping'], hook.id, T0 + 1_000)]);
    await replica.evaluation.saveEvaluations([transition(disk.id, 'alerting', ['racks.r1.disk'], hook.id, T0 + 2_000)]);
    const pending = (await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 100 })).items;
    expect(pending.map((delivery) => delivery.alert.name)).toEqual(['switch']);
    const held = async (id: string) => (await store.console.listTimeline(account.id, id, 0, 100)).filter((entry) => entry.kind === 'held').map((entry) => entry.reason);
    expect([await held(ping.id), await held(disk.id)]).toEqual([['depends on switch, which is alerting'], ['depends on ping, which is alerting']]);
  });
});
