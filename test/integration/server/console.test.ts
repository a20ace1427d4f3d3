import { mkdtempSync } from 'node:fs';
import { EvaluationHealth } from '../../../src/server/evaluator/evaluation-health.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_FILES } from '../../../src/server/console/serve-console.js';
import { spawnServe } from '../../helpers/server-process.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { describeEachStore } from '../../helpers/store-backends.js';

const servers: TestServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});
async function start(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(options);
  servers.push(server);
  return server;
}

describe('serving the web console', () => {
  it('answers the page routes with the index page under a strict Content-Security-Policy', async () => {
    const server = await start();
    for (const path of ['/', '/alerts/0123abc', '/channels', '/deliveries']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const html = await response.text();
      expect(html).toContain('<script type="module" src="/console/app.js"></script>');
      // No inline script or style anywhere in the page.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/<style|style=/);
    }
  });

  it('serves every console file and the charting library, and nothing else', async () => {
    const server = await start();
    for (const name of CONSOLE_FILES) expect((await fetch(`${server.url}/console/${name}`)).status, name).toBe(200);
    const uplot = await fetch(`${server.url}/console/vendor/uplot.esm.js`);
    expect(uplot.headers.get('content-type')).toContain('text/javascript');
    expect(await uplot.text()).toContain('export { uPlot as default }');
    for (const path of ['/console/../package.json', '/console/%2e%2e/package.json', '/console/nope.js', '/alerts/a/b']) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`${server.url}/`, { method: 'POST' })).status).toBe(404);
  });

  it('logs the console requests by path only: the key the console sends never reaches the log', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    const key = 'console-log-key-0123456789abcdef';
    const server = await start({ keys: [key], logger });
    await fetch(`${server.url}/alerts/abc`);
    expect((await server.request('GET', '/v2/alerts/overview/?search=x', undefined, { bearer: true })).status).toBe(200);
    expect((await server.request('GET', '/v2/alerts/overview/', undefined, { key: 'wrong-key-0123456789abcdef', bearer: true })).status).toBe(401);
    const log = lines.join('');
    expect(log).toContain('"path":"/v2/alerts/overview/"');
    expect(log).toContain('"path":"/alerts/abc"');
    expect(log).not.toContain(key);
    expect(log).not.toContain('wrong-key-0123456789abcdef');
    expect(log).not.toContain('search=x');
  });

  it('serves no console with console: false (serve --no-console), the API unchanged', async () => {
    const server = await start({ console: false });
    expect((await fetch(`${server.url}/`)).status).toBe(404);
    expect((await fetch(`${server.url}/console/app.js`)).status).toBe(404);
    expect((await server.request('GET', '/v2/alerts/overview/')).status).toBe(200);
  });
});

describe('alertform serve and the console', () => {
  it('serves the console by default and not with --no-console (or ALERTFORM_NO_CONSOLE)', { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-console-serve-'));
    const on = await spawnServe({ db: join(dir, 'on.db') });
    try {
      expect((await fetch(`${on.url}/`)).status).toBe(200);
    } finally {
      await on.stop();
    }
    for (const [args, env] of [[['--no-console'], {}], [[], { ALERTFORM_NO_CONSOLE: '1' }]] as const) {
      const off = await spawnServe({ db: join(dir, 'off.db'), extraArgs: [...args], env });
      try {
        expect((await fetch(`${off.url}/`)).status).toBe(404);
        expect((await fetch(`${off.url}/v2/alerts/overview/`, { headers: { authorization: off.authorization } })).status).toBe(200);
      } finally {
        await off.stop();
      }
    }
  });
});

