import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccountCache } from '../../../../src/server/http/account-cache.js';
import { openPostgresStore } from '../../../../src/server/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../../../src/server/store/sqlite/sqlite-store.js';
import type { Store } from '../../../../src/server/store/store.js';
import { postgresAvailability, type SharedPostgres } from '../../../helpers/postgres.js';
import { filePostgres } from '../../../helpers/shared-postgres.js';
import { until } from '../../../helpers/until.js';

const opened: Store[] = [];
const dir = mkdtempSync(join(tmpdir(), 'alertform-account-cache-'));
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two accounts with a key each, in `store`. */
async function twoTenants(store: Store) {
  const a = await store.accounts.createAccount('a@example.com');
  const b = await store.accounts.createAccount('b@example.com');
  const keyA = await store.accounts.addApiKey(a.id, 'key-of-tenant-a-0123456789');
  await store.accounts.addApiKey(b.id, 'key-of-tenant-b-0123456789');
  return { a, b, keyA };
}

/** The Authorization header of `key` as `http://KEY@host/` sends it. */
const basic = (key: string, password = '') => `Basic ${Buffer.from(`${key}:${password}`).toString('base64')}`;

let files = 0;
/**
 * Another connection's commits are read once per turn of the event loop (sqlite/account-changes.ts); every HTTP
 * request is read from its socket in a turn of its own, so a request after the write is modelled by a new turn.
 */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
function openSqlite(path = join(dir, `cache-${files++}.db`)) {
  const store = openSqliteStore(path);
  opened.push(store);
  return { store, path };
}

describe('the API key cache on SQLite', () => {
  it('answers each key with its own account, asking the database once per key', async () => {
    const { store } = openSqlite();
    const { a, b } = await twoTenants(store);
    const lookups = vi.spyOn(store.accounts, 'findAccountByKey');
    const cache = createAccountCache(store);
    for (let round = 0; round < 3; round++) {
      expect((await cache.find('key-of-tenant-a-0123456789'))?.id).toBe(a.id);
      expect((await cache.find('key-of-tenant-b-0123456789'))?.id).toBe(b.id);
    }
    expect(lookups).toHaveBeenCalledTimes(2);
  });

  it('never keeps a failure: every unknown key goes to the database', async () => {
    const { store } = openSqlite();
    await twoTenants(store);
    const lookups = vi.spyOn(store.accounts, 'findAccountByKey');
    const cache = createAccountCache(store);
    for (let round = 0; round < 3; round++) expect(await cache.find('key-of-tenant-a-0123456780')).toBeNull();
    expect(lookups).toHaveBeenCalledTimes(3);
  });

  it('refuses a key revoked through this store at once', async () => {
    const { store } = openSqlite();
    const { keyA } = await twoTenants(store);
    const cache = createAccountCache(store);
    expect(await cache.find('key-of-tenant-a-0123456789')).not.toBeNull();
    await store.accounts.revokeApiKey(keyA.id);
    expect(await cache.find('key-of-tenant-a-0123456789')).toBeNull();
  });

  it('refuses a key revoked by another process on the same file at once (keys revoke)', async () => {
    const { store, path } = openSqlite();
    const { keyA, a } = await twoTenants(store);
    const cache = createAccountCache(store);
    expect(await cache.find('key-of-tenant-a-0123456789')).not.toBeNull();
    await nextTurn();
    const other = openSqlite(path).store;
    await other.accounts.setMetricPrefixes(a.id, ['team_a.']);
    await nextTurn();
    expect((await cache.find('key-of-tenant-a-0123456789'))?.metricPrefixes).toEqual(['team_a.']);
    await other.accounts.revokeApiKey(keyA.id);
    await nextTurn();
    expect(await cache.find('key-of-tenant-a-0123456789')).toBeNull();
  });

  it('holds at most maxEntries keys and trusts an entry at most maxAgeMs', async () => {
    const { store } = openSqlite();
    await twoTenants(store);
    const c = await store.accounts.createAccount('c@example.com');
    await store.accounts.addApiKey(c.id, 'key-of-tenant-c-0123456789');
    let now = 0;
    const lookups = vi.spyOn(store.accounts, 'findAccountByKey');
    const cache = createAccountCache(store, { maxEntries: 2, maxAgeMs: 1_000, now: () => now });
    for (const tenant of ['a', 'b', 'c', 'a']) await cache.find(`key-of-tenant-${tenant}-0123456789`);
    expect(lookups).toHaveBeenCalledTimes(4); // a was dropped for c, the oldest first
    await cache.find('key-of-tenant-a-0123456789');
    expect(lookups).toHaveBeenCalledTimes(4);
    now = 1_000;
    await cache.find('key-of-tenant-a-0123456789');
    expect(lookups).toHaveBeenCalledTimes(5);
  });

  it('knows an Authorization header only after its key authenticated, and never a failure', async () => {
    const { store } = openSqlite();
    const { a } = await twoTenants(store);
    const cache = createAccountCache(store);
    const good = basic('key-of-tenant-a-0123456789');
    expect(cache.findByHeader(good)).toBeUndefined();
    expect(await cache.find('key-of-tenant-a-0123456789', good)).not.toBeNull();
    expect(cache.findByHeader(good)?.id).toBe(a.id);
    // Another header of the same key (another password) is not known until it authenticates itself.
    expect(cache.findByHeader(basic('key-of-tenant-a-0123456789', 'pw'))).toBeUndefined();
    const wrong = basic('key-of-tenant-a-0123456780');
    for (let round = 0; round < 2; round++) {
      expect(await cache.find('key-of-tenant-a-0123456780', wrong)).toBeNull();
      expect(cache.findByHeader(wrong)).toBeUndefined();
    }
  });

  it('forgets a known header when its key is revoked, by this store or another process, before the next request', async () => {
    const { store, path } = openSqlite();
    const { keyA } = await twoTenants(store);
    const cache = createAccountCache(store);
    const header = basic('key-of-tenant-a-0123456789');
    await cache.find('key-of-tenant-a-0123456789', header);
    await store.accounts.revokeApiKey(keyA.id);
    expect(cache.findByHeader(header)).toBeUndefined();

    const b = await store.accounts.createAccount('b2@example.com');
    const keyB = await store.accounts.addApiKey(b.id, 'key-of-tenant-b2-0123456789');
    const headerB = basic('key-of-tenant-b2-0123456789');
    await nextTurn();
    expect(await cache.find('key-of-tenant-b2-0123456789', headerB)).not.toBeNull();
    expect(cache.findByHeader(headerB)?.id).toBe(b.id);
    await nextTurn();
    await openSqlite(path).store.accounts.revokeApiKey(keyB.id);
    await nextTurn();
    expect(cache.findByHeader(headerB)).toBeUndefined();
  });

  it('trusts a known header no longer than maxAgeMs, and never remembers one longer than 512 characters', async () => {
    const { store } = openSqlite();
    await twoTenants(store);
    let now = 0;
    const cache = createAccountCache(store, { maxAgeMs: 1_000, now: () => now });
    const header = basic('key-of-tenant-a-0123456789');
    await cache.find('key-of-tenant-a-0123456789', header);
    expect(cache.findByHeader(header)).toBeDefined();
    now = 1_000;
    expect(cache.findByHeader(header)).toBeUndefined();
    const long = basic('key-of-tenant-a-0123456789', 'p'.repeat(600));
    expect(await cache.find('key-of-tenant-a-0123456789', long)).not.toBeNull();
    expect(cache.findByHeader(long)).toBeUndefined();
  });

  it('hands out an account no route can change', async () => {
    const { store } = openSqlite();
    const { a } = await twoTenants(store);
    await store.accounts.setMetricPrefixes(a.id, ['team_a.']);
    const cache = createAccountCache(store);
    const account = (await cache.find('key-of-tenant-a-0123456789'))!;
    expect(() => (account.metricPrefixes as string[]).push('everything.')).toThrow();
    expect(() => Object.assign(account, { id: 'another' })).toThrow();
  });
});

