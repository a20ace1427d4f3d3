import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_SENDS_PER_ACCOUNT, TEST_SENDS_PER_CHANNEL } from '../../src/server/routes/test-send-limit.js';
import { processThreadCpuMs } from '../helpers/proc-cpu.js';
import { spawnServe, type ServeProcess } from '../helpers/server-process.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// Test notifications were a relay: 300 POST /v2/notifications/{id}/test/ in 14.5 s sent 3,000 emails through the
// operator's SMTP server, subject and body chosen by the tenant's template. After: at most 5 tests per channel per
// 10 minutes and 20 per account per hour (429 rate_limited with Retry-After beyond), and every templated test
// starts with "[TEST] " and a line naming the account that asked, which the template cannot remove.
// Webhooks stand in for email here: the limit is the route's, the same for every channel type.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const HOSTILE_KEY = 'hostile-tenant-key-0123456789';
const OTHER_KEY = 'other-tenant-key-0123456789ab';

async function call(server: ServeProcess, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
}

describe('test notifications are not a relay', () => {
  it('limits tests per channel and per account, and marks every one with the account that asked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'alertform-test-relay-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const keys = join(dir, 'keys');
    await writeFile(keys, `${OTHER_KEY}\n`, { mode: 0o600 });
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const server = await spawnServe({
      db: join(dir, 'alertform.db'),
      key: HOSTILE_KEY,
      extraArgs: ['--api-key-file', keys, '--allow-private-destinations'],
    });
    closers.push(() => server.kill());

    const channels: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const created = await call(server, HOSTILE_KEY, 'POST', '/v2/notifications/', {
        type: 'webhook',
        description: `relay ${i}`,
        destination: `${receiver.url}/victim-inbox`,
        template: { title: 'Your invoice is overdue', body: 'Pay at https://phish.example/' },
      });
      expect(created.status).toBe(201);
      channels.push(created.body.id);
    }

    const own = await call(server, OTHER_KEY, 'POST', '/v2/notifications/', { type: 'webhook', description: 'mine', destination: `${receiver.url}/other` });
    expect(own.status).toBe(201);

    // As fast as the attacker can: 30 tests of one channel at once, while another tenant tests its own channel.
    const [burst, other] = await Promise.all([
      Promise.all(Array.from({ length: 30 }, () => call(server, HOSTILE_KEY, 'POST', `/v2/notifications/${channels[0]}/test/`))),
      (async () => {
        // The wait counted in the server's CPU time (event-loop-lag.ts says why not the clock).
        const started = processThreadCpuMs(server.pid);
        const answer = await call(server, OTHER_KEY, 'POST', `/v2/notifications/${own.body.id}/test/`);
        return { status: answer.status, ms: processThreadCpuMs(server.pid) - started };
      })(),
    ]);
    // Another account is not held by this one's count, nor kept waiting.
    expect(other.status).toBe(202);
    expect(other.ms).toBeLessThan(2_000);
    expect(burst.filter((answer) => answer.status === 202)).toHaveLength(TEST_SENDS_PER_CHANNEL.limit);
    const refused = burst.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(30 - TEST_SENDS_PER_CHANNEL.limit);
    for (const answer of refused) {
      expect(answer.body.error.code).toBe('rate_limited');
      expect(answer.body.error.message).toMatch(/^too many test notifications for this channel \(at most 5 per 10 minutes\); retry in \d+ s$/);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(600);
    }

    // The other channels, until the account's limit: 20 tests an hour in all.
    const spread = [];
    for (const channel of channels.slice(1)) {
      for (let i = 0; i < 5; i += 1) spread.push(await call(server, HOSTILE_KEY, 'POST', `/v2/notifications/${channel}/test/`));
    }
    expect(spread.filter((answer) => answer.status === 202)).toHaveLength(TEST_SENDS_PER_ACCOUNT.limit - TEST_SENDS_PER_CHANNEL.limit);
    const last = spread.at(-1)!;
    expect(last.status).toBe(429);
    expect(last.body.error.message).toMatch(/^too many test notifications for this account \(at most 20 per 60 minutes\)/);
    expect(Number(last.retryAfter)).toBeGreaterThan(600);

    // Still not held once this account is at its limit.
    expect((await call(server, OTHER_KEY, 'POST', `/v2/notifications/${own.body.id}/test/`)).status).toBe(202);

    // Exactly what was let through was sent: 20 relayed messages, not 45.
    await until(async () => receiver.received.length, (n) => n >= TEST_SENDS_PER_ACCOUNT.limit + 2);
    await until(() => call(server, HOSTILE_KEY, 'GET', '/v2/deliveries/'), (answer) => answer.body.deliveries.length === 0);
    const relayed = receiver.received.filter((request) => request.path === '/victim-inbox');
    expect(relayed).toHaveLength(TEST_SENDS_PER_ACCOUNT.limit);
    for (const request of relayed) {
      const body = request.body as { title: string; body: string; test: boolean };
      expect(body.test).toBe(true);
      // The tenant's wording, but after a marker it cannot remove.
      expect(body.title).toBe('[TEST] Your invoice is overdue');
      expect(body.body).toMatch(/^\[TEST\] This is a test notification sent by alertform at the request of account \S+\. No alert is firing\.\n\nPay at/);
    }
  }, 90_000);
});
