import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { startFakeRender } from '../../helpers/fake-render-server.js';
import { spawnNodeServer } from '../../helpers/server-process.js';
import { SERVE_OPTIONS } from '../../../src/cli/serve-options.js';
import { NO_SMTP_WARNING } from '../../../src/server/outbox/delivery-service.js';
import { until } from '../../helpers/until.js';
import { pino } from 'pino';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../docs/server.md', import.meta.url));

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  cleanups.push(() => server.close());
  return server;
}

/** The value of one sample of the Prometheus text, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inner = /\{(.*)\}/.exec(line)?.[1] ?? '';
    if (Object.entries(labels).every(([key, value]) => inner.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('/readyz', () => {
  it('is 200 with each check when the database answers and is migrated', async () => {
    const server = await started({ smtpUrl: 'smtp://127.0.0.1:25' });
    const response = await server.request('GET', '/readyz', undefined, { key: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready', checks: [{ name: 'database', ready: true }, { name: 'migrations', ready: true }] });
  });

  it('says, ready, that email cannot be sent without --smtp-url; the start warns when alerts notify an email channel', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'af-no-smtp-')), 'a.db');
    const first = await startTestServer({ db, smtpUrl: 'smtp://127.0.0.1:25' });
    const channel = await first.request('POST', '/v2/notifications/', { type: 'email', description: 'ops mail', destination: 'ops@example.com' });
    expect(channel.status, channel.text).toBe(201);
    const alert = await first.request('POST', '/v2/alerts/', { name: 'cpu', metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 }, notification_channels: ['ops mail'] });
    expect(alert.status, alert.text).toBe(201);
    await first.close();

    const lines: string[] = [];
    const server = await started({ db, keys: [first.key], logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) });
    const response = await server.request('GET', '/readyz', undefined, { key: null });
    expect(response.status).toBe(200);
    expect(response.body.checks).toContainEqual({ name: 'email', ready: true, warning: NO_SMTP_WARNING });
    const warning = await until(
      async () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.emailChannels !== undefined),
      (entry) => entry !== undefined,
    );
    expect(warning).toMatchObject({ level: 40, emailChannels: 1 });
    expect(warning!.msg).toContain('--smtp-url');
  });

  it('is 503 JSON naming the database when it does not answer', async () => {
    const server = await started();
    await server.store.close();
    const response = await server.request('GET', '/readyz', undefined, { key: null });
    expect(response.status).toBe(503);
    expect(response.body.status).toBe('not ready');
    expect(response.body.checks).toContainEqual({ name: 'database', ready: false, detail: 'the database does not answer' });
  });

  it('checks that the evaluator runs when there is one', async () => {
    const render = await startFakeRender(() => ({ series: [] }));
    cleanups.push(() => render.close());
    const server = await started({ graphiteUrl: render.url, evalIntervalSeconds: 60 });
    const response = await server.request('GET', '/readyz', undefined, { key: null });
    expect(response.status).toBe(200);
    expect(response.body.checks).toContainEqual({ name: 'evaluator', ready: true });
  });
});

describe('/metrics', () => {
  it('counts requests by route pattern and status with latency, and alerts by status', async () => {
    const server = await started();
    const created = await server.request('POST', '/v2/alerts/', { name: 'load', metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 } });
    expect(created.status).toBe(201);
    expect((await server.request('GET', `/v2/alerts/${created.body.id}/`)).status).toBe(200);
    expect((await server.request('GET', '/v2/alerts/nope/')).status).toBe(404);
    expect((await server.request('GET', '/nowhere')).status).toBe(404);

    const response = await server.request('GET', '/metrics', undefined, { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = response.text;
    const read = { method: 'GET', route: '/v2/alerts/:id', status: '200' };
    expect(sample(text, 'alertform_http_request_duration_seconds_count', read)).toBe(1);
    expect(sample(text, 'alertform_http_request_duration_seconds_count', { ...read, status: '404' })).toBe(1);
    expect(sample(text, 'alertform_http_request_duration_seconds_bucket', { ...read, le: '+Inf' })).toBe(1);
    expect(sample(text, 'alertform_http_request_duration_seconds_count', { method: 'POST', route: '/v2/alerts', status: '201' })).toBe(1);
    expect(sample(text, 'alertform_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBe(1);
    // An id never becomes a label.
    expect(text).not.toContain(created.body.id);
    expect(sample(text, 'alertform_alerts', { status: 'healthy' })).toBe(1);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('reports evaluation cycles, their lag and render errors', async () => {
    const render = await startFakeRender(() => ({ status: 500, body: 'graphite broke' }));
    cleanups.push(() => render.close());
    const server = await started({ graphiteUrl: render.url, evalIntervalSeconds: 0.2 });
    const created = await server.request('POST', '/v2/alerts/', { name: 'load', metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 } });
    expect(created.status).toBe(201);
    await vi.waitFor(
      async () => {
        const text = (await server.request('GET', '/metrics', undefined, { key: null })).text;
        expect(sample(text, 'alertform_render_errors_total')).toBeGreaterThan(0);
        expect(sample(text, 'alertform_evaluation_cycle_duration_seconds_count')).toBeGreaterThan(0);
        expect(sample(text, 'alertform_evaluation_lag_seconds')).toBeGreaterThanOrEqual(0);
      },
      { timeout: 15_000, interval: 100 },
    );
  });
});

describe('serve configuration from the environment', () => {
  it('takes every option from ALERTFORM_* (a flag wins) and logs JSON lines when it starts and stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-serve-env-'));
    const db = join(dir, 'from-env.db');
    const server = await spawnNodeServer(MAIN, ['serve', '--port', '0'], {
      env: { ALERTFORM_PORT: 'not-a-port', ALERTFORM_DB: db, ALERTFORM_HOST: '127.0.0.1', ALERTFORM_LOG_LEVEL: 'info', ALERTFORM_API_KEYS: 'env-key-0123456789abcdefghij' },
    });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const alerts = await fetch(`${server.url}/v2/alerts/`, { headers: { authorization: `Basic ${Buffer.from('env-key-0123456789abcdefghij:').toString('base64')}` } });
    expect(alerts.status).toBe(200);
    expect(await server.stop()).toBe(0);
    const lines = server
      .stderr()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: string; msg: string; db?: string; url?: string });
    const start = lines.find((line) => line.msg === 'server started');
    expect(start).toMatchObject({ level: 'info', db, url: server.url, pid: server.pid });
    // Every line carries pino's pid once: never a second "pid" key of our own.
    for (const line of server.stderr().trim().split('\n')) expect(line.match(/"pid":/g)).toHaveLength(1);
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'server stopped', url: server.url });
    expect(readFileSync(db).length).toBeGreaterThan(0);
  });

  it('--log-level (or ALERTFORM_LOG_LEVEL) silences the logs', async () => {
    const server = await spawnNodeServer(MAIN, ['serve', '--port', '0', '--db', ':memory:', '--log-level', 'silent'], { env: { ALERTFORM_LOG_LEVEL: 'info' } });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).toBe('');
  });

  it('docs/server.md lists every serve option with its variable', () => {
    const docs = readFileSync(DOCS, 'utf8');
    for (const option of SERVE_OPTIONS) expect(docs).toMatch(new RegExp(`\\| \`${option.flags.split(' ')[0]}[^|]*\\| \`${option.env}\``));
  });
});
