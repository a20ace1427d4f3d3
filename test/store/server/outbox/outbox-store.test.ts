import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { alertWrite, storeBackends } from '../../../helpers/store-backends.js';
import type { AlertWrite, Store } from '../../../../src/server/store/store.js';
import type { DeliveryOutcome } from '../../../../src/server/store/outbox.js';
import { until } from '../../../helpers/until.js';

/** The stores this suite runs against: each backend's outbox must give the same answers. */
const BACKENDS = storeBackends().map((backend) => ({ ...backend, open: () => backend.openStore() }));
afterAll(async () => {
  for (const backend of BACKENDS) await backend.dispose();
});

const stores: Store[] = [];
afterEach(async () => {
  while (stores.length) await stores.pop()!.close();
});

const T0 = 1_800_000_000_000;

/** An alert of `name` on `channels`, notified on state changes (the shared fixture otherwise). */
function alertOn(name: string, channels: string[]): AlertWrite {
  return alertWrite(channels[0]!, { name, metric: `m.${name}`, notificationChannels: channels, notificationType: ['state_change'] });
}

/** A store with one account, two channels and two alerts on both, and a helper writing a transition's deliveries. */
async function outboxStore(open: () => Promise<Store>) {
  const store = await open();
  stores.push(store);
  const account = await store.accounts.createAccount('ops@example.com');
  const hook = await store.channels.createChannel(account.id, { type: 'webhook', description: 'hook', destination: 'https://secret.example/hook?token=s3cret', autoResolve: false });
  const pd = await store.channels.createChannel(account.id, { type: 'pagerduty', description: 'pd', destination: 'R0UTINGKEY', autoResolve: true, template: { title: '{{summary}}' } });
  const a = await store.alerts.createAlert(account.id, alertOn('a', [hook.id, pd.id]));
  const b = await store.alerts.createAlert(account.id, alertOn('b', [hook.id, pd.id]));
  const write = (alertId: string, event: string, createdAt = T0, channels = [hook.id, pd.id]) =>
    store.evaluation.saveEvaluations([
      {
        alertId,
        status: event === 'alerting' ? 'alerting' : 'healthy', currentlyTriggeredMetrics: [], evalState: null,
        history: [],
        deliveries: channels.map((channelId) => ({ channelId, event, payload: { event, alert: { id: alertId } }, createdAt })),
      },
    ]);
  return { store, account, hook, pd, a, b, write };
}

const finish = (store: Store, id: string, worker: string, outcome: DeliveryOutcome) => store.outbox.finishDeliveries([{ id, worker, outcome }]);
const claim = (store: Store, worker: string, now: number, limit = 100, leaseMs = 10_000) => store.outbox.claimDueDeliveries({ worker, now, leaseMs, limit });
const label = (rows: { channel: { description: string }; payload: unknown }[]) =>
  rows.map((row) => `${row.channel.description}:${(row.payload as { event: string }).event}`);

