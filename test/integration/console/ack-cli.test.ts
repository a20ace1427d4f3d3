import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { runCli } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';

let server: TestServer;
let render: Awaited<ReturnType<typeof startFakeRender>>;

beforeAll(async () => {
  render = await startFakeRender((request) => ({
    series: request.targets.map((target) => makeSeries(target, target.startsWith('hot') ? [99, 99] : [1, 1], Math.floor(Date.now() / 1000) - 30, 30)),
  }));
  server = await startTestServer({ keys: ['cli-ack-key'], graphiteUrl: render.url, evalIntervalSeconds: 0.2 });
  for (const [name, metric] of [['Hot CPU', 'hot.cpu'], ['Cold CPU', 'cold.cpu']]) {
    const created = await server.request('POST', '/v2/alerts/', { name, metric, alert_criteria: { type: 'above', above_value: 90 }, notification_type: ['every', 5] });
    expect(created.status).toBe(201);
  }
  await until(() => server.request('GET', '/v2/alerts/?name=Hot%20CPU'), (r) => r.body.alerts?.[0]?.status === 'alerting');
});
afterAll(async () => {
  await server.close();
  await render.close();
});

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(args, { env: { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key, ...env } });

describe('alertform ack', { timeout: 120_000 }, () => {
  it('acknowledges as the user by default, with a note and an end, in text and JSON, then withdraws', async () => {
    // No git user.name here (an empty HOME and no repository config), so $USER is the default author.
    const env = { USER: 'ann', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_DIR: '/nonexistent' };
    // A bare --until is minutes, as mute --duration's is.
    const asked = Math.floor(Date.now() / 1000);
    const text = await cli(['ack', 'Hot CPU', '--note', 'on it', '--until', '45'], env);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Acknowledged "Hot CPU" as ann, until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z \(or it recovers\): no reminders or escalations meanwhile\.\n$/);
    const read = await server.request('GET', '/v2/alerts/?name=Hot%20CPU');
    expect(read.body.alerts[0].acknowledgement).toMatchObject({ by: 'ann', note: 'on it' });
    expect(read.body.alerts[0].acknowledgement.until - asked).toBeGreaterThanOrEqual(45 * 60);
    expect(read.body.alerts[0].acknowledgement.until - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(45 * 60);

    const json = await cli(['ack', 'Hot CPU', '--by', 'Bob', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      formatVersion: 1,
      alert: { id: read.body.alerts[0].id, name: 'Hot CPU', status: 'alerting' },
      acknowledgement: { by: 'Bob', note: null, at: expect.any(Number), until: null },
    });

    const withdrawn = await cli(['ack', 'Hot CPU', '--withdraw', '--by', 'Bob']);
    expect(withdrawn.code).toBe(0);
    expect(withdrawn.stdout).toBe('Withdrew the acknowledgement of "Hot CPU".\n');
    const timeline = await server.request('GET', `/v2/alerts/${read.body.alerts[0].id}/timeline`);
    expect(timeline.body.entries[0]).toMatchObject({ kind: 'unacknowledged', reason: 'withdrawn by Bob' });
  });

  it('fails with a message and a non-zero exit: healthy alert, unknown alert, bad duration; and has --help examples', async () => {
    const healthy = await cli(['ack', 'Cold CPU', '--by', 'Ann']);
    expect(healthy.code).not.toBe(0);
    expect(healthy.stderr).toContain('only an alerting alert can be acknowledged');
    const unknown = await cli(['ack', 'Nope', '--by', 'Ann']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no alert named "Nope" on the server');
    const bad = await cli(['ack', 'Hot CPU', '--by', 'Ann', '--until', 'soon']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--until must be a duration such as 30m, 2h, 1h30m or 1d (a bare number is minutes), not "soon"');
    const help = await runCli(['ack', '--help']);
    expect(help.stdout).toContain('$ alertform ack "Disk full" --note "replacing the disk" --until 2h');
    expect(help.stdout).toContain('$ alertform ack "Disk full" --withdraw');
  });
});
