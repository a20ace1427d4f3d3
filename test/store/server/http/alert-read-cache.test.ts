import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAlertReadCache } from '../../../../src/server/http/alert-read-cache.js';
import { openPostgresStore } from '../../../../src/server/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../../../src/server/store/sqlite/sqlite-store.js';
import type { AlertWrite, Store } from '../../../../src/server/store/store.js';
import { postgresAvailability, type SharedPostgres } from '../../../helpers/postgres.js';
import { filePostgres } from '../../../helpers/shared-postgres.js';
import { until } from '../../../helpers/until.js';
import { alertWrite } from '../../../helpers/store-backends.js';

const opened: Store[] = [];
const dir = mkdtempSync(join(tmpdir(), 'alertform-alert-cache-'));
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, channel: string): AlertWrite => alertWrite(channel, { name, metric: `m.${name}` });

/** Two accounts with an alert each. */
async function twoTenants(store: Store) {
  const a = await store.accounts.createAccount('a@example.com');
  const b = await store.accounts.createAccount('b@example.com');
  const [channelA] = await store.channels.findChannelsByRefs(a.id, ['Email me']);
  const [channelB] = await store.channels.findChannelsByRefs(b.id, ['Email me']);
  const alertA = await store.alerts.createAlert(a.id, write('cpu', channelA!.id));
  const alertB = await store.alerts.createAlert(b.id, write('cpu', channelB!.id));
  return { a, b, alertA, alertB, channelA: channelA! };
}

const everything = { names: [], ids: [], search: null, page: 1, max: 100 };
let files = 0;
/**
 * Another connection's commits are read once per turn of the event loop (sqlite/account-changes.ts); every HTTP
 * request is read from its socket in a turn of its own, so a request after the write is modelled by a new turn.
 */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the alert read cache on SQLite', () => {
  const open = (path = join(dir, `reads-${files++}.db`)) => {
    const store = openSqliteStore(path);
    opened.push(store);
    return { store, path };
  };

  it('trusts an answer 5 s at most, even when a change was never told (a listener that died silently)', async () => {
    const { store } = open();
    const { a, alertA } = await twoTenants(store);
    // The change feed of a store whose listener died without a word: it never moves.
    const deaf: Store = Object.assign(Object.create(store) as Store, { accountChanges: () => ({ version: () => 1, close: async () => undefined }) });
    let now = 1_000_000;
    const cache = createAlertReadCache(deaf, { now: () => now });
    expect((await cache.getAlert(a.id, alertA.id))!.info).toBeNull();
    await store.alerts.updateAlert(a.id, alertA.id, { ...write('cpu', alertA.notificationChannels[0]!), info: 'changed' });
    now += 4_999;
    expect((await cache.getAlert(a.id, alertA.id))!.info).toBeNull();
    now += 1;
    expect((await cache.getAlert(a.id, alertA.id))!.info).toBe('changed');
  });

  it("answers each account with its own alerts only, and asks the store once per question", async () => {
    const { store } = open();
    const { a, b, alertA, alertB } = await twoTenants(store);
    const reads = vi.spyOn(store.alerts, 'getAlert');
    const searches = vi.spyOn(store.alerts, 'searchAlerts');
    const cache = createAlertReadCache(store);
    for (let round = 0; round < 3; round++) {
      expect((await cache.getAlert(a.id, alertA.id))?.id).toBe(alertA.id);
      expect(await cache.getAlert(b.id, alertA.id)).toBeNull();
      expect((await cache.searchAlerts(b.id, everything)).items.map((alert) => alert.id)).toEqual([alertB.id]);
    }
    expect(reads).toHaveBeenCalledTimes(2);
    expect(searches).toHaveBeenCalledTimes(1);
  });

  it('sees every write at once: its own store, and another connection to the same file', async () => {
    const { store, path } = open();
    const { a, alertA, channelA } = await twoTenants(store);
    const cache = createAlertReadCache(store);
    expect((await cache.getAlert(a.id, alertA.id))?.name).toBe('cpu');
    await store.alerts.updateAlert(a.id, alertA.id, write('renamed', channelA.id));
    expect((await cache.getAlert(a.id, alertA.id))?.name).toBe('renamed');
    expect((await cache.searchAlerts(a.id, { ...everything, search: 'team' })).items).toEqual([]);
    await nextTurn();
    const other = open(path).store;
    await other.channels.updateChannel(a.id, channelA.id, { type: 'email', description: 'team mail', destination: 'a@example.com', autoResolve: false } as never);
    await nextTurn();
    expect((await cache.searchAlerts(a.id, { ...everything, search: 'team' })).items.map((alert) => alert.id)).toEqual([alertA.id]);
    await other.alerts.deleteAlert(a.id, alertA.id);
    await nextTurn();
    expect(await cache.getAlert(a.id, alertA.id)).toBeNull();
  });

  it('holds at most maxAlerts alerts and maxPages pages, and hands out records no request can change', async () => {
    const { store } = open();
    const { a, b, alertA, alertB } = await twoTenants(store);
    const reads = vi.spyOn(store.alerts, 'getAlert');
    const cache = createAlertReadCache(store, { maxAlerts: 1, maxPages: 1 });
    await cache.getAlert(a.id, alertA.id);
    await cache.getAlert(b.id, alertB.id);
    await cache.getAlert(a.id, alertA.id);
    expect(reads).toHaveBeenCalledTimes(3);
    const alert = (await cache.getAlert(a.id, alertA.id))!;
    expect(() => (alert.notificationChannels as string[]).push('another')).toThrow();
  });
});

const availability = postgresAvailability();
describe.skipIf(availability.skip)('the alert read cache on PostgreSQL', () => {
  let postgres: SharedPostgres;
  beforeAll(async () => {
    postgres = await filePostgres();
  });
  afterAll(() => postgres?.dispose());
  const open = async (url: string) => {
    const store = await openPostgresStore(url);
    opened.push(store);
    return store;
  };

  it("sees this replica's writes at once and another replica's within a second (NOTIFY)", async () => {
    const url = await postgres.createDatabase();
    const replica = await open(url);
    const { a, alertA, channelA } = await twoTenants(replica);
    const cache = createAlertReadCache(replica);
    await until(() => Promise.resolve(replica.accountChanges().version('alerts')), (version) => version !== null, 5_000);
    const reads = vi.spyOn(replica.alerts, 'getAlert');
    await cache.getAlert(a.id, alertA.id);
    await cache.getAlert(a.id, alertA.id);
    expect(reads).toHaveBeenCalledTimes(1);

    await replica.alerts.updateAlert(a.id, alertA.id, write('here', channelA.id));
    expect((await cache.getAlert(a.id, alertA.id))?.name).toBe('here');

    const other = await open(url);
    await other.alerts.updateAlert(a.id, alertA.id, write('there', channelA.id));
    const written = Date.now();
    await until(() => cache.getAlert(a.id, alertA.id), (alert) => alert?.name === 'there', 1_000, 5);
    expect(Date.now() - written).toBeLessThan(1_000);
  });
});
