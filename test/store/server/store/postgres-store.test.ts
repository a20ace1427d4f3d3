import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fencePartitions } from '../../../../src/server/store/postgres/evaluation-leases.js';
import { MIGRATIONS } from '../../../../src/server/store/postgres/migrations.js';
import { isUnavailable } from '../../../../src/server/store/postgres/pg-database.js';
import { openPostgresStore, type PostgresStore } from '../../../../src/server/store/postgres/postgres-store.js';
import { LeaseLost, alertPartition, type EvaluationLease, type EvaluationUpdate } from '../../../../src/server/store/evaluation-store.js';
import { StoreUnavailable } from '../../../../src/server/store/store.js';
import { postgresAvailability, startPostgres, type Postgres } from '../../../helpers/postgres.js';

// What only PostgreSQL has: versioned migrations in schema_migrations, several processes on one database, and a
// server that goes away and comes back. The Store contract itself is in store.test.ts, for both backends.
const availability = postgresAvailability();

// One cluster for the file, a fresh database per test.
let postgres: Postgres;
beforeAll(async () => {
  if (!availability.skip) postgres = await startPostgres();
});
afterAll(() => postgres?.stop());

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(availability.skip)('the PostgreSQL store', () => {
  it('records each migration in schema_migrations, and opening again changes nothing', async () => {
    const url = await postgres.createDatabase();
    await (await openPostgresStore(url)).close();
    await (await openPostgresStore(url)).close();
    const versions = await withClient(url, async (client) => (await client.query('SELECT version FROM schema_migrations ORDER BY version')).rows);
    expect(versions.map((row) => row.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
  });

  it('refuses a database whose schema is newer than the code, and leaves it as it was', async () => {
    const url = await postgres.createDatabase();
    await (await openPostgresStore(url)).close();
    await withClient(url, (client) => client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [MIGRATIONS.length + 1]));
    await expect(openPostgresStore(url)).rejects.toThrow(/newer than this alertform/);
    const count = await withClient(url, async (client) => (await client.query('SELECT count(*)::int AS n FROM schema_migrations')).rows[0].n);
    expect(count).toBe(MIGRATIONS.length + 1);
  });

  it('lets several replicas open an empty database at once: one migrates, the others wait and find it done', async () => {
    const url = await postgres.createDatabase();
    const stores = await Promise.all([1, 2, 3, 4].map(() => openPostgresStore(url)));
    const account = await stores[0]!.accounts.createAccount(null);
    await stores[1]!.accounts.addApiKey(account.id, 'shared-key');
    expect((await stores[3]!.accounts.findAccountByKey('shared-key'))?.id).toBe(account.id);
    await Promise.all(stores.map((store) => store.close()));
  });

  it('enforces uniqueness across connections: of two concurrent creates of one name exactly one wins', async () => {
    const url = await postgres.createDatabase();
    const [a, b] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    const account = await a!.accounts.createAccount(null);
    const channel = (await a!.channels.findChannelsByRefs(account.id, ['Email me']))[0]!.id;
    const write = {
      name: 'same', metric: 'm', alertCriteria: { type: 'above' as const, above_value: 1 }, additionalCriteria: {}, expression: 'a',
      notificationChannels: [channel], notificationType: ['every', 60] as ['every', number], scheduledMutes: [], info: null, onQueryFailure: null,
    };
    const results = await Promise.allSettled([a!.alerts.createAlert(account.id, write), b!.alerts.createAlert(account.id, write)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ name: 'UniqueViolation', field: 'name' });
    await Promise.all([a!.close(), b!.close()]);
  });

  it('answers StoreUnavailable while the server is down, and works again once it is back, on the same store', async () => {
    const url = await postgres.createDatabase();
    const store = await openPostgresStore(url, { connectionTimeoutMs: 2_000 });
    try {
      const account = await store.accounts.createAccount('a@example.com');
      await postgres.stopServer();
      await expect(store.accounts.findAccountByEmail('a@example.com')).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(store.accounts.createAccount(null)).rejects.toBeInstanceOf(StoreUnavailable);
      await postgres.startServer();
      expect((await store.accounts.findAccountByEmail('a@example.com'))?.id).toBe(account.id);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(availability.skip)('evaluation leases on PostgreSQL', () => {
  let url: string;
  let store: PostgresStore;
  let account: string;
  let channel: string;
  beforeEach(async () => {
    url = await postgres.createDatabase();
    store = await openPostgresStore(url);
    account = (await store.accounts.createAccount(null)).id;
    channel = (await store.channels.findChannelsByRefs(account, ['Email me']))[0]!.id;
  });
  afterEach(() => store.close());

  const createAlerts = async (count: number) => {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      ids.push(
        (
          await store.alerts.createAlert(account, {
            name: `a${index}`, metric: 'm', alertCriteria: { type: 'above', above_value: 1 }, additionalCriteria: {}, expression: 'a',
            notificationChannels: [channel], notificationType: ['every', 60], scheduledMutes: [], info: null, onQueryFailure: null,
          })
        ).id,
      );
    }
    return ids;
  };
  const held = (lease: EvaluationLease) => [...lease.tokens!.keys()].sort((x, y) => x - y);
  const alerting = (alertId: string): EvaluationUpdate => ({
    alertId, status: 'alerting', currentlyTriggeredMetrics: ['m'], evalState: null, history: [{ status: 'alerting', value: 2, time: 1, metric: 'm' }], deliveries: [],
  });

  it('shares the partitions fairly between live replicas, each partition held by exactly one', async () => {
    const first = await store.evaluation.acquireEvaluationLeases('a', 60_000);
    expect(held(first)).toHaveLength(64);
    expect(held(await store.evaluation.acquireEvaluationLeases('b', 60_000))).toEqual([]);
    const a = await store.evaluation.acquireEvaluationLeases('a', 60_000);
    const b = await store.evaluation.acquireEvaluationLeases('b', 60_000);
    expect(held(a)).toHaveLength(32);
    expect(held(b)).toHaveLength(32);
    expect(new Set([...held(a), ...held(b)]).size).toBe(64);
    // Taking a partition from another replica bumps its token; keeping one does not.
    expect([...b.tokens!.values()].every((token) => token === 2)).toBe(true);
    expect([...a.tokens!.values()].every((token) => token === 1)).toBe(true);
  });

  it('never gives one partition to two replicas, even when they all acquire at the same moment', async () => {
    const stores = await Promise.all([1, 2].map(() => openPostgresStore(url)));
    try {
      const replicas = [store, ...stores];
      for (let round = 0; round < 5; round += 1) {
        const leases = await Promise.all(replicas.map((each, index) => each.evaluation.acquireEvaluationLeases(`r${index}`, 60_000)));
        const all = leases.flatMap(held);
        expect(new Set(all).size).toBe(all.length);
      }
      const final = await Promise.all(replicas.map((each, index) => each.evaluation.acquireEvaluationLeases(`r${index}`, 60_000)));
      // Each holds at most its share, ceil(64 / 3) = 22, and together they hold everything.
      const sizes = final.map((lease) => lease.tokens!.size);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(22);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(64);
    } finally {
      await Promise.all(stores.map((each) => each.close()));
    }
  });

  it('lists for a lease only the alerts of its partitions, by the same hash as alertPartition', async () => {
    const ids = await createAlerts(12);
    await store.evaluation.acquireEvaluationLeases('a', 60_000);
    await store.evaluation.acquireEvaluationLeases('b', 60_000);
    const a = await store.evaluation.acquireEvaluationLeases('a', 60_000);
    const b = await store.evaluation.acquireEvaluationLeases('b', 60_000);
    const listedA = (await store.evaluation.listAlertsForEvaluation(Date.now(), a)).map((alert) => alert.id);
    const listedB = (await store.evaluation.listAlertsForEvaluation(Date.now(), b)).map((alert) => alert.id);
    expect([...listedA, ...listedB].sort()).toEqual([...ids].sort());
    for (const id of listedA) expect(a.tokens!.has(alertPartition(id, 64))).toBe(true);
    for (const id of listedB) expect(b.tokens!.has(alertPartition(id, 64))).toBe(true);
  });

  it('fences a save: a round with a partition that moved to another replica since saves nothing', async () => {
    const ids = await createAlerts(16);
    const stale = await store.evaluation.acquireEvaluationLeases('a', 60_000);
    await store.evaluation.acquireEvaluationLeases('b', 60_000);
    const a = await store.evaluation.acquireEvaluationLeases('a', 60_000);
    const b = await store.evaluation.acquireEvaluationLeases('b', 60_000);
    // 'a' saves a whole round with the lease it had before 'b' took half of the partitions.
    const moved = ids.filter((id) => b.tokens!.has(alertPartition(id, 64)));
    expect(moved.length).toBeGreaterThan(0);
    await expect(store.evaluation.saveEvaluations(ids.map(alerting), stale)).rejects.toBeInstanceOf(LeaseLost);
    for (const id of ids) expect((await store.alerts.getAlert(account, id))!.status).toBe('healthy');
    expect(await store.history.searchHistory(account, { alertIds: [], since: 0, status: null, value: null })).toEqual([]);
    // With its current lease, 'a' saves its own partitions' alerts.
    const own = ids.filter((id) => a.tokens!.has(alertPartition(id, 64)));
    await store.evaluation.saveEvaluations(own.map(alerting), a);
    for (const id of own) expect((await store.alerts.getAlert(account, id))!.status).toBe('alerting');
  });

  it('lets another replica take a dead replica\'s partitions once its lease expired, fencing the dead one out', async () => {
    const ids = await createAlerts(4);
    const dead = await store.evaluation.acquireEvaluationLeases('dead', 300);
    expect(held(await store.evaluation.acquireEvaluationLeases('alive', 60_000))).toEqual([]);
    let taken: EvaluationLease;
    do {
      taken = await store.evaluation.acquireEvaluationLeases('alive', 60_000);
    } while (taken.tokens!.size < 64);
    await expect(store.evaluation.saveEvaluations(ids.map(alerting), dead)).rejects.toBeInstanceOf(LeaseLost);
    for (const id of ids) expect((await store.alerts.getAlert(account, id))!.status).toBe('healthy');
    await store.evaluation.saveEvaluations(ids.map(alerting), taken);
    for (const id of ids) expect((await store.alerts.getAlert(account, id))!.status).toBe('alerting');
  });

  it('renews at a heartbeat without shedding, and takes free partitions there only below its share', async () => {
    expect(held(await store.evaluation.acquireEvaluationLeases('a', 60_000))).toHaveLength(64);
    await store.evaluation.acquireEvaluationLeases('b', 60_000);
    // 'b' is live now: 'a' is above its share of 32, but a heartbeat keeps all 64 (a round in flight listed them).
    expect(held(await store.evaluation.renewEvaluationLeases('a', 60_000))).toHaveLength(64);
    expect(held(await store.evaluation.renewEvaluationLeases('b', 60_000))).toEqual([]);
    // 'a' sheds at its next round; 'b' takes the 32 at its next heartbeat, with new tokens.
    expect(held(await store.evaluation.acquireEvaluationLeases('a', 60_000))).toHaveLength(32);
    const b = await store.evaluation.renewEvaluationLeases('b', 60_000);
    expect(held(b)).toHaveLength(32);
    expect([...b.tokens!.values()].every((token) => token === 2)).toBe(true);
    // At its share, a heartbeat renews and changes nothing.
    expect(await store.evaluation.renewEvaluationLeases('b', 60_000)).toEqual(b);
  });

  it('renews a replica\'s leases while a save of it is in flight, while another replica\'s take waits for the save', async () => {
    const a = await store.evaluation.acquireEvaluationLeases('a', 60_000);
    await withClient(url, async (saving) => {
      // A save in flight: its transaction has fenced its lease rows (fencePartitions) and not committed yet.
      await saving.query('BEGIN');
      const fenced = await fencePartitions({ query: async (sql, params) => (await saving.query(sql, params)).rows }, a);
      expect([...fenced].sort((x, y) => x - y)).toEqual(held(a));
      // The owner's own heartbeat is not held up by it.
      expect(held(await store.evaluation.renewEvaluationLeases('a', 60_000))).toEqual(held(a));
      // A replica that would take a partition (after a's lease expired) must wait for the save to commit.
      await withClient(url, (other) => other.query(`UPDATE evaluation_leases SET expires_at = now() - interval '1 second'`));
      let taken = false;
      const taking = store.evaluation.acquireEvaluationLeases('b', 60_000).then((lease) => {
        taken = true;
        return lease;
      });
      // It is waiting on the lock (as pg_stat_activity says), not done.
      const waitingOnLock = () =>
        withClient(url, async (observer) => (await observer.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`)).rows[0].n);
      while ((await waitingOnLock()) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(taken).toBe(false);
      await saving.query('COMMIT');
      expect(held(await taking).length).toBeGreaterThan(0);
    });
  });

  it('hands a released replica\'s partitions to the next replica at once, without waiting for expiry', async () => {
    await store.evaluation.acquireEvaluationLeases('leaving', 60_000);
    await store.evaluation.releaseEvaluationLeases('leaving');
    expect(held(await store.evaluation.acquireEvaluationLeases('staying', 60_000))).toHaveLength(64);
  });
});

describe('telling an unreachable database from a bad statement', () => {
  it('counts refused, cut and shutting-down connections as unavailable, and nothing else', () => {
    const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    expect(isUnavailable(withCode('ECONNREFUSED'))).toBe(true);
    expect(isUnavailable(withCode('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isUnavailable(withCode('08006'))).toBe(true);
    expect(isUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isUnavailable(withCode('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isUnavailable(withCode('42P01', 'relation "x" does not exist'))).toBe(false);
    expect(isUnavailable('ECONNREFUSED')).toBe(false);
  });
});
