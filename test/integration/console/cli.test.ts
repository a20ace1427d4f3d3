import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { runCli } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';

let server: TestServer;
let render: Awaited<ReturnType<typeof startFakeRender>>;
let hot = 99;

beforeAll(async () => {
  render = await startFakeRender((request) => ({
    series: request.targets.map((target) => makeSeries(target, target.startsWith('hot') ? [hot, hot] : [1, 1], Math.floor(Date.now() / 1000) - 30, 30)),
  }));
  server = await startTestServer({ keys: ['cli-status-key', 'quiet-key'], graphiteUrl: render.url, evalIntervalSeconds: 0.2 });
  for (const [name, metric] of [['Hot CPU', 'hot.cpu'], ['Cold CPU', 'cold.cpu']]) {
    const created = await server.request('POST', '/v2/alerts/', { name, metric, alert_criteria: { type: 'above', above_value: 90 }, notification_type: ['state_change'] });
    expect(created.status).toBe(201);
  }
  await until(
    () => server.request('GET', '/v2/alerts/?name=Hot%20CPU'),
    (r) => r.body.alerts?.[0]?.status === 'alerting',
  );
});
afterAll(async () => {
  await server.close();
  await render.close();
});

const cli = (args: string[], key = server.key) => runCli(args, { env: { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: key } });

describe('alertform status', { timeout: 120_000 }, () => {
  it('lists what is alerting and exits 1, in text and in JSON', async () => {
    const text = await cli(['status']);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe('');
    expect(text.stdout).toBe('ALERTING  Hot CPU  hot.cpu\n1 of 2 alerts alerting\n');
    const json = await cli(['status', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      formatVersion: 1,
      total: 2,
      alertingCount: 1,
      unknownCount: 0,
      alerting: [
        { id: expect.any(String), name: 'Hot CPU', metric: 'hot.cpu', state: 'alerting', currently_triggered_metrics: ['hot.cpu'], muted: false, acknowledged_by: null, held_by: [] },
      ],
      unknown: [],
    });
  });

  it('exits 0 when nothing is alerting, and 2 when the server cannot be read', async () => {
    const quiet = await cli(['status'], 'quiet-key');
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe('nothing is alerting (0 alerts)\n');
    const down = await runCli(['status', '--json'], { env: { ALERTFORM_URL: 'http://127.0.0.1:9', ALERTFORM_API_KEY: 'k' } });
    expect(down.code).toBe(2);
    expect(JSON.parse(down.stdout)).toMatchObject({ formatVersion: 1, error: { exitCode: 2 } });
  });

  it('shows who acknowledged an alert and which alerting parent holds another, as the console does', async () => {
    const quiet = (method: string, path: string, body?: unknown) => server.request(method, path, body, { key: 'quiet-key' });
    const net = await quiet('POST', '/v2/alerts/', { name: 'Hot net', metric: 'hot.net', alert_criteria: { type: 'above', above_value: 90 } });
    const app = await quiet('POST', '/v2/alerts/', {
      name: 'Hot app', metric: 'hot.app', alert_criteria: { type: 'above', above_value: 90 }, depends_on: [{ alert: 'Hot net' }],
    });
    expect([net.status, app.status], `${net.text} ${app.text}`).toEqual([201, 201]);
    for (const id of [net.body.id, app.body.id]) await until(() => quiet('GET', `/v2/alerts/${id}/`), (r) => r.body.status === 'alerting');
    expect((await quiet('POST', `/v2/alerts/${net.body.id}/ack/`, { by: 'Ann' })).status).toBe(200);
    const text = await cli(['status'], 'quiet-key');
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('ALERTING  Hot net  (acknowledged by Ann)  hot.net\nALERTING  Hot app  (held: "Hot net" alerting)  hot.app\n2 of 2 alerts alerting\n');
    const json = JSON.parse((await cli(['status', '--json'], 'quiet-key')).stdout);
    expect(json.alerting.map((a: { name: string; acknowledged_by: string | null; held_by: string[] }) => [a.name, a.acknowledged_by, a.held_by])).toEqual([
      ['Hot net', 'Ann', []],
      ['Hot app', null, ['Hot net']],
    ]);
  });

  it('has --help with examples and the exit codes', async () => {
    const help = await runCli(['status', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('1  something is alerting');
    expect(help.stdout).toContain('3  nothing is alerting, but some alert cannot be known');
    expect(help.stdout).toContain('$ alertform status --json');
  });
});

describe('alertform history', { timeout: 120_000 }, () => {
  it('shows the timeline of one alert with the notifications it sent, newest first, in text and in JSON', async () => {
    const id = (await server.request('GET', '/v2/alerts/?name=Hot%20CPU')).body.alerts[0].id;
    expect((await server.request('POST', `/v2/alerts/${id}/muted/`, { duration: 30 })).status).toBe(200);
    const text = await cli(['history', 'Hot CPU']);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ  muted +\(muted for 30 minutes, until .+\)$/);
    expect(text.stdout).toMatch(/notification_sent +hot\.cpu = 99 {2}-> email "Email me" {2}\(alerting\)/);
    expect(text.stdout).toMatch(/alerting +hot\.cpu = 99\n/);

    const json = await cli(['history', 'Hot CPU', '--json', '--days', '1']);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body).toMatchObject({ formatVersion: 1, alert: { id, name: 'Hot CPU' }, days: 1 });
    // The email is dead-lettered (this server has no SMTP server): history says so once the outbox has tried it.
    expect(body.entries.map((e: { kind: string }) => e.kind).filter((kind: string) => kind !== 'notification_failed')).toEqual(['muted', 'notification_sent', 'alerting']);
  });

  it('says so for an unknown alert or a bad --days, exit 1', async () => {
    const unknown = await cli(['history', 'Nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('alertform: no alert named "Nope" on the server\n');
    const bad = await cli(['history', 'Hot CPU', '--days', '0']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('alertform: --days must be a whole number from 1 to 90, not "0"\n');
    const help = await runCli(['history', '--help']);
    expect(help.stdout).toContain('$ alertform history "Disk full" --days 30');
  });
});
