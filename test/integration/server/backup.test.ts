import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from '../../helpers/server-process.js';
import { runCli } from '../../helpers/run-cli.js';

let dir: string;
let server: ServeProcess;
const db = () => join(dir, 'alertform.db');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'af-backup-'));
  server = await spawnServe({ db: db() });
});
afterAll(() => server.stop());

describe('alertform backup', { timeout: 60_000 }, () => {
  it('copies the database while the server runs and writes: the copy is whole and has every write answered before it started', async () => {
    const post = (i: number) =>
      fetch(`${server.url}/v2/alerts/`, {
        method: 'POST',
        headers: { authorization: server.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `alert-${i}`, metric: `a.${i}`, alert_criteria: { type: 'above', above_value: 1 } }),
      });
    for (let i = 0; i < 20; i += 1) expect((await post(i)).status).toBe(201);
    // Writes keep coming while the backup runs.
    const writing = Promise.all(Array.from({ length: 20 }, (_, i) => post(100 + i)));
    const out = join(dir, 'copy.db');
    const result = await runCli(['backup', '--out', out, '--json'], { env: { ALERTFORM_DB: db() } });
    await writing;
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ formatVersion: 1, out, db: db() });
    const copy = new Database(out, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const count = (copy.prepare('SELECT COUNT(*) AS n FROM alerts').get() as { n: number }).n;
      expect(count).toBeGreaterThanOrEqual(20);
      expect(count).toBeLessThanOrEqual(40);
    } finally {
      copy.close();
    }
  });

  it('refuses, in one line, a missing database, an existing --out and a PostgreSQL URL', async () => {
    const missing = await runCli(['backup', '--out', join(dir, 'x.db'), '--db', join(dir, 'nope.db')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^alertform: no database at .*nope\.db.*\n$/);
    writeFileSync(join(dir, 'taken.db'), '');
    const taken = await runCli(['backup', '--out', join(dir, 'taken.db'), '--db', db()]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/taken\.db exists already/);
    const pg = await runCli(['backup', '--out', join(dir, 'y.db'), '--db', 'postgres://u:secret@db/alertform']);
    expect(pg.code).toBe(1);
    expect(pg.stderr).toContain('pg_dump');
    expect(pg.stderr).not.toContain('secret');
  });
});
