import { afterEach, expect, it } from 'vitest';
import pg from 'pg';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSeries, startFakeRender } from '../../../helpers/fake-render-server.js';
import { runEvaluationCycle } from '../../../../src/server/evaluator/run-cycle.js';
import { createGraphiteClient } from '../../../../src/graphite/render-client.js';
import { alertWrite, describeEachStore } from '../../../helpers/store-backends.js';
import { until } from '../../../helpers/until.js';
import { openStore } from '../../../../src/server/store/open-store.js';
import type { AckWrite } from '../../../../src/server/store/ack-store.js';
import type { EvaluationAlert, EvaluationUpdate } from '../../../../src/server/store/evaluation-store.js';
import type { Store } from '../../../../src/server/store/store.js';
import type { EvaluationLease } from '../../../../src/server/store/evaluation-store.js';

const NOW = 1_800_000_000_000;
const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** A paged listing as the evaluator asks for it (pages of two): every record handed over, in order. */
async function listPaged(store: Store, now = NOW, lease?: EvaluationLease): Promise<EvaluationAlert[]> {
  const all: EvaluationAlert[] = [];
  expect(await store.evaluation.listAlertsForEvaluation(now, lease, { size: 2, onPage: (page) => void all.push(...page) })).toEqual([]);
  return all;
}

/** Whether two listings handed over the very same record objects (the second served from the kept listing). */
const kept = (before: EvaluationAlert[], after: EvaluationAlert[]) => before.length === after.length && before.every((record, i) => record === after[i]);

/** Lists until a listing is served from the kept one (on PostgreSQL the LISTEN connection starts first), answers it. */
async function warm(store: Store, lease?: EvaluationLease): Promise<EvaluationAlert[]> {
  let last = await listPaged(store, NOW, lease);
  await until(
    async () => {
      const next = await listPaged(store, NOW, lease);
      const served = kept(last, next);
      last = next;
      return served;
    },
    (served) => served,
  );
  return last;
}

/** An update as the evaluator saves it, without history or deliveries. */
const update = (alertId: string, status: 'healthy' | 'alerting', metrics: string[], evalState: string | null): EvaluationUpdate => ({
  alertId,
  status,
  currentlyTriggeredMetrics: metrics,
  evalState,
  history: [],
  deliveries: [],
});

function ackWrite(at: number, until: number | null = null): AckWrite {
  return {
    acknowledgement: { by: 'ann', note: null, at, until },
    history: { status: 'acknowledged', value: null, metric: '', time: at, channelId: null, reason: 'by ann' },
    deliveries: [],
  };
}

