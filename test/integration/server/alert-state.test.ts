import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { runCli } from '../../helpers/run-cli.js';
import { callServe, spawnServe, type ServeProcess } from '../../helpers/server-process.js';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { until } from '../../helpers/until.js';

/*
 * The one answer: for every state an alert can be in (healthy, alerting, no_data, query_failing, not_evaluated), the
 * API read, the console's overview, /metrics and `alertform status` (its text and exit code) say the same, on a real
 * `alertform serve` process, on both stores. Graphite is the fake render endpoint: what it answers is the test's.
 */

/** What the fake Graphite answers now: per target prefix a value, no series (`none`), or every request fails. */
const graphite = { hot: 95, quiet: 10 as number | 'none', down: false };
let render: Awaited<ReturnType<typeof startFakeRender>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'alertform-state-'));
  receiver = await startWebhookReceiver();
  render = await startFakeRender((request) => {
    if (graphite.down) return { status: 500, body: 'graphite-web is down' };
    const now = Math.floor(Date.now() / 1000);
    return {
      series: request.targets.flatMap((target) => {
        if (target.startsWith('hot')) return [makeSeries(target, [graphite.hot, graphite.hot], now - 30, 30)];
        if (target.startsWith('quiet') && graphite.quiet !== 'none') return [makeSeries(target, [graphite.quiet, graphite.quiet], now - 30, 30)];
        if (target.startsWith('flat')) return [makeSeries(target, [1, 1], now - 30, 30)];
        // A renamed metric: no series matches.
        return [];
      }),
    };
  });
});
afterAll(async () => {
  await render.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const status = (server: ServeProcess, ...args: string[]) =>
  runCli(['status', ...args], { env: { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key } });

/**
 * Every surface's answer, read until they agree (a cycle may end between two reads): each alert's API state, the
 * overview's counts and rows, /metrics' gauge per state; `done` says when the states are the ones awaited.
 */
async function surfaces(server: ServeProcess, done: (states: Record<string, string>) => boolean = () => true) {
  const read = async () => {
    const alerts = (await callServe(server, 'GET', '/v2/alerts/')).body.alerts as { name: string; state: string; status: string }[];
    const overview = (await callServe(server, 'GET', '/v2/alerts/overview/')).body;
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const states = Object.fromEntries(alerts.map((alert) => [alert.name, alert.state]));
    const again = (await callServe(server, 'GET', '/v2/alerts/')).body.alerts as { name: string; state: string }[];
    return { alerts, overview, metrics, states, stable: again.every((alert) => states[alert.name] === alert.state) };
  };
  const { alerts, overview, metrics, states } = await until(read, (r) => r.stable && done(r.states));
  const gauge = (state: string) => Number(new RegExp(`^alertform_alerts_by_state\\{state="${state}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? NaN);
  for (const state of ['healthy', 'alerting', 'no_data', 'query_failing', 'not_evaluated']) {
    const count = alerts.filter((alert) => alert.state === state).length;
    expect(overview.counts[state], `overview ${state}`).toBe(count);
    expect(gauge(state), `/metrics ${state}`).toBe(count);
  }
  // The overview's rows carry the same state as the API.
  for (const row of overview.alerts as { name: string; state: string }[]) expect(row.state).toBe(states[row.name]);
  return { states, alerts, metrics };
}

const evaluationHealth = async (server: ServeProcess) => {
  const response = await fetch(`${server.url}/healthz/evaluation`);
  return { code: response.status, body: (await response.json()) as { status: string; healthy: boolean } };
};

describeEachStore('one answer everywhere', (backend) => {
  let db: string;
  let server: ServeProcess;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    db = backend.name === 'sqlite' ? join(dir, `${backend.name}.db`) : await backend.createDb();
    Object.assign(graphite, { hot: 95, quiet: 10, down: false });
    server = await spawnServe({
      db,
      logLevel: 'info',
      extraArgs: ['--graphite-url', render.url, '--eval-interval', '0.2', '--allow-private-destinations'],
    });
    const channel = await callServe(server, 'POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
    expect(channel.status).toBe(201);
    const hook = channel.body.id as string;
    const alerts = [
      { name: 'Flat', metric: 'flat.cpu' },
      { name: 'Hot', metric: 'hot.cpu' },
      { name: 'Quiet', metric: 'quiet.cpu', on_no_data: 'notify' },
      { name: 'Renamed', metric: 'renamed.cpu' },
    ];
    for (const alert of alerts) {
      const created = await callServe(server, 'POST', '/v2/alerts/', {
        ...alert,
        alert_criteria: { type: 'above', above_value: 90 },
        notification_channels: [hook],
        notification_type: ['state_change'],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids[alert.name] = created.body.id;
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('healthy, alerting and no_data: the same on every surface; status lists them and exits 1', { timeout: 60_000 }, async () => {
    const { states, alerts } = await surfaces(server, (states) => Object.values(states).every((state) => state !== 'not_evaluated'));
    expect(states).toEqual({ Flat: 'healthy', Hot: 'alerting', Quiet: 'healthy', Renamed: 'no_data' });
    // The documented status keeps its values: a renamed metric is not alerting.
    expect(alerts.find((alert) => alert.name === 'Renamed')?.status).toBe('healthy');
    const text = await status(server);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('ALERTING  Hot  hot.cpu\nNO DATA  Renamed\n1 of 4 alerts alerting; 1 cannot be known\n');
    // No data is recorded in the history, where the console and `alertform history` read it.
    const history = (await callServe(server, 'GET', `/v2/alerts/history/?id=${ids.Renamed}&status=no_data`)).body;
    expect(history[ids.Renamed!]).toEqual([{ status: 'no_data', value: null, time: expect.any(String), metric: 'renamed.cpu' }]);
  });

  it('no_data with on_no_data notify: a no_data notification, and one when data returns; status exits 3 while nothing alerts', { timeout: 60_000 }, async () => {
    graphite.quiet = 'none';
    graphite.hot = 10;
    await surfaces(server, (states) => states.Quiet === 'no_data' && states.Hot === 'healthy');
    const deliveries = async () =>
      ((await callServe(server, 'GET', `/v2/deliveries/?alert_id=${ids.Quiet}&state=delivered&state=pending`)).body.deliveries as { event: string }[]).map(
        (delivery) => delivery.event,
      );
    await until(deliveries, (events) => events.includes('no_data'));
    const text = await status(server);
    expect(text.code).toBe(3);
    expect(text.stdout).toBe('NO DATA  Quiet\nNO DATA  Renamed\nnothing is known to be alerting, but 2 of 4 alerts cannot be known\n');
    const json = JSON.parse((await status(server, '--json')).stdout);
    expect(json).toMatchObject({ total: 4, alertingCount: 0, unknownCount: 2 });

    graphite.quiet = 10;
    await surfaces(server, (states) => states.Quiet === 'healthy');
    expect(await until(deliveries, (events) => events.includes('no_data_recovered'))).toEqual(['no_data', 'no_data_recovered']);
  });

  it('healthy everywhere: status says nothing is alerting and exits 0', { timeout: 60_000 }, async () => {
    // The renamed metric is renamed back: data again.
    const fixed = await callServe(server, 'PUT', `/v2/alerts/${ids.Renamed}/`, { metric: 'flat.renamed' });
    expect(fixed.status).toBe(200);
    await surfaces(server, (states) => Object.values(states).every((state) => state === 'healthy'));
    const text = await status(server);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('nothing is alerting (4 alerts)\n');
    expect(await evaluationHealth(server)).toMatchObject({ code: 200, body: { status: 'healthy', healthy: true } });
  });

  it('Graphite down: query_failing everywhere, status exits 3, evaluation health 503, one warning in the log; /readyz stays ready', { timeout: 60_000 }, async () => {
    graphite.hot = 95;
    await surfaces(server, (states) => states.Hot === 'alerting');
    graphite.down = true;
    await surfaces(server, (states) => Object.values(states).every((state) => state === 'query_failing'));
    const text = await status(server);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain('QUERY FAILING  Hot\n');
    expect(text.stdout).toContain('nothing is known to be alerting, but 4 of 4 alerts cannot be known\n');
    expect(await evaluationHealth(server)).toMatchObject({ code: 503, body: { status: 'graphite_failing', healthy: false } });
    const { metrics } = await surfaces(server);
    expect(metrics).toMatch(/^alertform_evaluation_healthy 0$/m);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    // Several cycles failed; the warning was said once, on the change.
    const cycles = render.requests.length;
    await until(async () => render.requests.length, (count) => count >= cycles + 5);
    const warnings = server.stderr().split('\n').filter((line) => line.includes('every Graphite query fails'));
    expect(warnings, server.stderr().split('\n').filter((line) => line.includes('fail')).join('\n')).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn', condition: 'graphite_failing' });
    graphite.down = false;
  });

  it('a server that evaluates nothing: not_evaluated everywhere, status exits 3, evaluation health says so', { timeout: 60_000 }, async () => {
    await server.stop();
    // The same database, served without --graphite-url: what it stored is no longer anyone's judgement.
    server = await spawnServe({ db, key: server.key, logLevel: 'info' });
    const { states } = await surfaces(server);
    expect(Object.values(states), JSON.stringify(states)).toEqual(['not_evaluated', 'not_evaluated', 'not_evaluated', 'not_evaluated']);
    const text = await status(server);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain('NOT EVALUATED  Hot\n');
    expect(await evaluationHealth(server)).toMatchObject({ code: 503, body: { status: 'not_evaluating', healthy: false } });
    expect(server.stderr()).toContain('this server evaluates no alerts');
  });
});
