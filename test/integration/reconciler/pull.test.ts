import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { runCli } from '../../helpers/run-cli.js';
import { fastClient, planDir } from './helpers.js';

let server: TestServer;

/** An account with what people make by hand: every criteria type, composites, functions, schedules, all channel types. */
async function seedRichAccount(s: TestServer): Promise<void> {
  const post = async (path: string, body: unknown) => {
    const res = await s.request('POST', path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.id as string;
  };
  const night = await post('/v2/schedules/', { name: 'night', start_time: '23:30', duration: 120, timezone: 'UTC+5:30', repeat: ['sun', 'mon'] });
  await post('/v2/schedules/', { name: 'once', start_time: '04:00', duration: 15 });
  const pd = await post('/v2/notifications/', { type: 'pagerduty', description: 'PD "main"', destination: 'pd-key-123', auto_resolve: true });
  await post('/v2/notifications/', {
    type: 'slack',
    description: 'slack',
    destination: 'https://hooks.slack.com/services/X',
    // An extension: a template with a multi-line body and characters YAML quotes.
    template: { title: '*{{name}}*: {{event}}', body: '{{#triggered}}- {{metric}}: {{value}}\n{{/triggered}}{{#links.ack}}<{{links.ack}}|ack>{{/links.ack}}' },
  });
  await post('/v2/notifications/', { type: 'webhook', description: 'hook', destination: 'https://example.com/hook' });
  await post('/v2/notifications/', { type: 'victorops', description: 'vo', destination: 'https://alert.victorops.com/x', auto_resolve: true });
  await post('/v2/notifications/', { type: 'opsgenie', description: 'og', destination: 'og-key' });
  await post('/v2/notifications/', { type: 'email', description: 'mails', destination: 'a@example.com,b@example.com' });
  await post('/v2/alerts/', { name: 'plain', metric: 'a.b', alert_criteria: { type: 'above', above_value: 1.5 }, settle_seconds: 0, on_no_data: 'notify' });
  await post('/v2/alerts/', { name: 'below', metric: 'a.*.c', alert_criteria: { type: 'below', below_value: -3, time_period: 7 }, notification_type: 'state_change', notification_channels: ['slack', 'hook'] });
  await post('/v2/alerts/', { name: 'band', metric: 'x', alert_criteria: { type: 'outside_bounds', above_value: 10, below_value: 2, time_period: '' }, notification_type: ['every', 5], scheduled_mutes: [night] });
  await post('/v2/alerts/', {
    name: 'gone',
    metric: 'hb.*',
    alert_criteria: { type: 'missing', time_period: 30 },
    notification_channels: [pd],
    info: 'multi\nline "info" with: colons',
    pagerduty_severity: 'warning',
    opsgenie_priority: 'P2',
    // An extension: its own settle delay (0, falsy, must survive the round trip too: see `plain`).
    settle_seconds: 90,
  });
  await post('/v2/alerts/', { name: 'fn-ignore', metric: 'sumSeries(a.*)', alert_criteria: { type: 'above', above_value: 0 }, on_query_failure: 'ignore', on_no_data: 'alerting' });
  await post('/v2/alerts/', { name: 'fn-default', metric: 'avg(a.*)', alert_criteria: { type: 'above', above_value: 0 } });
  await post('/v2/alerts/', {
    name: 'composite',
    metric: 'c.a',
    alert_criteria: { type: 'above', above_value: 1 },
    additional_criteria: { B: { type: 'below', below_value: 0, metric: 'c.b' }, c: { type: 'missing', time_period: 3, metric: 'c.c' } },
    expression: 'A && (B || C)',
    notification_channels: ['vo', 'og', 'mails', 'Email me'],
  });
}

beforeAll(async () => {
  server = await startTestServer();
  await seedRichAccount(server);
});
afterAll(() => server.close());

describe('pull', { timeout: 120_000 }, () => {
  it('writes files that read back in and plan as no-op', async () => {
    const out = mkdtempSync(join(tmpdir(), 'af-pull-'));
    const result = await runCli(['pull', '--out', out, '--server', server.authUrl]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const alertsYaml = readFileSync(join(out, 'alerts.yaml'), 'utf8');
    expect(alertsYaml).toMatch(/^# yaml-language-server: \$schema=.*schemas\/definitions\.schema\.json\n/);
    // The no-data policy round-trips where it is set, and only there (null is the server's default).
    expect(alertsYaml.match(/on_no_data: \w+/g)).toEqual(['on_no_data: alerting', 'on_no_data: notify']);
    const { plan, loaded } = await planDir(out, fastClient(server.authUrl), {});
    expect(loaded.definitions.alerts).toHaveLength(7);
    // `Email me` has no destination on a test account: pull leaves it out, and alerts still name it.
    expect(loaded.definitions.channels).toHaveLength(6);
    expect(loaded.definitions.schedules).toHaveLength(2);
    expect(plan.problems).toEqual([]);
    expect(plan.changes).toEqual([]);
    expect(plan.summary).toMatchObject({ noOp: 15, unmanaged: 0 });
    const alerts = readFileSync(join(out, 'alerts.yaml'), 'utf8');
    expect(alerts).toMatch(/settle_seconds: 90\n/);
    expect(alerts).toMatch(/settle_seconds: 0\n/);
    const validate = await runCli(['validate', out]);
    expect(validate.code).toBe(0);
  });
});
