import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender, type RenderReply } from '../../helpers/fake-render-server.js';
import { postgresAvailability, startPostgres, type Postgres } from '../../helpers/postgres.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

// The dead man's switch: a GET of --heartbeat-url after every healthy evaluation cycle, against a fake render
// endpoint and a real local receiver; none while Graphite or the database is down, and again once they are back.

const SECRET = 'ping-3f1c9a2e-7d4b-4e8a-9c61-5b0f2d8e4a17';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** Log lines of a server, and a wait for the n-th line holding `text`. */
function capturedLogs() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }));
  const count = (text: string) => lines.filter((line) => line.includes(text)).length;
  return { logger, lines, count, reach: (text: string, n: number) => until(async () => count(text), (c) => c >= n, 30_000, 20) };
}

/** A render endpoint answering every target with the value 1, or `failing` with a 500. */
async function switchableRender(port?: number) {
  const state = { failing: false };
  const reply = (request: { targets: string[] }): RenderReply =>
    state.failing
      ? { status: 500, body: 'graphite broke' }
      : { series: request.targets.map((target) => makeSeries(target, [1, 1], Math.floor(Date.now() / 1000) - 30, 30)) };
  const render = await startFakeRender(reply, port === undefined ? {} : { port });
  return { render, state, port: Number(new URL(render.url).port) };
}

/** The value of one sample of the Prometheus text (0 when the series is absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inner = /\{(.*)\}/.exec(line)?.[1] ?? '';
    if (Object.entries(labels).every(([key, value]) => inner.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

const metricsOf = (server: TestServer) => server.request('GET', '/metrics', undefined, { key: null }).then((r) => r.text);

/** Waits until no ping is in flight: every healthy cycle's ping has ended (sent, failed or skipped). */
function settled(server: TestServer) {
  return until(
    () => metricsOf(server),
    (text) =>
      sample(text, 'alertform_evaluation_cycle_duration_seconds_count') - sample(text, 'alertform_heartbeat_withheld_total', { reason: 'graphite_failed' }) ===
      sample(text, 'alertform_heartbeats_sent_total') + sample(text, 'alertform_heartbeats_skipped_total') + sample(text, 'alertform_heartbeats_failed_total'),
  );
}

async function createAlert(server: TestServer, metric: string) {
  const created = await server.request('POST', '/v2/alerts/', { name: `alert ${metric}`, metric, alert_criteria: { type: 'above', above_value: 100 } });
  expect(created.status).toBe(201);
}

