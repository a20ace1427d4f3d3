import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { runCli } from '../../helpers/run-cli.js';
import { applyPlan } from '../../../src/apply/run.js';
import { fastClient, planDir } from './helpers.js';

/**
 * Maintenance windows, dependencies and grouping as code against alertform serve: plan, apply, pull, with no
 * perpetual diff, and a window from git muting exactly what the server's preview shows.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const CHANNELS = `channels:
  - {description: dc1 pager, type: email, destination: dc1@example.com, group_by: {nodes: [1], wait_seconds: 10}}
  - {description: db mail, type: email, destination: db@example.com}
`;
const ALERTS = `alerts:
  - {name: dc1 switch, metric: servers.dc1.sw1.ping, alert_criteria: {type: above, above_value: 1}, notification_channels: [dc1 pager]}
  - name: dc1 web disk
    metric: servers.dc1.*.disk
    alert_criteria: {type: above, above_value: 90}
    notification_channels: [dc1 pager]
    depends_on: [dc1 switch]
  - name: dc1 web cpu
    metric: sumSeries(servers.dc1.*.cpu)
    alert_criteria: {type: above, above_value: 90}
    notification_channels: [dc1 pager]
    depends_on: [{alert: dc1 switch, nodes: [1]}]
  - {name: db cpu, metric: servers.dc2.db1.cpu, alert_criteria: {type: above, above_value: 90}, notification_channels: [db mail]}
`;
const WINDOWS = `maintenance_windows:
  - name: dc1 patching
    reason: kernel upgrades
    match: {metrics: ['servers.dc1.*.*'], channels: [dc1 pager]}
    start_time: "02:00"
    repeat: [sun]
    timezone: Europe/Berlin
    duration: 120
  - name: db move
    match: {alert_names: ['db *']}
    starts_at: 2026-12-24T22:00:00+01:00
    duration: 60
`;

function definitions(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'af-windows-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('maintenance windows, depends_on and group_by as code', { timeout: 120_000 }, () => {
  it('round-trip through plan, apply and pull with no perpetual diff; a window mutes what its preview shows', async () => {
    const client = fastClient(server.authUrl);
    const dir = definitions({ 'channels.yaml': CHANNELS, 'alerts.yaml': ALERTS, 'windows.yaml': WINDOWS });
    const first = await planDir(dir, client);
    expect(first.plan.problems).toEqual([]);
    expect(first.plan.summary).toMatchObject({ create: 8 });
    const patching = first.plan.changes.find((c) => c.key === 'dc1 patching')!;
    expect(patching.wouldMute).toEqual({ count: 3, alerts: ['dc1 switch', 'dc1 web cpu', 'dc1 web disk'] });
    expect((await applyPlan(first.plan, first.actual, client)).failed).toEqual([]);

    const alerts = (await server.request('GET', '/v2/alerts/')).body.alerts as any[];
    const id = (name: string) => alerts.find((a) => a.name === name).id;
    expect(alerts.find((a) => a.name === 'dc1 web cpu').depends_on).toEqual([{ alert: id('dc1 switch'), nodes: [1] }]);
    const channels = (await server.request('GET', '/v2/notifications/')).body.notifications as any[];
    expect(channels.find((c) => c.description === 'dc1 pager').group_by).toMatchObject({ nodes: [1], wait_seconds: 10 });
    const windows = (await server.request('GET', '/v2/maintenance_windows/')).body.maintenance_windows as any[];
    const stored = windows.find((w) => w.name === 'dc1 patching');
    expect(stored.match.channels).toEqual([channels.find((c) => c.description === 'dc1 pager').id]);

    // The server's preview of the stored window names exactly the alerts the plan said it would mute.
    const preview = await server.request('POST', '/v2/maintenance_windows/preview/', stored);
    expect(preview.status).toBe(200);
    expect(preview.body.count).toBe(3);
    expect((preview.body.alerts as { name: string }[]).map((a) => a.name).sort()).toEqual(patching.wouldMute!.alerts);

    expect((await planDir(dir, client)).plan.changes).toEqual([]);

    // pull writes them back, and the pulled files plan as no-op.
    const out = mkdtempSync(join(tmpdir(), 'af-windows-pull-'));
    expect((await runCli(['pull', '--out', out, '--server', server.authUrl])).code).toBe(0);
    expect(readFileSync(join(out, 'maintenance-windows.yaml'), 'utf8')).toContain('timezone: Europe/Berlin');
    expect(readFileSync(join(out, 'alerts.yaml'), 'utf8')).toContain('depends_on:\n      - dc1 switch\n');
    expect((await planDir(out, client)).plan.changes).toEqual([]);

    // Turning the one-off window weekly, dropping a parent and the grouping: updates of exactly those fields.
    writeFileSync(join(dir, 'windows.yaml'), WINDOWS.replace('starts_at: 2026-12-24T22:00:00+01:00', 'start_time: "22:00"\n    repeat: [fri]'));
    writeFileSync(join(dir, 'alerts.yaml'), ALERTS.replace('    depends_on: [dc1 switch]\n', ''));
    writeFileSync(join(dir, 'channels.yaml'), CHANNELS.replace(', group_by: {nodes: [1], wait_seconds: 10}', ''));
    const edited = await planDir(dir, client);
    expect(edited.plan.changes.map((c) => [c.action, c.key, c.action === 'update' ? [...new Set(c.diffs.map((d) => d.path.split('.')[0]))] : []])).toEqual([
      ['update', 'dc1 pager', ['group_by']],
      ['update', 'dc1 web disk', ['depends_on']],
      ['update', 'db move', ['starts_at', 'start_time', 'repeat']],
    ]);
    expect((await applyPlan(edited.plan, edited.actual, client)).failed).toEqual([]);
    expect((await planDir(dir, client)).plan.changes).toEqual([]);

    // Deleting the files' windows (prune) removes them from the server.
    writeFileSync(join(dir, 'windows.yaml'), '');
    writeFileSync(join(dir, 'alertform.yaml'), "prune:\n  match: ['d*']\n  max_deletes: 5\n");
    const pruned = await planDir(dir, client);
    expect(pruned.plan.changes.map((c) => c.id)).toEqual(['maintenance window:db move:delete', 'maintenance window:dc1 patching:delete']);
    expect((await applyPlan(pruned.plan, pruned.actual, client)).failed).toEqual([]);
    expect((await server.request('GET', '/v2/maintenance_windows/')).body.maintenance_windows).toEqual([]);
  });
});
