import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sendRequest } from '../../helpers/server.js';
import { startServer } from '../../../src/server/index.js';
import { pino } from 'pino';
import { nodeArgsFor } from '../../helpers/source-entry.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'alertform-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Operator keys must be at least 24 characters: a readable name padded to that. */
const K = (name: string) => `${name}-0123456789abcdefghijkl`;

// Each CLI run spawns node: a second or more on a busy 2-core machine, hence the generous timeouts.
describe('alertform serve', () => {
  it('prints its URL, serves every --api-key and ALERTFORM_API_KEYS key, and stops cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [...nodeArgsFor(MAIN), 'serve', '--port', '0', '--db', ':memory:', '--api-key', K('flag-1'), `--api-key=${K('flag-2')}`],
      { env: { ...process.env, ALERTFORM_API_KEYS: `${K('env-1')}, ${K('env-2')}`, ALERTFORM_LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited early (${code}): ${stdout}`)));
    });
    try {
      for (const key of ['flag-1', 'flag-2', 'env-1', 'env-2'].map(K)) {
        expect([key, (await sendRequest(url, key, 'GET', '/v2/alerts/')).status]).toEqual([key, 200]);
      }
      expect((await sendRequest(url, 'not-given', 'GET', '/v2/alerts/')).status).toBe(401);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout).toContain('stopped');
    }
  }, 60_000);

  it('refuses a bad port with a clear message', async () => {
    const result = await runCli(['serve', '--port', 'eighty']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--port');
  });
});

describe('alertform keys', () => {
  it('creates a key shown once, lists keys without them, and revokes', async () => {
    const db = join(dir, 'keys.db');
    const created = await runCli(['keys', 'create', '--email', 'ops@example.com', '--db', db]);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const listed = await runCli(['--json', 'keys', 'list', '--db', db]);
    const { formatVersion, keys: records } = JSON.parse(listed.stdout) as { formatVersion: number; keys: Array<{ id: string; email: string; revoked_at: string | null }> };
    expect(formatVersion).toBe(1);
    expect(records).toEqual([{ id: expect.any(String), email: 'ops@example.com', created_at: expect.any(String), revoked_at: null }]);
    expect(listed.stdout).not.toContain(key);

    const server = await startServer({ db, port: 0, logger: pino({ level: 'silent' }) });
    try {
      const channels = await sendRequest(server.url, key, 'GET', '/v2/notifications/');
      expect(channels.body.notifications[0]).toMatchObject({ description: 'Email me', destination: 'ops@example.com' });
      expect((await runCli(['keys', 'revoke', records[0]!.id, '--db', db])).code).toBe(0);
      expect((await sendRequest(server.url, key, 'GET', '/v2/alerts/')).status).toBe(401);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('refuses to revoke a key that does not exist', async () => {
    const again = await runCli(['keys', 'revoke', 'no-such-id', '--db', join(dir, 'empty.db')]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no key with id');
  });

  it('refuses an email that is not one', async () => {
    const result = await runCli(['keys', 'create', '--email', 'nobody', '--db', join(dir, 'x.db')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('not an email address');
  });
});
