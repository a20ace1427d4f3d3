import { describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../../src/definitions/load.js';
import { computePlan } from '../../../src/plan/compute.js';
import { renderPulledDefinitions } from '../../../src/plan/pull.js';
import { adapterFor } from '../../../src/plan/adapters/registry.js';
import { IdRegistry } from '../../../src/plan/references.js';
import { renderPlanText } from '../../../src/plan/render/text.js';
import { renderPlanMarkdown } from '../../../src/plan/render/markdown.js';
import { toJsonPlan } from '../../../src/plan/render/json.js';
import { fingerprintPlan } from '../../../src/plan/fingerprint.js';
import type { CreateOf, PlanChange, UpdateOf } from '../../../src/plan/types.js';
import type { MaintenanceWindowRead } from '../../../src/model/types.js';
import { alertRead, channelRead, definitionsOf, NOW, stateOf } from './fixtures.js';

/** alertform's server: every alert and channel carries the extensions (null or [] when unused). */
function serverOf(parts: Parameters<typeof stateOf>[0] = {}) {
  const state = stateOf(parts);
  return {
    ...state,
    channels: state.channels.map((c) => ({ throttle: null, template: null, group_by: null, ...c })),
    alerts: state.alerts.map((a) => ({ flap_guard: null, on_no_data: null, depends_on: [], ...a })),
  };
}

const ids = (plan: { changes: PlanChange[] }) => plan.changes.map((c) => c.id);

describe('depends_on in a plan', () => {
  const DEFS = `
alerts:
  - {name: ping, metric: servers.*.*.ping, alert_criteria: {type: above, above_value: 1}}
  - name: disk
    metric: servers.*.*.disk
    alert_criteria: {type: above, above_value: 90}
    depends_on: [ping, {alert: ping, nodes: [1, 2], parent_nodes: [1, 2]}]
`;

  it('creates the parent before its child, the child body naming the parent by its new id', () => {
    const plan = computePlan(definitionsOf(DEFS), serverOf(), NOW);
    expect(plan.problems).toEqual([]);
    const disk = plan.changes.find((c) => c.key === 'disk') as CreateOf<'alert'>;
    expect(disk.dependsOn).toContain('alert:ping:create');
    // parent_nodes equal to nodes is the default: left out of the canonical form.
    expect(disk.after.depends_on).toEqual([{ alert: 'ping' }, { alert: 'ping', nodes: [1, 2] }]);
    const registry = new IdRegistry();
    registry.set('alert', 'ping', 'a-ping');
    expect(adapterFor('alert').createBody(disk.after, registry).depends_on).toEqual([{ alert: 'a-ping' }, { alert: 'a-ping', nodes: [1, 2] }]);
    // An alert without parents sends none: its create body is the hosted API's.
    const ping = plan.changes.find((c) => c.key === 'ping') as CreateOf<'alert'>;
    expect(adapterFor('alert').createBody(ping.after, registry)).not.toHaveProperty('depends_on');
  });

  it('plans no change once the server answers the parents by id (in its own order, defaults filled)', () => {
    const server = serverOf({
      alerts: [
        alertRead({ id: 'a-ping', name: 'ping', metric: 'servers.*.*.ping', notification_channels: ['ch-email'] }),
        alertRead({
          id: 'a-disk',
          name: 'disk',
          metric: 'servers.*.*.disk',
          alert_criteria: { type: 'above', above_value: 90 },
          notification_channels: ['ch-email'],
          depends_on: [{ alert: 'a-ping', nodes: [1, 2], parent_nodes: [1, 2] }, { alert: 'a-ping' }],
        }),
      ],
    });
    const plan = computePlan(definitionsOf(DEFS), server, NOW);
    expect(plan.changes).toEqual([]);
    expect(plan.summary.noOp).toBe(2);
  });

  it('clears parents with [] on update, and keeps a parent while a child names it', () => {
    const server = serverOf({
      alerts: [
        alertRead({ id: 'a-ping', name: 'ping', metric: 'servers.*.*.ping' }),
        alertRead({ id: 'a-disk', name: 'disk', metric: 'servers.*.*.disk', alert_criteria: { type: 'above', above_value: 90 }, depends_on: [{ alert: 'a-ping' }] }),
      ],
    });
    const plan = computePlan(definitionsOf(`alerts:\n  - {name: disk, metric: servers.*.*.disk, alert_criteria: {type: above, above_value: 90}}\n`), server, NOW, { prune: { match: ['*'], max_deletes: 5 } });
    expect(ids(plan)).toEqual(['alert:disk:update', 'alert:ping:delete']);
    const update = plan.changes[0] as UpdateOf<'alert'>;
    expect(update.diffs).toEqual([{ path: 'depends_on', before: [{ alert: 'ping' }] }]);
    expect(adapterFor('alert').updateBody(update.after, new IdRegistry(), ['depends_on'])).toEqual({ depends_on: [] });
    // The parent goes only after its child stopped naming it.
    expect(plan.changes[1]!.dependsOn).toEqual(['alert:disk:update']);
  });

  it('is a problem at the field against an alertform server older than depends_on', () => {
    const old = stateOf({ alerts: [alertRead({ id: 'a1', name: 'other', flap_guard: null })] });
    expect(computePlan(definitionsOf(DEFS), old, NOW).problems.map((p) => `${p.location?.line} ${p.path}`)).toEqual(['7 alerts.1.depends_on']);
  });
});

describe('group_by in a plan', () => {
  const DEFS = `channels:\n  - {description: ops, type: email, destination: ops@example.com, group_by: {nodes: [1]}}\n`;

  it('creates with group_by as written, and plans no change against the server answering its defaults', () => {
    const create = computePlan(definitionsOf(DEFS), serverOf(), NOW).changes[0] as CreateOf<'channel'>;
    expect(create.after.group_by).toEqual({ nodes: [1], wait_seconds: 5, interval_seconds: 60 });
    const server = serverOf({ channels: [channelRead({ id: 'c-ops', description: 'ops', group_by: { nodes: [1], wait_seconds: 5, interval_seconds: 60 } })] });
    expect(computePlan(definitionsOf(DEFS), server, NOW).changes).toEqual([]);
  });

  it('removes grouping with null', () => {
    const server = serverOf({ channels: [channelRead({ id: 'c-ops', description: 'ops', group_by: { nodes: [2], wait_seconds: 5, interval_seconds: 60 } })] });
    const plan = computePlan(definitionsOf(`channels:\n  - {description: ops, type: email, destination: ops@example.com}\n`), server, NOW);
    const update = plan.changes[0] as UpdateOf<'channel'>;
    expect(update.diffs.map((d) => d.path)).toEqual(['group_by']);
    expect(adapterFor('channel').updateBody(update.after, new IdRegistry(), ['group_by'])).toEqual({ group_by: null });
  });
});

describe('maintenance windows in a plan', () => {
  const ALERTS = `
channels:
  - {description: dc1 pager, type: email, destination: dc1@example.com}
alerts:
${Array.from({ length: 12 }, (_, i) => `  - {name: web${String(i).padStart(2, '0')} cpu, metric: servers.dc1.web${i}.cpu, alert_criteria: {type: above, above_value: 90}, notification_channels: [dc1 pager]}`).join('\n')}
  - {name: db cpu, metric: servers.dc2.db1.cpu, alert_criteria: {type: above, above_value: 90}}
`;
  const WINDOW = `
maintenance_windows:
  - name: dc1 patching
    reason: kernel upgrades
    match: {metrics: ['servers.dc1.*.*'], channels: [dc1 pager]}
    start_time: "02:00"
    repeat: [sun, sat]
    timezone: UTC+02:00
    duration: 120
`;
  const windowRead = (fields: Partial<MaintenanceWindowRead> = {}): MaintenanceWindowRead => ({
    id: 'w1',
    name: 'dc1 patching',
    reason: 'kernel upgrades',
    match: { metrics: ['servers.dc1.*.*'], channels: ['c-dc1'] },
    starts_at: null,
    start_time: '02:00',
    repeat: ['sat', 'sun'],
    timezone: 'UTC+2',
    duration: 120,
    created_by: 'ci',
    updated_by: 'ci',
    ...fields,
  });
  const server = (windows: MaintenanceWindowRead[]) =>
    serverOf({
      channels: [channelRead({ id: 'c-dc1', description: 'dc1 pager', destination: 'dc1@example.com' })],
      maintenanceWindows: windows,
    });

  it('creates a window after the channel it names, saying which desired alerts it would mute', () => {
    const plan = computePlan(definitionsOf(ALERTS + WINDOW), serverOf(), NOW);
    expect(plan.problems).toEqual([]);
    const window = plan.changes.find((c) => c.kind === 'maintenance window') as CreateOf<'maintenance window'>;
    expect(window.id).toBe('maintenance window:dc1 patching:create');
    expect(window.dependsOn).toEqual(['channel:dc1 pager:create']);
    expect(window.wouldMute).toEqual({ count: 12, alerts: Array.from({ length: 10 }, (_, i) => `web${String(i).padStart(2, '0')} cpu`) });
    // Created last, after the alerts.
    expect(plan.changes.at(-1)).toBe(window);
    const registry = new IdRegistry();
    registry.set('channel', 'dc1 pager', 'c-dc1');
    expect(adapterFor('maintenance window').createBody(window.after, registry)).toEqual({
      name: 'dc1 patching',
      reason: 'kernel upgrades',
      match: { metrics: ['servers.dc1.*.*'], channels: ['c-dc1'] },
      start_time: '02:00',
      repeat: ['sat', 'sun'],
      timezone: 'UTC+2',
      duration: 120,
    });
    const text = renderPlanText(plan);
    expect(text).toContain('  + create maintenance window "dc1 patching"');
    expect(text).toContain('      would mute 12 alerts: web00 cpu, web01 cpu, web02 cpu, web03 cpu, web04 cpu, web05 cpu, web06 cpu, web07 cpu, web08 cpu, web09 cpu…\n');
    // Its next occurrence, by its own clock: Sunday 2026-03-01 14:00 at UTC+2 is past Sunday's 02:00, so Saturday.
    expect(window.nextOccurrence).toBe('next Sat 2026-03-07 02:00 UTC+2 (00:00 UTC), for 120 minutes');
    expect(text).toContain('      next Sat 2026-03-07 02:00 UTC+2 (00:00 UTC), for 120 minutes\n');
    expect(renderPlanMarkdown(plan)).toContain('would mute 12 alerts: web00 cpu,');
    expect(renderPlanMarkdown(plan)).toContain('next Sat 2026-03-07 02:00 UTC+2 (00:00 UTC), for 120 minutes');
    expect(toJsonPlan(plan).changes.find((c) => c.kind === 'maintenance window')!.wouldMute).toEqual(window.wouldMute);
  });

  it('plans no change against the window the server answers (ids, another offset spelling, sorted days)', () => {
    const plan = computePlan(definitionsOf(ALERTS + WINDOW), server([windowRead()]), NOW);
    expect(plan.changes.filter((c) => c.kind === 'maintenance window')).toEqual([]);
  });

  it('a one-off window: the same instant in another offset is no change; turning it weekly sends the other form as null', () => {
    const oneOff = `
maintenance_windows:
  - {name: dc1 patching, match: {alert_names: ['web*']}, starts_at: '2026-12-24T22:00:00+01:00', duration: 60}
`;
    const read = windowRead({ reason: null, match: { alert_names: ['web*'] }, starts_at: '2026-12-24T21:00:00Z', start_time: null, repeat: null, timezone: 'UTC', duration: 60 });
    expect(computePlan(definitionsOf(ALERTS + oneOff), server([read]), NOW).changes.filter((c) => c.kind === 'maintenance window')).toEqual([]);

    const plan = computePlan(definitionsOf(ALERTS + WINDOW), server([read]), NOW);
    const update = plan.changes.find((c) => c.kind === 'maintenance window') as UpdateOf<'maintenance window'>;
    const fields = [...new Set(update.diffs.map((d) => d.path.split('.')[0]!))];
    expect(fields.sort()).toEqual(['duration', 'match', 'reason', 'repeat', 'start_time', 'starts_at', 'timezone']);
    const registry = new IdRegistry();
    registry.set('channel', 'dc1 pager', 'c-dc1');
    const body = adapterFor('maintenance window').updateBody(update.after, registry, fields);
    expect(body).toMatchObject({ starts_at: null, start_time: '02:00', repeat: ['sat', 'sun'] });
    expect(update.wouldMute?.count).toBe(12);
  });

  it('deletes a window prune covers, and refuses to delete a channel a window still names', () => {
    const plan = computePlan(definitionsOf(ALERTS), server([windowRead()]), NOW, { prune: { match: ['dc1*'], max_deletes: 5 } });
    expect(ids(plan)).toContain('maintenance window:dc1 patching:delete');
    const kept = computePlan(definitionsOf(WINDOW), server([windowRead()]), NOW, { prune: { match: ['dc1*'], max_deletes: 50 } });
    expect(kept.problems.map((p) => p.message)).toContain('refusing to delete channel "dc1 pager": still used by maintenance window "dc1 patching"');
  });

  it('is a problem against a server without /v2/maintenance_windows/', () => {
    const plan = computePlan(definitionsOf(ALERTS + WINDOW), { ...serverOf(), maintenanceWindowsSupported: false }, NOW);
    expect(plan.problems.map((p) => `${p.location?.line} ${p.path}: ${p.message}`)).toEqual([
      '20 maintenance_windows.0: this server has no /v2/maintenance_windows/ endpoint (an alertform server extension); maintenance windows cannot be managed here',
    ]);
  });

  it('keeps the reach out of the fingerprint: the same steps with other alerts fingerprint the same', () => {
    const a = computePlan(definitionsOf(ALERTS + WINDOW), serverOf(), NOW);
    const alertsOnly = a.changes.filter((c) => c.kind !== 'maintenance window');
    const window = a.changes.find((c) => c.kind === 'maintenance window')!;
    expect(fingerprintPlan({ ...a, changes: [...alertsOnly, { ...window, wouldMute: { count: 0, alerts: [] } }] })).toBe(fingerprintPlan(a));
    // Nor the next occurrence, which moves with the clock between review and apply.
    expect(fingerprintPlan({ ...a, changes: [...alertsOnly, { ...window, nextOccurrence: 'next some other day' }] })).toBe(fingerprintPlan(a));
  });
});

describe('pull of the noise controls', () => {
  it('writes depends_on, group_by and windows that load and plan as no change', () => {
    const actual = serverOf({
      channels: [channelRead({ id: 'c-dc1', description: 'dc1 pager', destination: 'dc1@example.com', group_by: { nodes: [1], wait_seconds: 5, interval_seconds: 120 } })],
      alerts: [
        alertRead({ id: 'a-ping', name: 'ping', metric: 'servers.*.*.ping', notification_channels: ['c-dc1'] }),
        alertRead({ id: 'a-disk', name: 'disk', metric: 'servers.*.*.disk', notification_channels: ['c-dc1'], depends_on: [{ alert: 'a-ping' }, { alert: 'a-ping', nodes: [2], parent_nodes: [1] }] }),
      ],
      maintenanceWindows: [
        { id: 'w1', name: 'nightly', reason: null, match: { channels: ['c-dc1'] }, starts_at: null, start_time: '01:00', repeat: ['mon'], timezone: 'Europe/Berlin', duration: 30 },
        { id: 'w2', name: 'once', reason: 'move', match: { alert_names: ['d*'] }, starts_at: '2026-12-24T21:00:00Z', start_time: null, repeat: null, timezone: 'UTC', duration: 60 },
      ],
    });
    const files = renderPulledDefinitions(actual);
    expect(files.map((f) => f.name)).toEqual(['channels.yaml', 'alerts.yaml', 'maintenance-windows.yaml']);
    const windows = files.find((f) => f.name === 'maintenance-windows.yaml')!.text;
    expect(windows).toContain('channels:\n        - dc1 pager');
    expect(files.find((f) => f.name === 'alerts.yaml')!.text).toContain('depends_on:\n      - ping\n      - alert: ping');
    expect(files.find((f) => f.name === 'channels.yaml')!.text).toContain('group_by:\n      nodes:\n        - 1\n      interval_seconds: 120');
    const loaded = loadDefinitions(files.map((f) => ({ path: f.name, text: f.text })), { env: {} });
    expect(loaded.problems).toEqual([]);
    const plan = computePlan(loaded.definitions, actual, NOW);
    expect(plan.problems).toEqual([]);
    expect(plan.changes).toEqual([]);
  });
});
