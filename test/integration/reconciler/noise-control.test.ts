import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { runCli } from '../../helpers/run-cli.js';
import { applyPlan } from '../../../src/apply/run.js';
import { alertAdapter } from '../../../src/plan/adapters/alert.js';
import { channelAdapter } from '../../../src/plan/adapters/channel.js';
import { fastClient, planDir } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const CHANNELS = `channels:
  - description: ops hook
    type: webhook
    destination: https://hooks.example/ops
    throttle: {max_notifications: 5, window: 1h}
  - description: quiet mail
    type: email
    destination: quiet@example.com
`;
const ALERTS = `alerts:
  - name: flappy latency
    metric: svc.latency
    alert_criteria: {type: above, above_value: 900}
    notification_channels: [ops hook]
    flap_guard: {max_changes: 4, window: 30m}
  - name: plain disk
    metric: host.*.disk
    alert_criteria: {type: above, above_value: 90}
    notification_channels: [quiet mail]
`;

function definitions(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'af-noise-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('throttle and flap_guard in definitions', { timeout: 120_000 }, () => {
  it('round-trip through plan, apply and pull with no perpetual diff, and a removal clears them on the server', async () => {
    const client = fastClient(server.authUrl);
    const dir = definitions({ 'channels.yaml': CHANNELS, 'alerts.yaml': ALERTS });
    const first = await planDir(dir, client);
    expect(first.plan.summary).toMatchObject({ create: 4 });
    expect((await applyPlan(first.plan, first.actual, client)).failed).toEqual([]);

    const alerts = (await server.request('GET', '/v2/alerts/')).body.alerts as any[];
    expect(alerts.find((a) => a.name === 'flappy latency').flap_guard).toEqual({ max_changes: 4, window_minutes: 30 });
    expect(alerts.find((a) => a.name === 'plain disk').flap_guard).toBeNull();
    const channels = (await server.request('GET', '/v2/notifications/')).body.notifications as any[];
    expect(channels.find((c) => c.description === 'ops hook').throttle).toEqual({ max_notifications: 5, window_minutes: 60 });
    expect(channels.find((c) => c.description === 'quiet mail').throttle).toBeNull();
    expect((await planDir(dir, client)).plan.changes).toEqual([]);

    // pull writes them back in the definitions' form, and the pulled files plan as no-op.
    const out = mkdtempSync(join(tmpdir(), 'af-noise-pull-'));
    expect((await runCli(['pull', '--out', out, '--server', server.authUrl])).code).toBe(0);
    expect(readFileSync(join(out, 'channels.yaml'), 'utf8')).toContain('    throttle:\n      max_notifications: 5\n      window: 1h\n');
    expect(readFileSync(join(out, 'alerts.yaml'), 'utf8')).toContain('    flap_guard:\n      max_changes: 4\n      window: 30m\n');
    expect((await planDir(out, client)).plan.changes).toEqual([]);

    // Removing the guard and widening the throttle are two updates of exactly those fields.
    writeFileSync(join(dir, 'alerts.yaml'), ALERTS.replace('    flap_guard: {max_changes: 4, window: 30m}\n', ''));
    writeFileSync(join(dir, 'channels.yaml'), CHANNELS.replace('window: 1h', 'window: 2h'));
    const edited = await planDir(dir, client);
    expect(edited.plan.changes.map((change) => [change.action, change.key, change.action === 'update' ? change.diffs.map((diff) => diff.path) : []])).toEqual([
      ['update', 'ops hook', ['throttle.window_minutes']],
      ['update', 'flappy latency', ['flap_guard']],
    ]);
    expect((await applyPlan(edited.plan, edited.actual, client)).failed).toEqual([]);
    const after = (await server.request('GET', '/v2/alerts/')).body.alerts as any[];
    expect(after.find((a) => a.name === 'flappy latency').flap_guard).toBeNull();
    expect((await planDir(dir, client)).plan.changes).toEqual([]);
  });

  it('are not compared against a server that does not return them (the hosted service)', () => {
    const hostedChannel = { id: 'c1', type: 'webhook' as const, description: 'ops hook', destination: 'https://hooks.example/ops', auto_resolve: false };
    expect(channelAdapter.unknownFields(hostedChannel)).toEqual(['throttle', 'template', 'group_by']);
    expect(channelAdapter.unknownFields({ ...hostedChannel, throttle: null, template: null, group_by: null })).toEqual([]);
    const hostedAlert = {
      id: 'a1', name: 'x', metric: 'm', alert_criteria: { type: 'above' as const, above_value: 1 }, additional_criteria: {}, expression: 'a',
      notification_channels: [], notification_type: ['every', 60] as ['every', number], scheduled_mutes: [], currently_triggered_metrics: [],
      muted: false, status: 'healthy', info: null, on_query_failure: null,
    };
    expect(alertAdapter.unknownFields(hostedAlert)).toContain('flap_guard');
    // A create body without a guard is exactly the hosted API's.
    const body = alertAdapter.createBody(alertAdapter.canonicalActual(hostedAlert, { channel: (id) => id, schedule: (id) => id, alert: (id) => id }), new Map() as never);
    expect(body).not.toHaveProperty('flap_guard');
  });

  it('validate reports a window that is not whole minutes with file:line', async () => {
    const dir = definitions({
      'alerts.yaml': ALERTS.replace('window: 30m', 'window: 90s'),
      'channels.yaml': CHANNELS.replace('max_notifications: 5', 'max_notifications: 0'),
    });
    const result = await runCli(['validate', dir]);
    expect(result.code).not.toBe(0);
    const output = result.stdout + result.stderr;
    expect(output).toMatch(/alerts\.yaml:6:\d+.*flap_guard\.window.*whole number of minutes/);
    expect(output).toMatch(/channels\.yaml:5:\d+.*throttle\.max_notifications/);
  });
});