describeEachStore('GET /v2/alerts/overview/ on $name', (backend) => {
  const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
  async function withAlerts() {
    // A server that evaluates (its evaluator's states are written below by hand): otherwise every alert is not_evaluated.
    const evaluation = new EvaluationHealth({ evaluating: true });
    const server = await start({ keys: ['overview-key-a-0123456789abc', 'overview-key-b-0123456789abc'], db: await backend.createDb(), evaluation });
    const ids: Record<string, string> = {};
    for (const [name, metric] of [
      ['disk full', 'hosts.a.disk'],
      ['CPU high', 'hosts.a.cpu'],
      ['api errors', 'api.errors'],
      ['queue depth', 'queue.depth'],
    ] as const) {
      const created = await server.request('POST', '/v2/alerts/', { name, metric, alert_criteria: { type: 'above', above_value: 1 } });
      expect(created.status).toBe(201);
      ids[name] = created.body.id;
    }
    const evaluated = { history: [], deliveries: [] };
    const state = (status: string, more: object = {}) => JSON.stringify({ version: 1, status, triggered: [], ...more });
    for (const name of ['disk full', 'queue depth']) {
      await server.store.evaluation.saveEvaluations([{ alertId: ids[name]!, status: 'healthy', currentlyTriggeredMetrics: [], evalState: state('healthy'), ...evaluated }]);
    }
    await server.store.evaluation.saveEvaluations([{ alertId: ids['CPU high']!, status: 'alerting', currentlyTriggeredMetrics: ['hosts.a.cpu'], evalState: state('alerting'), ...evaluated }]);
    await server.store.history.appendHistory([{ alertId: ids['CPU high']!, status: 'alerting', value: 5, time: tenMinutesAgo, metric: 'hosts.a.cpu' }]);
    const failing = state('healthy', { queryFailing: true });
    await server.store.evaluation.saveEvaluations([{ alertId: ids['api errors']!, status: 'healthy', currentlyTriggeredMetrics: [], evalState: failing, ...evaluated }]);
    expect((await server.request('POST', `/v2/alerts/${ids['queue depth']}/muted/`, { duration: 60 })).status).toBe(200);
    return { server, ids };
  }

  it('counts every state, and lists alerting first with since, triggered metrics and channels', async () => {
    const { server, ids } = await withAlerts();
    const response = await server.request('GET', '/v2/alerts/overview/');
    expect(response.status).toBe(200);
    // One state per alert (muted is a flag beside it, counted apart).
    expect(response.body.counts).toEqual({ total: 4, alerting: 1, query_failing: 1, no_data: 0, not_evaluated: 0, healthy: 2, muted: 1 });
    expect(response.body.alerts.map((a: any) => [a.name, a.state, a.muted])).toEqual([
      ['CPU high', 'alerting', false],
      ['api errors', 'query_failing', false],
      ['disk full', 'healthy', false],
      ['queue depth', 'healthy', true],
    ]);
    const cpu = response.body.alerts[0];
    expect(cpu).toMatchObject({ id: ids['CPU high'], since: tenMinutesAgo, currently_triggered_metrics: ['hosts.a.cpu'], channels: [{ type: 'email', description: 'Email me' }] });
    expect(response.body.alerts[3].muted_until).toBeGreaterThan(Date.now() / 1000 + 3500);
  });

  it('filters by state, searches name and metric, sorts and pages', async () => {
    const { server } = await withAlerts();
    const names = async (query: string) => ((await server.request('GET', `/v2/alerts/overview/?${query}`)).body.alerts as any[]).map((a) => a.name);
    expect(await names('state=alerting&state=muted')).toEqual(['CPU high', 'queue depth']);
    expect(await names('search=HOSTS.A')).toEqual(['CPU high', 'disk full']);
    expect(await names('search=queue')).toEqual(['queue depth']);
    expect(await names('sort=name')).toEqual(['api errors', 'CPU high', 'disk full', 'queue depth']);
    expect(await names('sort=-name&max=2&page=2')).toEqual(['CPU high', 'api errors']);
    const page = await server.request('GET', '/v2/alerts/overview/?sort=name&max=3');
    expect(page.body).toMatchObject({ matching: 4, page: 1, max: 3, next_page: true });
  });

  it("shows another account none of the alerts, and answers bad input with 400 and no key with 401", async () => {
    const { server } = await withAlerts();
    const other = await server.request('GET', '/v2/alerts/overview/', undefined, { key: server.keys[1]! });
    expect(other.body.counts.total).toBe(0);
    expect(other.body.alerts).toEqual([]);
    const bad = await server.request('GET', '/v2/alerts/overview/?state=sleepy&sort=size&max=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_query');
    expect(bad.body.error.details.map((d: any) => d.path).sort()).toEqual(['max', 'sort', 'state']);
    expect((await server.request('GET', '/v2/alerts/overview/', undefined, { key: null })).status).toBe(401);
  });
});

describe('GET /v2/alerts/{id}/scheduled-mutes/', () => {
  it("lists the alert's scheduled mutes with their current or next window", async () => {
    const now = Date.UTC(2026, 0, 5, 12, 0); // a Monday, 12:00 UTC
    const server = await start({ now: () => now });
    const nightly = await server.request('POST', '/v2/schedules/', { name: 'nightly', start_time: '22:00', duration: 120, timezone: 'UTC', repeat: ['mon', 'tue'] });
    const lunch = await server.request('POST', '/v2/schedules/', { name: 'lunch', start_time: '11:30', duration: 60, timezone: 'UTC', repeat: ['mon'] });
    expect([nightly.status, lunch.status]).toEqual([201, 201]);
    const alert = await server.request('POST', '/v2/alerts/', {
      name: 'batch',
      metric: 'batch.lag',
      alert_criteria: { type: 'above', above_value: 1 },
      scheduled_mutes: [nightly.body.id, lunch.body.id],
    });
    expect(alert.status).toBe(201);
    const response = await server.request('GET', `/v2/alerts/${alert.body.id}/scheduled-mutes/`);
    expect(response.status).toBe(200);
    const [first, second] = response.body.scheduled_mutes;
    expect(first).toMatchObject({ name: 'nightly', active: false, window: { from: Date.UTC(2026, 0, 5, 22) / 1000, until: Date.UTC(2026, 0, 6, 0) / 1000 } });
    expect(second).toMatchObject({ name: 'lunch', active: true, window: { from: Date.UTC(2026, 0, 5, 11, 30) / 1000, until: Date.UTC(2026, 0, 5, 12, 30) / 1000 } });
    const other = await start();
    expect((await other.request('GET', `/v2/alerts/${alert.body.id}/scheduled-mutes/`)).status).toBe(404);
  });
});