describeEachStore('the evaluator\'s kept listing on %s', (backend) => {
  const opened: Store[] = [];
  afterEach(async () => {
    while (opened.length) await opened.pop()!.close();
  });

  async function setUp(store?: Store) {
    const s = store ?? (await backend.openStore());
    opened.push(s);
    const account = await s.accounts.createAccount('ops@example.com');
    const channel = await s.channels.createChannel(account.id, { type: 'webhook', description: 'hook', destination: 'https://hooks.example/x', autoResolve: false });
    const first = await s.alerts.createAlert(account.id, alertWrite(channel.id, { name: 'first' }));
    const second = await s.alerts.createAlert(account.id, alertWrite(channel.id, { name: 'second', metric: 'host.*.mem' }));
    return { store: s, account: account.id, channel: channel.id, first: first.id, second: second.id };
  }

  it('serves the same records again while nothing changes, with muted and acknowledged decided at each cycle\'s time', async () => {
    const { store, account, first } = await setUp();
    await store.alerts.setMutedUntil(account, { ids: [first], search: null }, NOW + 60_000);
    const listed = await warm(store);
    expect(listed.map((alert) => [alert.name, alert.muted])).toEqual([['first', true], ['second', false]]);
    // A minute later the same kept records, the mute over.
    const later = await listPaged(store, NOW + 120_000);
    expect(kept(listed, later)).toBe(true);
    expect(later.map((alert) => alert.muted)).toEqual([false, false]);
    // What a listing from the store would say at that time.
    expect(await store.evaluation.listAlertsForEvaluation(NOW + 120_000)).toEqual(later);
  });

  it('applies the evaluator\'s own saves to the kept records instead of listing again', async () => {
    const { store, first } = await setUp();
    const listed = await warm(store);
    await store.evaluation.saveEvaluations([update(first, 'alerting', ['host.1.cpu'], '{"status":"alerting"}')]);
    const next = await listPaged(store);
    expect(kept(listed, next)).toBe(true);
    expect(next[0]).toMatchObject({ status: 'alerting', currentlyTriggeredMetrics: ['host.1.cpu'], evalState: '{"status":"alerting"}' });
    // The same values (the triggered metrics shared and frozen) as a listing from the store.
    expect(await store.evaluation.listAlertsForEvaluation(NOW)).toEqual(next);
    expect(Object.isFrozen(next[0]!.currentlyTriggeredMetrics)).toBe(true);
  });

  it('lists again after a save that ends an acknowledgement, and after a lease with other partitions or tokens', async () => {
    const { store, account, first } = await setUp();
    await store.evaluation.saveEvaluations([update(first, 'alerting', ['host.1.cpu'], null)]);
    await store.acks.acknowledgeAlert(account, first, ackWrite(NOW / 1000 - 10));
    const listed = await warm(store);
    expect(listed[0]).toMatchObject({ acknowledged: true, acknowledgedAt: NOW / 1000 - 10 });
    // The recovery clears the acknowledgement in the store: the next listing reads that.
    await store.evaluation.saveEvaluations([update(first, 'healthy', [], null)]);
    const recovered = await listPaged(store);
    expect(kept(listed, recovered)).toBe(false);
    expect(recovered[0]).toMatchObject({ status: 'healthy', acknowledged: false, acknowledgedAt: null });

    const lease = (tokens: [number, number][]): EvaluationLease => ({ replica: 'r', tokens: new Map(tokens), partitionCount: 4 });
    const underA = await warm(store, lease([[0, 1], [1, 1], [2, 1], [3, 1]]));
    expect(kept(underA, await listPaged(store, NOW, lease([[3, 1], [2, 1], [1, 1], [0, 1]])))).toBe(true);
    // A partition taken over and back (its token moved), or one partition fewer: listed again.
    const moved = await listPaged(store, NOW, lease([[0, 1], [1, 1], [2, 1], [3, 3]]));
    expect(kept(underA, moved)).toBe(false);
    expect(kept(moved, await listPaged(store, NOW, lease([[0, 1], [1, 1], [2, 1]])))).toBe(false);
  });

  it('keeps only one of two listings read at once, never a mix of both', async () => {
    const { store, account, channel } = await setUp();
    for (let i = 0; i < 5; i += 1) await store.alerts.createAlert(account, alertWrite(channel, { name: `more-${i}` }));
    await warm(store);
    await store.alerts.createAlert(account, alertWrite(channel, { name: 'last' }));
    const [one, two] = await Promise.all([listPaged(store), listPaged(store)]);
    expect(one.map((alert) => alert.name)).toEqual(two.map((alert) => alert.name));
    const next = await warm(store);
    expect(next).toHaveLength(8);
    expect(next).toEqual(await store.evaluation.listAlertsForEvaluation(NOW));
  });

  /** Each write the listing reads, and what the next listing must show for it. */
  const writes: {
    name: string;
    write: (s: Awaited<ReturnType<typeof setUp>>) => Promise<unknown>;
    shows: (listed: EvaluationAlert[], s: Awaited<ReturnType<typeof setUp>>) => void;
  }[] = [
    {
      name: 'an alert created',
      write: ({ store, account, channel }) => store.alerts.createAlert(account, alertWrite(channel, { name: 'third' })),
      shows: (listed) => expect(listed.map((a) => a.name)).toEqual(['first', 'second', 'third']),
    },
    {
      name: 'an alert updated',
      write: ({ store, account, channel, first }) => store.alerts.updateAlert(account, first, alertWrite(channel, { name: 'first', alertCriteria: { type: 'above', above_value: 50 } })),
      shows: (listed) => expect(listed[0]!.alertCriteria).toEqual({ type: 'above', above_value: 50 }),
    },
    {
      name: 'an alert deleted',
      write: ({ store, account, first }) => store.alerts.deleteAlert(account, first),
      shows: (listed) => expect(listed.map((a) => a.name)).toEqual(['second']),
    },
    {
      name: 'an alert muted',
      write: ({ store, account, first }) => store.alerts.setMutedUntil(account, { ids: [first], search: null }, NOW + 60_000),
      shows: (listed) => expect(listed.map((a) => a.muted)).toEqual([true, false]),
    },
    {
      name: 'every alert muted in bulk, then unmuted',
      write: async ({ store, account }) => {
        await store.alerts.setMutedUntil(account, { ids: [], search: null }, NOW + 60_000);
        expect((await listPaged(store)).map((a) => a.muted)).toEqual([true, true]);
        await store.alerts.setMutedUntil(account, { ids: [], search: 'second' }, null);
      },
      shows: (listed) => expect(listed.map((a) => a.muted)).toEqual([true, false]),
    },
    {
      name: 'an alert acknowledged, then its acknowledgement withdrawn',
      write: async ({ store, account, first }) => {
        await store.evaluation.saveEvaluations([update(first, 'alerting', ['host.1.cpu'], null)]);
        await store.acks.acknowledgeAlert(account, first, ackWrite(NOW / 1000 - 5));
        expect((await listPaged(store))[0]).toMatchObject({ acknowledged: true });
        const entry = { status: 'unacknowledged', value: null, metric: '', time: NOW / 1000, channelId: null, reason: 'withdrawn' };
        await store.acks.withdrawAcknowledgement(account, first, entry);
      },
      shows: (listed) => expect(listed[0]).toMatchObject({ status: 'alerting', acknowledged: false, acknowledgedAt: null }),
    },
    {
      name: 'a schedule created, linked to an alert, changed, then deleted',
      write: async ({ store, account, channel, first }) => {
        const started = new Date(NOW - 5 * 60_000);
        const startTime = `${String(started.getUTCHours()).padStart(2, '0')}:${String(started.getUTCMinutes()).padStart(2, '0')}`;
        const schedule = await store.schedules.createSchedule(account, { name: 'window', startTime, duration: 60, timezone: 'UTC', repeat: [...WEEK], anchor: NOW });
        expect((await listPaged(store)).map((a) => a.muted)).toEqual([false, false]);
        await store.alerts.updateAlert(account, first, alertWrite(channel, { name: 'first', scheduledMutes: [schedule.id] }));
        expect((await listPaged(store)).map((a) => a.muted)).toEqual([true, false]);
        // Over before the cycle's time: no longer muting.
        await store.schedules.updateSchedule(account, schedule.id, { name: 'window', startTime, duration: 1, timezone: 'UTC', repeat: [...WEEK], anchor: NOW });
        expect((await listPaged(store)).map((a) => a.muted)).toEqual([false, false]);
        await store.schedules.updateSchedule(account, schedule.id, { name: 'window', startTime, duration: 60, timezone: 'UTC', repeat: [...WEEK], anchor: NOW });
        expect((await listPaged(store)).map((a) => a.muted)).toEqual([true, false]);
        await store.schedules.deleteSchedule(account, schedule.id);
      },
      shows: (listed) => expect(listed.map((a) => a.muted)).toEqual([false, false]),
    },
    {
      name: 'a channel deleted (its links and escalation steps rewritten)',
      write: async ({ store, account, channel, first }) => {
        const other = await store.channels.createChannel(account, { type: 'webhook', description: 'other', destination: 'https://hooks.example/y', autoResolve: false });
        await store.alerts.updateAlert(account, first, alertWrite(channel, { name: 'first', notificationChannels: [channel, other.id], escalation: [{ after_minutes: 10, notification_channels: [other.id] }] }));
        expect((await listPaged(store))[0]).toMatchObject({ notificationChannels: [channel, other.id], escalation: [{ after_minutes: 10, notification_channels: [other.id] }] });
        await store.channels.deleteChannel(account, other.id);
      },
      shows: (listed, { channel }) => expect(listed[0]).toMatchObject({ notificationChannels: [channel], escalation: [] }),
    },
  ];

  for (const { name, write, shows } of writes) {
    it(`lists again at the very next cycle after ${name}`, async () => {
      const setup = await setUp();
      const listed = await warm(setup.store);
      await write(setup);
      const next = await listPaged(setup.store);
      expect(kept(listed, next)).toBe(false);
      shows(next, setup);
      // The very listing a store read gives at that time.
      expect(await setup.store.evaluation.listAlertsForEvaluation(NOW)).toEqual(next);
    });
  }

  it('judges a change made between two cycles at the very next cycle, and saves nothing in a steady one', async () => {
    const { store, account, channel, first } = await setUp();
    const fake = await startFakeRender(async (request) => ({
      series: request.targets.map((target) => makeSeries(target === 'host.*.cpu' ? 'host.1.cpu' : 'host.1.mem', [95, 95], NOW / 1000, 30)),
    }));
    try {
      const cycle = () => runEvaluationCycle({ store: store.evaluation, graphite: createGraphiteClient({ baseUrl: fake.url }), now: () => NOW, pageSize: 1 });
      expect(await cycle()).toMatchObject({ alerts: 2, transitions: 2, saved: 2 });
      await until(cycle, (report) => report.saved === 0);
      const steady = await listPaged(store);
      expect(steady.map((alert) => alert.status)).toEqual(['alerting', 'alerting']);
      // The threshold raised above the data: the next cycle judges the new definition and recovers.
      await store.alerts.updateAlert(account, first, alertWrite(channel, { name: 'first', alertCriteria: { type: 'above', above_value: 99 } }));
      expect(await cycle()).toMatchObject({ transitions: 1, transitionsTo: { healthy: 1 }, saved: 1 });
      expect((await store.evaluation.listAlertsForEvaluation(NOW)).map((alert) => alert.status)).toEqual(['healthy', 'alerting']);
      expect(await cycle()).toMatchObject({ transitions: 0, saved: 0 });
    } finally {
      await fake.close();
    }
  });

  if (backend.name === 'sqlite') {
    it('sees a commit of another process on the same file at the very next listing', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'alertform-listing-'));
      try {
        const file = join(dir, 'alertform.db');
        const { store, account, first, channel } = await setUp(await openStore(file));
        const other = await openStore(file);
        opened.push(other);
        const listed = await warm(store);
        await other.alerts.updateAlert(account, first, alertWrite(channel, { name: 'renamed' }));
        // In the same turn of the event loop: the listing reads PRAGMA data_version afresh.
        const next = await listPaged(store);
        expect(kept(listed, next)).toBe(false);
        expect(next[0]).toMatchObject({ name: 'renamed' });
      } finally {
        while (opened.length) await opened.pop()!.close();
        await rm(dir, { recursive: true, force: true });
      }
    });
  }

  if (backend.name === 'postgres') {
    it('sees a write committed on another connection at the very next listing (the barrier), not the evaluator\'s saves of another', async () => {
      const url = await backend.createDb();
      const { store, account, first, channel } = await setUp(await openStore(url));
      const other = await openStore(url);
      opened.push(other);
      const listed = await warm(store);
      // Another replica's evaluator save (its partitions: nobody else lists them under the same token) tells nobody.
      await other.evaluation.saveEvaluations([update(first, 'alerting', ['host.1.cpu'], null)]);
      expect(kept(listed, await listPaged(store))).toBe(true);
      // Any other write does, and the next listing sees it without waiting.
      await other.alerts.updateAlert(account, first, alertWrite(channel, { name: 'renamed' }));
      const next = await listPaged(store);
      expect(next[0]).toMatchObject({ name: 'renamed', status: 'alerting' });
    });

    it('lists from the store while its LISTEN connection is lost, and keeps again once it is back', async () => {
      const url = await backend.createDb();
      const { store } = await setUp(await openStore(url));
      const listed = await warm(store);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'alertform-listen' AND datname = current_database()`);
      } finally {
        await admin.end();
      }
      // Notifications sent while it was away are lost: not one listing is served from what was kept before.
      const during = await until(() => listPaged(store), (records) => !kept(listed, records));
      expect(during.map((alert) => alert.name)).toEqual(['first', 'second']);
      const again = await warm(store);
      expect(kept(listed, again)).toBe(false);
    });

    it('drops the kept records after a failed (fenced) save', async () => {
      const { store, first } = await setUp();
      const lease = await store.evaluation.acquireEvaluationLeases('replica-a', 60_000);
      const listed = await warm(store, lease);
      const stale: EvaluationLease = { ...lease, tokens: new Map([...lease.tokens!].map(([partition, token]) => [partition, token + 1])) };
      await expect(store.evaluation.saveEvaluations([update(first, 'alerting', [], null)], stale)).rejects.toThrow();
      expect(kept(listed, await listPaged(store, NOW, lease))).toBe(false);
    });
  }
});
