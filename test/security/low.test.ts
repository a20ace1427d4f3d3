import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store.js';
import { GraphLinkSigner } from '../../src/server/graph/graph-links.js';
import { signAckLink } from '../../src/server/ack/ack-links.js';
import { runCli } from '../helpers/run-cli.js';
import { sendRequest, startTestServer } from '../helpers/server.js';
import { nodeArgsFor } from '../helpers/source-entry.js';

// Issue 12, item 7. Before: the database, -wal and -shm were created 0644 (umask 022), "k1" was a fine operator
// key, 1,000 wrong keys a second were answered 401 without end, and keys could only be given in argv (ps shows
// them). After: 0600, keys of 24+ characters without ":", 429 with Retry-After, --api-key-file and a warning.

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'alertform-low-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('database files', () => {
  it('are created 0600, -wal and -shm included, and an existing 0644 database is tightened', async () => {
    const path = join(dir, 'fresh.db');
    const store = openSqliteStore(path);
    await store.accounts.createAccount('a@example.com');
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect([file, (await stat(file)).mode & 0o777]).toEqual([file, 0o600]);
    await store.close();
    const old = join(dir, 'old.db');
    await writeFile(old, '', { mode: 0o644 });
    await openSqliteStore(old).close();
    expect((await stat(old)).mode & 0o777).toBe(0o600);
  });

  it('of the demo live in a directory only its owner can enter', async () => {
    const demo = join(dir, 'demo');
    const result = await runCli(['demo', '--dir', demo, '--port', '0', '--exit'], { timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    expect((await stat(demo)).mode & 0o777).toBe(0o700);
    expect((await stat(join(demo, 'alertform.db'))).mode & 0o777).toBe(0o600);
  }, 150_000);
});

describe('operator keys', () => {
  it.each([
    [['--api-key', 'short-key'], 'API key #1 is shorter than 24 characters'],
    [['--api-key', 'a-key-that-is-long-enough:yes'], 'API key #1 contains ":"'],
  ])('refuses %j without printing the key', async (args, message) => {
    const result = await runCli(['serve', '--db', ':memory:', ...args]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain(args[1]);
  }, 60_000);

  it('reads --api-key-file, and warns when a key is on the command line', async () => {
    const file = join(dir, 'keys');
    const fileKey = 'from-a-file-0123456789abcdef';
    await writeFile(file, `# operator keys\n${fileKey}\n`, { mode: 0o600 });
    const argKey = 'from-argv-0123456789abcdefgh';
    const child = spawn(process.execPath, [...nodeArgsFor(MAIN), 'serve', '--port', '0', '--db', ':memory:', '--api-key-file', file, '--api-key', argKey], {
      env: { ...process.env, ALERTFORM_LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(stdout);
          if (match) resolve(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
      });
      expect((await sendRequest(url, fileKey, 'GET', '/v2/alerts/')).status).toBe(200);
      expect((await sendRequest(url, argKey, 'GET', '/v2/alerts/')).status).toBe(200);
      expect(stderr).toContain('warning: a key given with --api-key is visible to every user of this machine');
      expect(stderr).not.toContain(argKey);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);
});

describe('repeated 401s from one address', () => {
  it('are answered 429 with Retry-After, for wrong keys only, until the window ends', async () => {
    let now = 1_000_000;
    const server = await startTestServer({ authFailures: { maxFailures: 5, windowMs: 60_000, now: () => now } });
    try {
      for (let i = 0; i < 5; i += 1) expect((await server.request('GET', '/v2/alerts/', undefined, { key: `guess-${i}` })).status).toBe(401);
      const blocked = await server.request('GET', '/v2/alerts/', undefined, { key: 'guess-6' });
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('retry-after')).toBe('60');
      expect(blocked.body.error.code).toBe('rate_limited');
      // Issue 19 item 6: a right key is never locked out (test/security/login-limiter.test.ts).
      expect((await server.request('GET', '/v2/alerts/')).status).toBe(200);
      now += 30_000;
      expect((await server.request('GET', '/v2/alerts/', undefined, { key: 'guess-7' })).headers.get('retry-after')).toBe('30');
      now += 30_000;
      expect((await server.request('GET', '/v2/alerts/', undefined, { key: 'guess-8' })).status).toBe(401);
      // /healthz needs no key and is never limited.
      expect((await server.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('forged link tokens from one address', () => {
  it('count with wrong API keys: past the limit they are answered 429, while a token that verifies still goes through', async () => {
    let now = 2_000_000_000_000;
    const server = await startTestServer({ now: () => now, authFailures: { maxFailures: 3, windowMs: 60_000, now: () => now } });
    try {
      const signer = await GraphLinkSigner.load(server.store);
      const seconds = Math.floor(now / 1000);
      const expiredAck = signAckLink(signer, { alertId: 'a1', episode: null, expires: seconds - 1 });
      const goodGraph = signer.sign({ alertId: 'no-such-alert', time: seconds, expires: seconds + 3600 });
      // Expired links are real links from old mail: refused 410, never counted.
      for (let i = 0; i < 5; i += 1) expect((await fetch(`${server.url}/v2/ack-links/${expiredAck}`)).status).toBe(410);
      for (const path of ['/v2/ack-links/forged.1', '/v2/graphs/forged.2.png', '/v2/ack-links/forged.3']) {
        expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
      }
      const blocked = await fetch(`${server.url}/v2/graphs/forged.4.png`);
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('retry-after')).toBe('60');
      expect(((await blocked.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
      expect((await fetch(`${server.url}/v2/ack-links/forged.5`, { method: 'POST' })).status).toBe(429);
      // One count per address: a wrong API key is refused too now, a right one is not.
      expect((await server.request('GET', '/v2/alerts/', undefined, { key: 'guess-after-links' })).status).toBe(429);
      expect((await server.request('GET', '/v2/alerts/')).status).toBe(200);
      // A token that verifies is looked at (its alert does not exist: 404, not 429).
      expect((await fetch(`${server.url}/v2/graphs/${goodGraph}.png`)).status).toBe(404);
      now += 60_000;
      expect((await fetch(`${server.url}/v2/ack-links/forged.6`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
