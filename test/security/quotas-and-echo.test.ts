import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 12, item 9. Before: an account could create alerts, channels and schedules without bound, and error
// bodies echoed whatever was sent (a 100 kB name came back whole). After: operator quotas (403 quota_exceeded)
// and echoed values cut at 200 characters.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ quotas: { alerts: 3, channels: 2, schedules: 1 } });
});
afterAll(() => server.close());

const alert = (name: string) => ({ name, metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 } });

describe('per-account quotas', () => {
  it('refuses the alert past the limit with 403 quota_exceeded, and counts per account', async () => {
    for (const name of ['q1', 'q2', 'q3']) expect((await server.request('POST', '/v2/alerts/', alert(name))).status).toBe(201);
    const over = await server.request('POST', '/v2/alerts/', alert('q4'));
    expect(over.status).toBe(403);
    expect(over.body.error).toEqual({ code: 'quota_exceeded', message: 'the account already has 3 alerts, its limit; delete some first or ask the operator' });
    // The account's "Email me" channel counts: one more channel reaches the limit of 2.
    expect((await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'h1', destination: 'https://x.example/h' })).status).toBe(201);
    expect((await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'h2', destination: 'https://x.example/h' })).body.error.code).toBe('quota_exceeded');
    const schedule = { name: 's', start_time: '02:00', duration: 60 };
    expect((await server.request('POST', '/v2/schedules/', schedule)).status).toBe(201);
    expect((await server.request('POST', '/v2/schedules/', { ...schedule, name: 's2' })).status).toBe(403);
    // Deleting makes room again.
    const listed = await server.request('GET', '/v2/alerts/?name=q1');
    await server.request('DELETE', `/v2/alerts/${listed.body.alerts[0].id}/`);
    expect((await server.request('POST', '/v2/alerts/', alert('q5'))).status).toBe(201);
  });

  it('has sensible defaults and refuses a bad flag', async () => {
    const result = await runCli(['serve', '--db', ':memory:', '--max-alerts-per-account', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--max-alerts-per-account must be a whole number of at least 1');
    const help = await runCli(['serve', '--help']);
    expect(help.stdout).toMatch(/--max-alerts-per-account <n>[\s\S]*default: "10000"/);
  }, 90_000);
});

describe('error bodies never echo unbounded input', () => {
  it('cuts a long name, a long unknown path and a long unknown field', async () => {
    const name = 'n'.repeat(100_000);
    const tooLong = await server.request('POST', '/v2/alerts/', { ...alert(name) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text.length).toBeLessThan(2_000);
    const path = await server.request('GET', `/v2/${'p'.repeat(8_000)}`);
    expect(path.status).toBe(404);
    expect(path.text.length).toBeLessThan(2_000);
    const field = await server.request('POST', '/v2/alerts/muted/', { duration: 5, [`f${'x'.repeat(50_000)}`]: 1 });
    expect(field.status).toBe(400);
    expect(field.text.length).toBeLessThan(2_000);
  });
});
