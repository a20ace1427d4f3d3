import { EventEmitter, once } from 'node:events';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/index.js';
import { postgresAvailability, startPostgres, type Postgres } from '../../helpers/postgres.js';
import { runCli } from '../../helpers/run-cli.js';
import { spawnServe } from '../../helpers/server-process.js';
import { sendRequest, startTestServer } from '../../helpers/server.js';

// The server on a real PostgreSQL: the CLI's --db URL and ALERTFORM_DB, and what the API does while the database
// goes away and comes back under it.
const availability = postgresAvailability();

describe.skipIf(availability.skip)('the server on PostgreSQL', () => {
  let postgres: Postgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(() => postgres?.stop());

  it('serve --db URL and keys --db URL (or ALERTFORM_DB) work on one database', async () => {
    const url = await postgres.createDatabase();
    const created = await runCli(['keys', 'create', '--email', 'ops@example.com', '--db', url]);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim();
    const server = await spawnServe({ db: url });
    try {
      expect((await sendRequest(server.url, key, 'POST', '/v2/alerts/', { name: 'cpu', metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 } })).status).toBe(201);
      const listed = await runCli(['--json', 'keys', 'list'], { env: { ALERTFORM_DB: url } });
      const records = (JSON.parse(listed.stdout) as { keys: Array<{ id: string; email: string | null }> }).keys;
      const ours = records.find((record) => record.email === 'ops@example.com')!;
      expect((await runCli(['keys', 'revoke', ours.id, '--db', url])).code).toBe(0);
      expect((await sendRequest(server.url, key, 'GET', '/v2/alerts/')).status).toBe(401);
      expect((await sendRequest(server.url, server.key, 'GET', '/v2/alerts/')).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('keys --db with an unreachable database fails with a message that hides the password', async () => {
    const result = await runCli(['keys', 'list', '--db', `postgres://someone:s3cret-pw@127.0.0.1:${postgres.port + 1}/nothing`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot open database postgres://127.0.0.1:${postgres.port + 1}/nothing`);
    expect(result.stderr).not.toContain('s3cret-pw');
  }, 60_000);

  it('answers 503 unavailable (JSON, no stack) while PostgreSQL is down, and recovers by itself', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }));
    const db = await postgres.createDatabase();
    const server = await startServer({ db, logger, host: '127.0.0.1', port: 0, apiKeys: ['the-key-123'] });
    const call = (method: string, path: string, body?: unknown) => sendRequest(server.url, 'the-key-123', method, path, body);
    try {
      const created = await call('POST', '/v2/alerts/', { name: 'before', metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 } });
      expect(created.status).toBe(201);
      await postgres.stopServer();
      for (const [method, path] of [['GET', '/v2/alerts/'], ['GET', `/v2/alerts/${created.body.id}/`], ['POST', '/v2/notifications/']] as const) {
        const response = await call(method, path, method === 'POST' ? { type: 'webhook', description: 'h', destination: 'https://x' } : undefined);
        expect([path, response.status]).toEqual([path, 503]);
        expect(response.body).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
        expect(response.headers.get('retry-after')).toBe('2');
        expect(response.text).not.toMatch(/at .*\.ts|ECONNREFUSED|postgres:\/\//);
      }
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const notReady = await fetch(`${server.url}/readyz`);
      expect(notReady.status).toBe(503);
      expect(((await notReady.json()) as { checks: unknown[] }).checks).toContainEqual(expect.objectContaining({ name: 'database', ready: false }));
      await postgres.startServer();
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect((await call('GET', `/v2/alerts/${created.body.id}/`)).body.name).toBe('before');
      expect((await call('POST', '/v2/alerts/', { name: 'after', metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 } })).status).toBe(201);
      const log = lines.join('');
      expect(log).toContain('database unavailable');
      expect(log).not.toContain('the-key-123');
      expect(log).not.toContain(db);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('loses no acknowledged write when PostgreSQL restarts under write load, and never answers 500', async () => {
    const server = await startTestServer({ db: await postgres.createDatabase() });
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    const progress = new EventEmitter();
    let writing = true;
    let sequence = 0;
    const writer = async () => {
      while (writing) {
        const name = `alert-${(sequence += 1)}`;
        const response = await server.request('POST', '/v2/alerts/', { name, metric: 'load.test', alert_criteria: { type: 'above', above_value: 1 } });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 201) acknowledged.push(response.body.id);
        progress.emit('response');
      }
    };
    const writers = Array.from({ length: 6 }, writer);
    try {
      const waitForWrites = async (count: number) => {
        const target = acknowledged.length + count;
        while (acknowledged.length < target) await once(progress, 'response');
      };
      await waitForWrites(30);
      await postgres.stopServer();
      const acknowledgedBeforeStart = acknowledged.length;
      await postgres.startServer();
      await waitForWrites(30);
      writing = false;
      await Promise.all(writers);
      expect(acknowledged.length).toBeGreaterThan(acknowledgedBeforeStart);
      expect(statuses.get(503), JSON.stringify([...statuses])).toBeGreaterThan(0);
      expect([...statuses.keys()].filter((status) => status !== 201 && status !== 503)).toEqual([]);
      for (const id of acknowledged) {
        const read = await server.request('GET', `/v2/alerts/${id}/`);
        expect([id, read.status]).toEqual([id, 200]);
      }
    } finally {
      writing = false;
      await Promise.allSettled(writers);
      await server.close();
    }
  }, 120_000);
});
