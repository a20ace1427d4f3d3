import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrateDatabase } from '../../../../src/server/store/sqlite/migrations.js';
import { openDatabase } from '../../../../src/server/store/sqlite/open-database.js';
import { SqliteStore } from '../../../../src/server/store/sqlite/sqlite-store.js';
import { DEFAULT_CHANNEL } from '../../../../src/model/defaults.js';
import { UniqueViolation, type AlertWrite } from '../../../../src/server/store/store.js';

let store: SqliteStore;
let account: string;
let emailMe: string;
beforeEach(async () => {
  store = SqliteStore.open(':memory:');
  account = (await store.createAccount('ops@example.com')).id;
  emailMe = (await store.findChannelsByRefs(account, [DEFAULT_CHANNEL]))[0]!.id;
});
afterEach(() => store.close());

const alert = (overrides: Partial<AlertWrite> = {}): AlertWrite => ({
  name: 'cpu',
  metric: 'host.*.cpu',
  alertCriteria: { type: 'above', above_value: 90 },
  additionalCriteria: {},
  expression: 'a',
  notificationChannels: [emailMe],
  notificationType: ['every', 60],
  scheduledMutes: [],
  info: null,
  onQueryFailure: null,
  ...overrides,
});

describe('the SQLite store', () => {
  it('gives a new account an Email me channel addressed to its email', async () => {
    const [channel] = await store.findChannelsByRefs(account, [DEFAULT_CHANNEL]);
    expect(channel).toMatchObject({ type: 'email', destination: 'ops@example.com', autoResolve: false });
    const anonymous = await store.createAccount(null);
    expect((await store.findChannelsByRefs(anonymous.id, [DEFAULT_CHANNEL]))[0]?.destination).toBe('');
  });

  it('stores API keys hashed and finds the account by key, until revoked', async () => {
    const record = await store.addApiKey(account, 'plain-key');
    expect((await store.findAccountByKey('plain-key'))?.id).toBe(account);
    expect(await store.findAccountByKey('other')).toBeNull();
    expect(JSON.stringify(await store.listApiKeys())).not.toContain('plain-key');
    expect(await store.revokeApiKey(record.id)).toBe(true);
    expect(await store.findAccountByKey('plain-key')).toBeNull();
    expect((await store.findApiKey('plain-key'))?.revokedAt).toEqual(expect.any(String));
    expect(await store.revokeApiKey('nope')).toBe(false);
  });

  it('throws UniqueViolation for a second alert of one name in one account only', async () => {
    await store.createAlert(account, alert());
    await expect(store.createAlert(account, alert())).rejects.toBeInstanceOf(UniqueViolation);
    const other = await store.createAccount(null);
    const otherEmail = (await store.findChannelsByRefs(other.id, [DEFAULT_CHANNEL]))[0]!.id;
    await expect(store.createAlert(other.id, alert({ notificationChannels: [otherEmail] }))).resolves.toMatchObject({ name: 'cpu' });
  });

  it('starts alerts healthy with no triggered metrics and no evaluator state', async () => {
    const created = await store.createAlert(account, alert());
    expect(created).toMatchObject({ status: 'healthy', currentlyTriggeredMetrics: [], evalState: null, mutedUntil: null });
  });

  it('lists every account\'s alerts for evaluation with channels and schedules resolved', async () => {
    const schedule = await store.createSchedule(account, { name: 'w', startTime: '01:00', duration: 5, timezone: 'UTC', repeat: ['mon'], anchor: 0 });
    const hook = await store.createChannel(account, { type: 'webhook', description: 'hook', destination: 'https://x', autoResolve: false });
    await store.createAlert(account, alert({ notificationChannels: [hook.id, emailMe], scheduledMutes: [schedule.id] }));
    const other = await store.createAccount(null);
    const otherEmail = (await store.findChannelsByRefs(other.id, [DEFAULT_CHANNEL]))[0]!.id;
    await store.createAlert(other.id, alert({ name: 'theirs', notificationChannels: [otherEmail] }));
    const listed = await store.listAlertsForEvaluation();
    expect(listed.map((a) => [a.name, a.accountId])).toEqual([['cpu', account], ['theirs', other.id]]);
    expect(listed[0]!.channels.map((c) => c.description)).toEqual(['hook', DEFAULT_CHANNEL]);
    expect(listed[0]!.schedules.map((s) => s.name)).toEqual(['w']);
  });

  it('saves an evaluation result, and says false for an alert deleted meanwhile', async () => {
    const created = await store.createAlert(account, alert());
    const saved = await store.saveEvaluation(created.id, { status: 'alerting', currentlyTriggeredMetrics: ['host.a.cpu'], evalState: { since: 5, series: { a: [1, 2] } } });
    expect(saved).toBe(true);
    expect(await store.getAlert(account, created.id)).toMatchObject({
      status: 'alerting',
      currentlyTriggeredMetrics: ['host.a.cpu'],
      evalState: { since: 5, series: { a: [1, 2] } },
    });
    await store.deleteAlert(account, created.id);
    expect(await store.saveEvaluation(created.id, { status: 'healthy', currentlyTriggeredMetrics: [], evalState: null })).toBe(false);
  });

  it('appends history in the alert\'s account and drops entries of deleted alerts', async () => {
    const created = await store.createAlert(account, alert());
    await store.appendHistory([
      { alertId: created.id, status: 'alerting', value: 95, time: 1000, metric: 'host.a.cpu' },
      { alertId: created.id, status: 'recovered', value: 10, time: 2000, metric: 'host.a.cpu' },
      { alertId: 'gone', status: 'alerting', value: 1, time: 3000, metric: 'x' },
    ]);
    const entries = await store.searchHistory(account, { alertIds: [], since: 0, status: null, value: null });
    expect(entries.map((e) => [e.status, e.time])).toEqual([['recovered', 2000], ['alerting', 1000]]);
    const other = await store.createAccount(null);
    expect(await store.searchHistory(other.id, { alertIds: [], since: 0, status: null, value: null })).toEqual([]);
  });

  it('saves a round of evaluations with their history in one go, dropping alerts deleted meanwhile', async () => {
    const kept = await store.createAlert(account, alert({ name: 'kept' }));
    const gone = await store.createAlert(account, alert({ name: 'gone' }));
    await store.deleteAlert(account, gone.id);
    await store.saveEvaluations([
      { alertId: kept.id, result: { status: 'alerting', currentlyTriggeredMetrics: ['m.1'], evalState: { k: 1 } }, history: [{ status: 'alerting', value: 3, time: 10, metric: 'm.1' }] },
      { alertId: gone.id, result: { status: 'alerting', currentlyTriggeredMetrics: [], evalState: null }, history: [{ status: 'alerting', value: 1, time: 10, metric: 'x' }] },
    ]);
    expect(await store.getAlert(account, kept.id)).toMatchObject({ status: 'alerting', evalState: { k: 1 } });
    const entries = await store.searchHistory(account, { alertIds: [], since: 0, status: null, value: null });
    expect(entries).toEqual([{ alertId: kept.id, status: 'alerting', value: 3, time: 10, metric: 'm.1' }]);
  });

  it('records and clears a channel\'s last delivery error', async () => {
    await store.setChannelLastError(emailMe, { time: 42, message: 'SMTP refused' });
    expect((await store.getChannel(account, emailMe))?.lastError).toEqual({ time: 42, message: 'SMTP refused' });
    await store.setChannelLastError(emailMe, null);
    expect((await store.getChannel(account, emailMe))?.lastError).toBeNull();
  });

  it('sets muted_until on a selection in one transaction, changing nothing when an id is unknown', async () => {
    const a = await store.createAlert(account, alert({ name: 'a' }));
    const result = await store.setMutedUntil(account, { ids: [a.id, 'missing'], search: null }, 123);
    expect(result.missing).toEqual(['missing']);
    expect((await store.getAlert(account, a.id))?.mutedUntil).toBeNull();
    await store.setMutedUntil(account, { ids: [], search: null }, 456);
    expect((await store.getAlert(account, a.id))?.mutedUntil).toBe(456);
  });
});

describe('opening a database', () => {
  it('turns on foreign keys and synchronous=FULL (every commit fsynced)', () => {
    const db = openDatabase(':memory:');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });
});

describe('migrations', () => {
  it('bring an empty database to the newest version, and do nothing the second time', () => {
    const db = new Database(':memory:');
    expect(migrateDatabase(db)).toBe(MIGRATIONS.length);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(() => migrateDatabase(db)).not.toThrow();
    db.close();
  });

  it('refuse a database newer than the code', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    expect(() => migrateDatabase(db)).toThrow(/newer/);
    db.close();
  });
});
