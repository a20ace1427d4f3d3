import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server.js';
import { MIGRATIONS } from '../../../src/server/store/sqlite/migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'alertform-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the SQLite store on a file', () => {
  it('keeps every answered write across a restart', async () => {
    const db = join(dir, 'restart.db');
    const first = await startTestServer({ db, keys: ['persist-key'] });
    const channel = await first.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: 'https://example.com/h' });
    const schedule = await first.request('POST', '/v2/schedules/', { name: 'nightly', start_time: '01:00', duration: 60, repeat: ['mon'] });
    const alert = await first.request('POST', '/v2/alerts/', {
      name: 'persisted', metric: 'sumSeries(a.*)', alert_criteria: { type: 'above', above_value: 3 },
      notification_channels: ['hook'], scheduled_mutes: [schedule.body.id],
    });
    await first.request('POST', `/v2/alerts/${alert.body.id}/muted/`, { duration: 60 });
    const before = (await first.request('GET', `/v2/alerts/${alert.body.id}`)).body;
    await first.close();

    const second = await startTestServer({ db, keys: ['persist-key'] });
    try {
      expect((await second.request('GET', `/v2/alerts/${alert.body.id}`)).body).toEqual(before);
      expect((await second.request('GET', `/v2/notifications/${channel.body.id}`)).body.description).toBe('hook');
      expect((await second.request('GET', `/v2/schedules/${schedule.body.id}`)).body.alerts).toEqual([alert.body.id]);
      // The key made the first time still maps to the same account: no second Email me.
      expect((await second.request('GET', '/v2/notifications/?description=Email%20me')).body.notifications).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('leaves the file in WAL mode at the newest schema version', async () => {
    const db = join(dir, 'pragmas.db');
    const server = await startTestServer({ db });
    await server.close();
    const raw = new Database(db, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    } finally {
      raw.close();
    }
  });

  it('gives exactly one 201 and 409s for 40 concurrent creates of one name', async () => {
    const server = await startTestServer({ db: join(dir, 'race.db') });
    try {
      const body = { name: 'raced', metric: 'm', alert_criteria: { type: 'above', above_value: 1 } };
      const statuses = await Promise.all(Array.from({ length: 40 }, () => server.request('POST', '/v2/alerts/', body).then((r) => r.status)));
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(39);
      const channelStatuses = await Promise.all(
        Array.from({ length: 40 }, () => server.request('POST', '/v2/notifications/', { type: 'email', description: 'raced', destination: 'a@example.com' }).then((r) => r.status)),
      );
      expect(channelStatuses.filter((s) => s === 201)).toHaveLength(1);
      expect(channelStatuses.filter((s) => s === 409)).toHaveLength(39);
      expect((await server.request('GET', '/v2/alerts/?name=raced')).body.alerts).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('keeps names unique across two servers (two connections) on one database file', async () => {
    const db = join(dir, 'shared.db');
    const first = await startTestServer({ db, keys: ['shared-key'] });
    const second = await startTestServer({ db, keys: ['shared-key'] });
    try {
      const body = { name: 'shared', metric: 'm', alert_criteria: { type: 'above', above_value: 1 } };
      const statuses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? first : second).request('POST', '/v2/alerts/', body).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(39);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