describe('the heartbeat (--heartbeat-url)', () => {
  it('pings once per healthy cycle (with no alert too), stops while every render query fails or Graphite is closed, and resumes', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    let graphite = await switchableRender();
    closers.push(() => graphite.render.close());
    const logs = capturedLogs();
    const server = await startTestServer({
      graphiteUrl: graphite.render.url,
      evalIntervalSeconds: 0.2,
      heartbeatUrl: `${receiver.url}/ping/${SECRET}`,
      allowPrivateDestinations: true,
      logger: logs.logger,
    });
    closers.push(() => server.close());

    // No alert at all: the loop and the database are alive, and that is what the switch hears.
    const first = await receiver.next();
    expect(first.method).toBe('GET');
    expect(first.path).toBe(`/ping/${SECRET}`);
    expect(first.headers['user-agent']).toMatch(/^alertform\/\d+\.\d+\.\d+ heartbeat$/);
    await createAlert(server, 'heartbeat.load');
    await until(() => Promise.resolve(graphite.render.requests.length), (n) => n >= 2);

    // One ping per healthy cycle: every cycle counted so far sent its ping or, when the previous ping was still
    // waiting for its answer (a loaded machine answers a ping slower than a 0.2 s cycle), skipped it, or earned
    // none (a loaded machine can time a 0.2 s cycle's queries out: withheld); the last one may still be in flight.
    // A ping's time limit is the cycle's interval, 0.2 s here: a loaded machine can also time one out (failed),
    // and nothing else may fail a ping to this receiver, which answers 200 at once.
    const healthy = await until(
      () => metricsOf(server),
      (text) => sample(text, 'alertform_heartbeats_sent_total') >= 5,
    );
    const cycles = sample(healthy, 'alertform_evaluation_cycle_duration_seconds_count');
    const sent = sample(healthy, 'alertform_heartbeats_sent_total');
    const skipped = sample(healthy, 'alertform_heartbeats_skipped_total');
    const failed = sample(healthy, 'alertform_heartbeats_failed_total');
    const withheld = sample(healthy, 'alertform_heartbeat_withheld_total', { reason: 'graphite_failed' });
    const counts = JSON.stringify({ cycles, sent, skipped, failed, withheld });
    expect(cycles - sent - skipped - failed - withheld, counts).toBeGreaterThanOrEqual(0);
    expect(cycles - sent - skipped - failed - withheld, counts).toBeLessThanOrEqual(1);
    const failures = logs.lines.filter((line) => line.includes('heartbeat ping failed')).map((line) => JSON.parse(line).error as string);
    expect(failures.every((error) => error === 'timed out'), failures.join(', ')).toBe(true);
    expect(receiver.received.length).toBeGreaterThanOrEqual(sent);

    // Graphite answers 500 to everything: the cycles run on, and no ping goes out.
    graphite.state.failing = true;
    const withheldLine = 'no heartbeat: every Graphite query of the cycle failed';
    const before = logs.count(withheldLine);
    await logs.reach(withheldLine, before + 2);
    // The last healthy cycle's ping may still be on its way (a loaded machine): it counts before the failing ones.
    await settled(server);
    const pingsWhileFailing = receiver.received.length;
    await logs.reach(withheldLine, before + 5);
    expect(receiver.received.length).toBe(pingsWhileFailing);
    expect(sample(await metricsOf(server), 'alertform_heartbeat_withheld_total', { reason: 'graphite_failed' })).toBeGreaterThanOrEqual(5);

    graphite.state.failing = false;
    await receiver.waitFor(() => receiver.received.length > pingsWhileFailing);

    // Graphite closed (connections refused): none either; opened again on the same port: pings again.
    const port = graphite.port;
    await graphite.render.close();
    const closedFrom = logs.count(withheldLine);
    await logs.reach(withheldLine, closedFrom + 2);
    await settled(server);
    const pingsWhileClosed = receiver.received.length;
    await logs.reach(withheldLine, closedFrom + 5);
    expect(receiver.received.length).toBe(pingsWhileClosed);
    graphite = await switchableRender(port);
    await receiver.waitFor(() => receiver.received.length > pingsWhileClosed);

    // The ping URL is a secret: the logs show its origin at most.
    const log = logs.lines.join('');
    expect(log).not.toContain(SECRET);
    expect(log).toContain(`"heartbeat":"${receiver.url}/…"`);
    expect(receiver.received.every((request) => request.path === `/ping/${SECRET}`)).toBe(true);
  }, 90_000);

  it('counts a ping the switch refuses as failed, logging the class of failure and never the URL', async () => {
    const receiver = await startWebhookReceiver(() => 503);
    closers.push(receiver.close);
    const { render } = await switchableRender();
    closers.push(() => render.close());
    const logs = capturedLogs();
    const server = await startTestServer({
      graphiteUrl: render.url,
      evalIntervalSeconds: 0.2,
      heartbeatUrl: `${receiver.url}/ping/${SECRET}`,
      allowPrivateDestinations: true,
      logger: logs.logger,
    });
    closers.push(() => server.close());
    await logs.reach('heartbeat ping failed', 2);
    const text = await metricsOf(server);
    expect(sample(text, 'alertform_heartbeats_failed_total')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'alertform_heartbeats_sent_total')).toBe(0);
    const failure = logs.lines.find((line) => line.includes('heartbeat ping failed'))!;
    expect(JSON.parse(failure)).toMatchObject({ level: 40, error: 'answered HTTP 5xx' });
    expect(logs.lines.join('')).not.toContain(SECRET);
  }, 60_000);

  it('never pings a loopback address unless private destinations are allowed (the webhook SSRF rules)', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const { render } = await switchableRender();
    closers.push(() => render.close());
    const logs = capturedLogs();
    const server = await startTestServer({ graphiteUrl: render.url, evalIntervalSeconds: 0.2, heartbeatUrl: `${receiver.url}/ping/${SECRET}`, logger: logs.logger });
    closers.push(() => server.close());
    await logs.reach('heartbeat ping failed', 2);
    expect(receiver.received).toEqual([]);
    expect(logs.lines.find((line) => line.includes('heartbeat ping failed'))).toContain('"error":"destination refused: loopback address"');
  }, 60_000);
});

const availability = postgresAvailability();

describe.skipIf(availability.skip)('the heartbeat on PostgreSQL', () => {
  let postgres: Postgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());

  it('stops while the database is down and resumes when it is back', async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const { render } = await switchableRender();
    closers.push(() => render.close());
    const logs = capturedLogs();
    const server = await startTestServer({
      db: await postgres.createDatabase(),
      graphiteUrl: render.url,
      evalIntervalSeconds: 0.3,
      heartbeatUrl: `${receiver.url}/ping/${SECRET}`,
      allowPrivateDestinations: true,
      logger: logs.logger,
    });
    closers.push(() => server.close());
    await createAlert(server, 'heartbeat.pg');
    await receiver.waitFor(() => receiver.received.length >= 3, 30_000);

    await postgres.stopServer();
    // The cycle's own error line (the evaluation-health warning says "the last evaluation cycle failed" once, too).
    const failed = '"msg":"evaluation cycle failed"';
    const before = logs.count(failed);
    await logs.reach(failed, before + 2);
    const pingsWhileDown = receiver.received.length;
    await logs.reach(failed, before + 5);
    expect(receiver.received.length).toBe(pingsWhileDown);

    await postgres.startServer();
    await receiver.waitFor(() => receiver.received.length > pingsWhileDown, 30_000);
    expect(sample(await metricsOf(server), 'alertform_heartbeat_withheld_total', { reason: 'cycle_failed' })).toBeGreaterThanOrEqual(5);
    expect(logs.lines.join('')).not.toContain(SECRET);
  }, 120_000);
});
