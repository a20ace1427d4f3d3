import { describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../../src/definitions/load.js';
import { formatProblem } from '../../../src/definitions/problems.js';
import { channelReferencesOutsideFiles } from '../../../src/definitions/outside-references.js';

const load = (files: Record<string, string>) => loadDefinitions(Object.entries(files).map(([path, text]) => ({ path, text })), { env: {} });

const alert = (name: string, extra = '') => `  - name: ${name}\n    metric: servers.*.${name}\n    alert_criteria: {type: above, above_value: 1}\n${extra}`;

describe('depends_on in definitions', () => {
  it('loads bare names and mapped items', () => {
    const result = load({
      'a.yaml': `alerts:\n${alert('ping')}${alert('disk', '    depends_on:\n      - ping\n      - {alert: ping, nodes: [1], parent_nodes: [1]}\n')}`,
    });
    expect(result.problems).toEqual([]);
    expect(result.definitions.alerts[1]!.spec.depends_on).toEqual(['ping', { alert: 'ping', nodes: [1], parent_nodes: [1] }]);
  });

  it('refuses a parent the files do not define, at its line', () => {
    const result = load({ 'a.yaml': `alerts:\n${alert('disk', '    depends_on: [pnig]\n')}` });
    expect(result.problems.map(formatProblem)).toEqual(['a.yaml:5:18  alerts.0.depends_on.0  no alert "pnig" in these files: depends_on names alerts defined here']);
  });

  it('refuses an alert that depends on itself', () => {
    const result = load({ 'a.yaml': `alerts:\n${alert('disk', '    depends_on: [{alert: disk}]\n')}` });
    expect(result.problems.map(formatProblem)).toEqual([
      'a.yaml:5:26  alerts.0.depends_on.0.alert  alert "disk" depends on itself; an alert on a cycle would be held for as long as any alert of it alerts',
    ]);
  });

  it('refuses a cycle across files, naming its path', () => {
    const result = load({
      'a.yaml': `alerts:\n${alert('a', '    depends_on: [b]\n')}`,
      'b.yaml': `alerts:\n${alert('b', '    depends_on: [c]\n')}${alert('c', '    depends_on: [a]\n')}`,
    });
    expect(result.problems.map(formatProblem)).toEqual([
      'a.yaml:5:18  alerts.0.depends_on.0  depends_on makes a cycle: "a" → "b" → "c" → "a"; an alert on a cycle would be held for as long as any alert of it alerts',
    ]);
  });

  it('refuses parent_nodes of another length than nodes, and more than 10 parents', () => {
    const many = Array.from({ length: 11 }, () => 'p').join(', ');
    const result = load({ 'a.yaml': `alerts:\n${alert('p')}${alert('c', `    depends_on: [{alert: p, nodes: [1, 2], parent_nodes: [1]}]\n`)}${alert('d', `    depends_on: [${many}]\n`)}` });
    expect(result.problems.map(formatProblem)).toEqual([
      'a.yaml:8:58  alerts.1.depends_on.0.parent_nodes  must name as many nodes as nodes (2, got 1)',
      'a.yaml:12:17  alerts.2.depends_on  must have at most 10 items',
    ]);
  });
});

describe('group_by in definitions', () => {
  it('loads a channel with group_by and refuses bad timing', () => {
    const result = load({
      'c.yaml': `channels:
  - {description: ops, type: email, destination: ops@example.com, group_by: {nodes: [1], wait_seconds: 10}}
  - {description: db, type: email, destination: db@example.com, group_by: {nodes: [], interval_seconds: 1}}
`,
    });
    expect(result.definitions.channels.map((c) => c.key)).toEqual(['ops']);
    expect(result.problems.map((p) => p.path)).toEqual(['channels.1.group_by.nodes', 'channels.1.group_by.interval_seconds']);
  });
});

describe('maintenance_windows in definitions', () => {
  it('loads one-off and weekly windows', () => {
    const result = load({
      'w.yaml': `maintenance_windows:
  - name: dc1 patching
    reason: kernel upgrades
    match: {metrics: ['servers.dc1.*.*'], channels: [ops]}
    start_time: "02:00"
    repeat: [sun]
    timezone: Europe/Berlin
    duration: 120
  - name: migration
    match: {alert_names: ['db *']}
    starts_at: 2026-12-24T22:00:00+01:00
    duration: 60
`,
    });
    expect(result.problems).toEqual([]);
    expect(result.definitions.maintenanceWindows!.map((w) => [w.kind, w.key])).toEqual([
      ['maintenance window', 'dc1 patching'],
      ['maintenance window', 'migration'],
    ]);
    // A channel of a window that the files do not describe is named for plan to check, as an alert's are.
    expect(channelReferencesOutsideFiles(result.definitions).map(formatProblem)).toEqual(['w.yaml:4:54  maintenance_windows.0.match.channels.0  channel "ops" is not in these files: plan checks that the server has it']);
  });

  it('refuses both forms, neither, an unknown zone, a start without offset, a bad glob and a duplicate name', () => {
    const result = load({
      'w.yaml': `maintenance_windows:
  - {name: both, match: {alert_names: ['*']}, starts_at: '2026-12-24T22:00:00Z', start_time: '02:00', repeat: [sun], duration: 5}
  - {name: neither, match: {alert_names: ['*']}, duration: 5}
  - {name: zone, match: {alert_names: ['*']}, start_time: '02:00', repeat: [sun], timezone: Mars/Base, duration: 5}
  - {name: naive, match: {alert_names: ['*']}, starts_at: '2026-12-24T22:00:00', duration: 5}
  - {name: glob, match: {metrics: ['a.{b']}, starts_at: '2026-12-24T22:00:00Z', duration: 5}
  - {name: glob, match: {}, starts_at: '2026-12-24T22:00:00Z', duration: 0}
`,
    });
    expect(result.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'maintenance_windows.0.starts_at: give either starts_at (a one-off window) or start_time with repeat (a weekly one), not both',
      'maintenance_windows.1.starts_at: needs starts_at (a one-off window) or start_time with repeat (a weekly one)',
      'maintenance_windows.2.timezone: must be UTC, an offset such as UTC+2 or UTC-5:30, or an IANA time zone such as Europe/Berlin (got "Mars/Base")',
      expect.stringMatching(/^maintenance_windows\.3\.starts_at: /),
      expect.stringMatching(/^maintenance_windows\.4\.match\.metrics\.0: /),
      expect.stringMatching(/^maintenance_windows\.5\.match: /),
      expect.stringMatching(/^maintenance_windows\.5\.duration: /),
    ]);
  });

  it('refuses a duplicate window name, naming both places', () => {
    const window = "  - {name: same, match: {alert_names: ['*']}, starts_at: '2026-12-24T22:00:00Z', duration: 5}\n";
    const result = load({ 'w.yaml': `maintenance_windows:\n${window}${window}` });
    expect(result.problems.map((p) => p.message)).toEqual([
      'duplicate maintenance window name "same": also defined at w.yaml:3:5',
      'duplicate maintenance window name "same": also defined at w.yaml:2:5',
    ]);
  });
});
