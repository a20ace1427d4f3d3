import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../src/server/store/postgres/migrations.js';
import { isUnavailable } from '../../../../src/server/store/postgres/pg-database.js';
import { PostgresStore } from '../../../../src/server/store/postgres/postgres-store.js';
import { StoreUnavailable } from '../../../../src/server/store/store.js';
import { postgresAvailability, startPostgres, type Postgres } from '../../../helpers/postgres.js';

// What only PostgreSQL has: versioned migrations in schema_migrations, several processes on one database, and a
// server that goes away and comes back. The Store contract itself is in store.test.ts, for both backends.
const availability = postgresAvailability();

describe.skipIf(availability.skip)('the PostgreSQL store', () => {
  let postgres: Postgres;
  beforeAll(async () => {
    postgres = await startPostgres();
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

  it('records each migration in schema_migrations, and opening again changes nothing', async () => {
    const url = await postgres.createDatabase();
    await (await PostgresStore.open(url)).close();
    await (await PostgresStore.open(url)).close();
    const versions = await withClient(url, async (client) => (await client.query('SELECT version FROM schema_migrations ORDER BY version')).rows);
    expect(versions.map((row) => row.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
  });

  it('refuses a database whose schema is newer than the code, and leaves it as it was', async () => {
    const url = await postgres.createDatabase();
    await (await PostgresStore.open(url)).close();
    await withClient(url, (client) => client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [MIGRATIONS.length + 1]));
    await expect(PostgresStore.open(url)).rejects.toThrow(/newer than this alertform/);
    const count = await withClient(url, async (client) => (await client.query('SELECT count(*)::int AS n FROM schema_migrations')).rows[0].n);
    expect(count).toBe(MIGRATIONS.length + 1);
  });

  it('lets several replicas open an empty database at once: one migrates, the others wait and find it done', async () => {
    const url = await postgres.createDatabase();
    const stores = await Promise.all([1, 2, 3, 4].map(() => PostgresStore.open(url)));
    const account = await stores[0]!.createAccount(null);
    await stores[1]!.addApiKey(account.id, 'shared-key');
    expect((await stores[3]!.findAccountByKey('shared-key'))?.id).toBe(account.id);
    await Promise.all(stores.map((store) => store.close()));
  });

  it('enforces uniqueness across connections: of two concurrent creates of one name exactly one wins', async () => {
    const url = await postgres.createDatabase();
    const [a, b] = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
    const account = await a!.createAccount(null);
    const channel = (await a!.findChannelsByRefs(account.id, ['Email me']))[0]!.id;
    const write = {
      name: 'same', metric: 'm', alertCriteria: { type: 'above' as const, above_value: 1 }, additionalCriteria: {}, expression: 'a',
      notificationChannels: [channel], notificationType: ['every', 60] as ['every', number], scheduledMutes: [], info: null, onQueryFailure: null,
    };
    const results = await Promise.allSettled([a!.createAlert(account.id, write), b!.createAlert(account.id, write)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ name: 'UniqueViolation', field: 'name' });
    await Promise.all([a!.close(), b!.close()]);
  });

  it('answers StoreUnavailable while the server is down, and works again once it is back, on the same store', async () => {
    const url = await postgres.createDatabase();
    const store = await PostgresStore.open(url, { connectionTimeoutMs: 2_000 });
    try {
      const account = await store.createAccount('a@example.com');
      await postgres.stopServer();
      await expect(store.findAccountByEmail('a@example.com')).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(store.createAccount(null)).rejects.toBeInstanceOf(StoreUnavailable);
      await postgres.startServer();
      expect((await store.findAccountByEmail('a@example.com'))?.id).toBe(account.id);
    } finally {
      await store.close();
    }
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