describe.each(BACKENDS)('the outbox on $name', ({ open, skip, reason }) => {
  if (skip) {
    it.skip(`needs ${reason}`, () => undefined);
    return;
  }
  it('writes deliveries with their transition and claims only the oldest pending one per channel and alert', async () => {
    const { store, account, hook, a, b, write } = await outboxStore(open);
    await write(a.id, 'alerting');
    await write(a.id, 'recovered');
    await write(b.id, 'alerting');
    const first = await claim(store, 'w1', T0);
    // a's recovery waits for a's trigger on each channel; b is independent of a.
    expect(label(first)).toEqual(['hook:alerting', 'pd:alerting', 'hook:alerting', 'pd:alerting']);
    expect(first.map((row) => row.alertId)).toEqual([a.id, a.id, b.id, b.id]);
    // The claim carries the channel's template as it is now: a template changed meanwhile applies to waiting rows.
    expect(first[1]!.channel).toEqual({ id: first[1]!.channel.id, type: 'pagerduty', description: 'pd', destination: 'R0UTINGKEY', autoResolve: true, template: { title: '{{summary}}' } });
    // Claimed rows are not claimed twice, and the recoveries are still held back by their pending triggers.
    expect(await claim(store, 'w2', T0 + 1)).toEqual([]);

    // A failed trigger (rescheduled) still holds its recovery back: a resolve never overtakes its trigger.
    const hookTriggerOfA = first[0]!;
    await finish(store, hookTriggerOfA.id, 'w1', { state: 'pending', at: T0 + 2, nextAttemptAt: T0 + 5_000, error: 'webhook answered HTTP 503' });
    for (const row of first.slice(1)) await finish(store, row.id, 'w1', { state: 'delivered', at: T0 + 2 });
    // The recovery queued behind the retried trigger waits for the trigger's retry time: no claim looks at it before.
    const waiting = (await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 10 })).items;
    expect(waiting.filter((d) => d.channel.id === hook.id && d.alert.id === a.id).map((d) => [d.event, d.nextAttemptAt])).toEqual([
      ['alerting', T0 + 5_000],
      ['recovered', T0 + 5_000],
    ]);
    const second = await claim(store, 'w1', T0 + 3);
    expect(label(second)).toEqual(['pd:recovered']);
    await finish(store, second[0]!.id, 'w1', { state: 'delivered', at: T0 + 4 });
    expect(await claim(store, 'w1', T0 + 4_999)).toEqual([]);
    const third = await claim(store, 'w1', T0 + 5_000);
    expect(third.map((row) => [row.id, row.attempts])).toEqual([[hookTriggerOfA.id, 1]]);
    await finish(store, third[0]!.id, 'w1', { state: 'delivered', at: T0 + 5_001 });
    expect(label(await claim(store, 'w1', T0 + 5_002))).toEqual(['hook:recovered']);
  });

  it('claims only the due rows a fair-share filter admits in either pass, oldest first, and leaves the others due for a later claim', async () => {
    const { store, account, a, b, write } = await outboxStore(open);
    await write(a.id, 'alerting');
    await write(b.id, 'alerting');
    const offered: string[] = [];
    const picky = await store.outbox.claimDueDeliveries({
      worker: 'w1',
      now: T0,
      leaseMs: 10_000,
      limit: 100,
      admit: (candidate, pass) => {
        expect(candidate.accountId).toBe(account.id);
        offered.push(`${pass} ${candidate.destination}`);
        return candidate.destination === 'R0UTINGKEY';
      },
    });
    // The window in order for the share pass, then what it refused for the spare pass.
    const HOOK = 'https://secret.example/hook?token=s3cret';
    expect(offered).toEqual([`share ${HOOK}`, 'share R0UTINGKEY', `share ${HOOK}`, 'share R0UTINGKEY', `spare ${HOOK}`, `spare ${HOOK}`]);
    expect(label(picky)).toEqual(['pd:alerting', 'pd:alerting']);
    expect(picky.map((row) => [row.alertId, row.accountId])).toEqual([[a.id, account.id], [b.id, account.id]]);
    // The refused rows were never claimed: the next claim takes them, unless it skips their destination or account.
    const skipping = (skip: { accounts: string[]; destinations: string[] }) =>
      store.outbox.claimDueDeliveries({ worker: 'w2', now: T0, leaseMs: 10_000, limit: 100, admit: () => true, skip });
    expect(await skipping({ accounts: [], destinations: [HOOK] })).toEqual([]);
    expect(await skipping({ accounts: [account.id], destinations: [] })).toEqual([]);
    expect(label(await skipping({ accounts: ['someone-else'], destinations: ['R0UTINGKEY'] }))).toEqual(['hook:alerting', 'hook:alerting']);
  });

  it('gives the rows of a worker that died back after its lease, and ignores the late answer of a lost claim', async () => {
    const { store, account, hook, a, write } = await outboxStore(open);
    await write(a.id, 'alerting', T0, [hook.id]);
    const [row] = await claim(store, 'dead-worker', T0, 100, 1_000);
    expect(await claim(store, 'w2', T0 + 999)).toEqual([]);
    // SQLite runs the claim's lease on the caller's clock (`now`); PostgreSQL on its own, whatever a replica's
    // clock says (one that jumps ahead must not take the others' claims): there the lease really passes.
    const [again] = await until(() => claim(store, 'w2', T0 + 1_000), (rows) => rows.length > 0, 5_000);
    expect(again!.id).toBe(row!.id);
    // The first worker comes back from a long pause: its outcome no longer counts.
    await finish(store, row!.id, 'dead-worker', { state: 'dead', at: T0 + 10_001, error: 'webhook answered HTTP 400' });
    expect((await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 10 })).items).toHaveLength(1);
    await finish(store, again!.id, 'w2', { state: 'delivered', at: T0 + 10_002 });
    expect((await store.outbox.listDeliveries(account.id, { states: ['delivered'], page: 1, max: 10 })).items).toMatchObject([{ id: row!.id, attempts: 1 }]);
  });

  it("moves the channel's last_error with each outcome and counts pending deliveries per channel", async () => {
    const { store, account, hook, pd, a, b, write } = await outboxStore(open);
    await write(a.id, 'alerting', T0);
    await write(b.id, 'alerting', T0 + 1_000, [hook.id]);
    expect(await store.outbox.summarizePendingDeliveries(account.id, [hook.id, pd.id])).toEqual(
      new Map([
        [hook.id, { count: 2, oldestCreatedAt: T0 }],
        [pd.id, { count: 1, oldestCreatedAt: T0 }],
      ]),
    );
    const rows = await claim(store, 'w', T0 + 2_000);
    const hookRow = rows.find((row) => row.channel.id === hook.id)!;
    await finish(store, hookRow.id, 'w', { state: 'dead', at: T0 + 3_000, error: 'webhook answered HTTP 404' });
    expect((await store.channels.getChannel(account.id, hook.id))!.lastError).toEqual({ time: Math.floor((T0 + 3_000) / 1000), message: 'webhook answered HTTP 404' });
    const dead = await store.outbox.listDeliveries(account.id, { states: ['dead'], page: 1, max: 10 });
    expect(dead.items).toMatchObject([{ state: 'dead', event: 'alerting', attempts: 1, nextAttemptAt: null, lastError: 'webhook answered HTTP 404', alert: { name: 'a' } }]);
    expect(JSON.stringify(dead)).not.toContain('s3cret');
    const other = rows.find((row) => row.channel.id === hook.id && row.id !== hookRow.id)!;
    await finish(store, other.id, 'w', { state: 'delivered', at: T0 + 4_000 });
    expect((await store.channels.getChannel(account.id, hook.id))!.lastError).toBeNull();
    // Another account sees none of it.
    const stranger = await store.accounts.createAccount('else@example.com');
    expect((await store.outbox.listDeliveries(stranger.id, { states: ['pending', 'dead'], page: 1, max: 10 })).items).toEqual([]);
    expect(await store.outbox.summarizePendingDeliveries(stranger.id, [hook.id])).toEqual(new Map());
  });

  it('pages the listing, drops deliveries of a deleted channel, and prunes finished rows', async () => {
    const { store, account, hook, pd, a, write } = await outboxStore(open);
    for (let i = 0; i < 5; i += 1) await write(a.id, i % 2 ? 'recovered' : 'alerting', T0 + i);
    const page1 = await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 4 });
    const page2 = await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 2, max: 4 });
    expect([page1.items.length, page1.nextPage, page2.items.length, page2.nextPage]).toEqual([4, true, 4, true]);
    await store.channels.deleteChannel(account.id, pd.id);
    expect((await store.outbox.listDeliveries(account.id, { states: ['pending'], page: 1, max: 100 })).items.map((d) => d.channel.id)).toEqual(Array(5).fill(hook.id));
    const [row] = await claim(store, 'w', T0 + 10);
    await finish(store, row!.id, 'w', { state: 'delivered', at: T0 + 20 });
    expect(await store.outbox.pruneDeliveries(T0 + 20, T0)).toBe(0);
    expect(await store.outbox.pruneDeliveries(T0 + 21, T0)).toBe(1);
  });
});