const availability = postgresAvailability();
describe.skipIf(availability.skip)('the API key cache on PostgreSQL', () => {
  let postgres: SharedPostgres;
  beforeAll(async () => {
    postgres = await filePostgres();
  });
  afterAll(() => postgres?.dispose());

  const openPostgres = async (url: string) => {
    const store = await openPostgresStore(url);
    opened.push(store);
    return store;
  };

  it('sees a change by this replica at once, refuses a key revoked by another within a second (LISTEN/NOTIFY), and caches until then', async () => {
    const url = await postgres.createDatabase();
    const replica = await openPostgres(url);
    const { keyA, a } = await twoTenants(replica);
    const lookups = vi.spyOn(replica.accounts, 'findAccountByKey');
    const cache = createAccountCache(replica);
    await until(() => Promise.resolve(replica.accountChanges().version()), (version) => version !== null, 5_000);
    await cache.find('key-of-tenant-a-0123456789');
    expect((await cache.find('key-of-tenant-a-0123456789'))?.id).toBe(a.id);
    expect(lookups).toHaveBeenCalledTimes(1);
    await replica.accounts.setMetricPrefixes(a.id, ['team_a.']);
    expect((await cache.find('key-of-tenant-a-0123456789'))?.metricPrefixes).toEqual(['team_a.']);

    const other = await openPostgres(url);
    await other.accounts.revokeApiKey(keyA.id);
    const revokedAt = Date.now();
    await until(() => cache.find('key-of-tenant-a-0123456789'), (account) => account === null, 1_000, 5);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });

  it('forgets a known header within a second of its key being revoked by another replica', async () => {
    const url = await postgres.createDatabase();
    const replica = await openPostgres(url);
    const { keyA } = await twoTenants(replica);
    const cache = createAccountCache(replica);
    await until(() => Promise.resolve(replica.accountChanges().version()), (version) => version !== null, 5_000);
    const header = basic('key-of-tenant-a-0123456789');
    await cache.find('key-of-tenant-a-0123456789', header);
    expect(cache.findByHeader(header)).toBeDefined();
    await (await openPostgres(url)).accounts.revokeApiKey(keyA.id);
    const revokedAt = Date.now();
    await until(() => Promise.resolve(cache.findByHeader(header)), (account) => account === undefined, 1_000, 5);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });

  it('serves nothing from memory while its LISTEN connection is down, and caches again once it is back', async () => {
    const url = await postgres.createDatabase();
    const replica = await openPostgres(url);
    await twoTenants(replica);
    const cache = createAccountCache(replica);
    const changes = replica.accountChanges();
    await until(() => Promise.resolve(changes.version()), (version) => version !== null, 5_000);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'alertform-listen' AND datname = current_database()`);
    } finally {
      await admin.end();
    }
    await until(() => Promise.resolve(changes.version()), (version) => version === null, 5_000, 5);
    const lookups = vi.spyOn(replica.accounts, 'findAccountByKey');
    await cache.find('key-of-tenant-a-0123456789');
    await cache.find('key-of-tenant-a-0123456789');
    expect(lookups).toHaveBeenCalledTimes(2);
    await until(() => Promise.resolve(changes.version()), (version) => version !== null, 10_000);
    await cache.find('key-of-tenant-a-0123456789');
    await cache.find('key-of-tenant-a-0123456789');
    expect(lookups).toHaveBeenCalledTimes(3);
  });
});
