import { afterEach, expect, it } from 'vitest';
import { alertWrite, describeEachStore } from '../../helpers/store-backends.js';
import { until } from '../../helpers/until.js';
import type { EvaluationAlert } from '../../../src/server/store/evaluation-store.js';
import type { Store } from '../../../src/server/store/store.js';
import type { WindowWrite } from '../../../src/server/store/window-store.js';
import { UniqueViolation } from '../../../src/server/store/store.js';
import { openStore } from '../../../src/server/store/open-store.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NOW = Date.parse('2027-01-04T10:15:00Z');

const windowWrite = (overrides: Partial<WindowWrite> = {}): WindowWrite => ({
  name: 'maintenance',
  reason: null,
  match: { alert_names: ['web*'] },
  startsAt: '2027-01-04T10:00:00Z',
  startTime: null,
  repeat: null,
  timezone: 'UTC',
  duration: 60,
  by: 'api',
  ...overrides,
});

async function listPaged(store: Store, now = NOW): Promise<EvaluationAlert[]> {
  const all: EvaluationAlert[] = [];
  await store.evaluation.listAlertsForEvaluation(now, undefined, { size: 2, onPage: (page) => void all.push(...page) });
  return all;
}

// The `windows` concern and what the evaluator's listing makes of it, on both backends.
describeEachStore('maintenance windows in the store on %s', (backend) => {
  const opened: Store[] = [];
  afterEach(async () => {
    while (opened.length) await opened.pop()!.close();
  });

  async function setUp(given?: Store) {
    const store = given ?? (await backend.openStore());
    opened.push(store);
    const account = await store.accounts.createAccount('ops@example.com');
    const channel = await store.channels.createChannel(account.id, { type: 'webhook', description: 'hook', destination: 'https://hooks.example/x', autoResolve: false });
    const web = await store.alerts.createAlert(account.id, alertWrite(channel.id, { name: 'web cpu' }));
    const db = await store.alerts.createAlert(account.id, alertWrite(channel.id, { name: 'db cpu' }));
    return { store, account: account.id, web: web.id, db: db.id };
  }

  it('writes, reads, renames with a unique name per account, searches and deletes', async () => {
    const { store, account } = await setUp();
    const made = await store.windows.createWindow(account, windowWrite({ reason: 'Kernel' }));
    expect(made).toMatchObject({ name: 'maintenance', reason: 'Kernel', createdBy: 'api', updatedBy: 'api', match: { alert_names: ['web*'] } });
    await expect(store.windows.createWindow(account, windowWrite())).rejects.toBeInstanceOf(UniqueViolation);
    const other = await store.windows.createWindow(account, windowWrite({ name: 'second', startsAt: null, startTime: '22:00', repeat: ['sat'] }));
    await expect(store.windows.updateWindow(account, other.id, windowWrite({ name: 'maintenance' }))).rejects.toBeInstanceOf(UniqueViolation);
    const updated = await store.windows.updateWindow(account, other.id, windowWrite({ name: 'renamed', by: 'someone', startsAt: null, startTime: '22:00', repeat: ['sat'] }));
    expect(updated).toMatchObject({ name: 'renamed', createdBy: 'api', updatedBy: 'someone', repeat: ['sat'], startsAt: null });
    expect((await store.windows.searchWindows(account, { search: 'kern', page: 1, max: 10 })).items.map((w) => w.id)).toEqual([made.id]);
    expect((await store.windows.searchWindows(account, { search: '%', page: 1, max: 10 })).items).toEqual([]);
    expect((await store.windows.searchWindows(account, { search: null, page: 1, max: 1 })).nextPage).toBe(true);
    expect((await store.windows.listWindows(account)).map((w) => w.name)).toEqual(['maintenance', 'renamed']);
    expect(await store.windows.deleteWindow(account, made.id)).toBe(true);
    expect(await store.windows.getWindow(account, made.id)).toBeNull();
    expect(await store.windows.deleteWindow(account, made.id)).toBe(false);
  });

  it('mutes what an active window matches in the evaluator\'s listing, and a window\'s write is a change of the kept listing', async () => {
    const { store, account, web } = await setUp();
    const first = await listPaged(store);
    expect(first.every((alert) => !alert.muted)).toBe(true);
    // On PostgreSQL the change notifications start with the first listing: wait until one is served kept.
    await until(async () => (await listPaged(store))[0] === (await listPaged(store))[0], Boolean);
    const window = await store.windows.createWindow(account, windowWrite());
    const listed = await until(() => listPaged(store), (alerts) => alerts.some((alert) => alert.muted));
    expect(listed.map((alert) => [alert.name, alert.muted, alert.mutedByWindow?.id ?? null])).toEqual([
      ['web cpu', true, window.id],
      ['db cpu', false, null],
    ]);
    expect(listed[0]!.mutedByWindow).toMatchObject({ startedAt: Date.parse('2027-01-04T10:00:00Z'), until: Date.parse('2027-01-04T11:00:00Z') });
    // At a later cycle the kept records are decided again at its time: the window has ended.
    expect((await listPaged(store, NOW + 3_600_000)).find((alert) => alert.id === web)!.muted).toBe(false);
  });

  it('records each window episode\'s mute of an alert once, however often and by however many processes it is reported', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'alertform-windows-'));
    try {
      const db = backend.name === 'sqlite' ? join(directory, 'windows.db') : await backend.createDb();
      const { store, account, web } = await setUp(await openStore(db));
      // A second process on the same database: it has no memory of what the first recorded.
      const replica = await openStore(db);
      opened.push(replica);
      const window = await store.windows.createWindow(account, windowWrite());
      const mute = { id: window.id, name: window.name, alertId: web, startedAt: NOW - 900_000, until: NOW + 2_700_000, time: NOW / 1000 };
      await store.evaluation.recordWindowMutes!([mute]);
      await store.evaluation.recordWindowMutes!([mute]);
      await replica.evaluation.recordWindowMutes!([mute]);
      await replica.evaluation.recordWindowMutes!([{ ...mute, startedAt: NOW + 86_400_000, time: NOW / 1000 + 86_400 }]);
      await store.evaluation.recordWindowMutes!([{ ...mute, startedAt: NOW + 86_400_000, time: NOW / 1000 + 86_400 }]);
      await checkEpisodes(store, account, web, window.id, mute);
    } finally {
      while (opened.length) await opened.pop()!.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  async function checkEpisodes(store: Store, account: string, web: string, windowId: string, mute: { startedAt: number }) {
    const entries = (await store.console.listTimeline(account, web, 0, 100)).filter((entry) => entry.kind === 'muted_by_window');
    expect(entries.map((entry) => entry.time)).toEqual([NOW / 1000 + 86_400, NOW / 1000]);
    expect(entries[1]!.reason).toBe('muted by maintenance window "maintenance" until 2027-01-04T11:00:00.000Z');
    // A deleted window's mutes go with it; reports of it are dropped.
    await store.windows.deleteWindow(account, windowId);
    await store.evaluation.recordWindowMutes!([{ id: windowId, name: 'maintenance', alertId: web, startedAt: mute.startedAt + 2 * 86_400_000, until: 0, time: 0 }]);
    expect((await store.console.listTimeline(account, web, 0, 100)).filter((entry) => entry.kind === 'muted_by_window')).toHaveLength(2);
  }
});
