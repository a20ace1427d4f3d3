import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDefinitions, listDefinitionFiles } from '../../../src/definitions/load.js';
import { formatProblem } from '../../../src/definitions/problems.js';
import { parseProjectConfig } from '../../../src/definitions/project.js';
import { interpolateString } from '../../../src/definitions/interpolate.js';

const load = (files: Record<string, string>, env: Record<string, string> = {}) =>
  loadDefinitions(Object.entries(files).map(([path, text]) => ({ path, text })), { env });

describe('loading definitions', () => {
  it('reports every error at once as file:line:column  path  message', () => {
    const result = load({
      'a.yaml': `alerts:
  - name: cpu
    metric: a.b
    alert_criteria: {type: above}
  - name: mem
    metric: m
    alert_criteria: {type: below, below_value: 1}
    above_vale: 3
`,
      'b.yaml': 'channels:\n  - {description: x, type: carrier-pigeon, destination: y}\n',
    });
    expect(result.problems.map(formatProblem)).toEqual([
      'a.yaml:4:21  alerts.0.alert_criteria.above_value  is required',
      'a.yaml:8:5  alerts.1.above_vale  unknown field "above_vale"',
      'b.yaml:2:28  channels.0.type  must be one of "email", "pagerduty", "slack", "webhook", "victorops", "opsgenie"',
    ]);
  });

  it('reports YAML syntax errors with their position', () => {
    const result = load({ 'bad.yaml': 'alerts:\n  - name: [unclosed\n' });
    expect(result.problems[0]!.location).toMatchObject({ file: 'bad.yaml' });
    expect(result.problems.length).toBeGreaterThan(0);
  });

  it('keeps YAML 1.2 meanings on the fast path: a timestamp stays a string, empty documents are skipped', () => {
    const result = load({
      'a.yaml': '---\n---\nalerts:\n  - name: n\n    metric: m\n    alert_criteria: {type: above, above_value: 1}\n    muted: {until: 2030-01-01T00:00:00Z}\n',
    });
    expect(result.problems).toEqual([]);
    expect(result.definitions.alerts[0]!.spec.muted).toEqual({ until: '2030-01-01T00:00:00Z' });
    expect(result.definitions.alerts[0]!.location).toEqual({ file: 'a.yaml', line: 4, column: 5 });
    expect(result.definitions.alerts[0]!.locate('alert_criteria.above_value')).toEqual({ file: 'a.yaml', line: 6, column: 48 });
  });

  it('locates problems of documents after an empty one and after a duplicate-key error', () => {
    const result = load({ 'a.yaml': 'channels:\n  - {description: m, type: email, destination: a@b.c}\n---\nschedules:\n  - {name: s, start_time: "1:00", duration: 5}\n' });
    expect(result.problems.map(formatProblem)).toEqual([expect.stringMatching(/^a\.yaml:5:27 +schedules\.0\.start_time /)]);
    const dup = load({ 'b.yaml': 'schedules:\n  - {name: s, name: t, start_time: "01:00", duration: 5}\n' });
    expect(dup.problems.map(formatProblem)).toEqual([expect.stringMatching(/^b\.yaml:2:\d+ /)]);
  });

  it('rejects unknown top-level keys', () => {
    expect(load({ 'a.yaml': 'alarms: []\n' }).problems.map(formatProblem)).toEqual(['a.yaml:1:1  alarms  unknown field "alarms"']);
  });

  it('names both places of a duplicate across files', () => {
    const alert = (name: string) => `alerts:\n  - {name: ${name}, metric: m, alert_criteria: {type: above, above_value: 1}}\n`;
    const result = load({ 'one.yaml': alert('cpu'), 'two.yaml': `# pad\n${alert('cpu')}` });
    expect(result.problems.map(formatProblem)).toEqual([
      'one.yaml:2:5  alerts.0  duplicate alert name "cpu": also defined at two.yaml:3:5',
      'two.yaml:3:5  alerts.0  duplicate alert name "cpu": also defined at one.yaml:2:5',
    ]);
  });

  it('loads several documents of one file', () => {
    const result = load({ 'a.yaml': 'channels:\n  - {description: m, type: email, destination: a@b.c}\n---\nschedules:\n  - {name: s, start_time: "01:00", duration: 5}\n' });
    expect(result.problems).toEqual([]);
    expect(result.definitions.channels[0]!.key).toBe('m');
    expect(result.definitions.schedules[0]!.location).toEqual({ file: 'a.yaml', line: 5, column: 5 });
  });

  it('checks expression letters against additional_criteria', () => {
    const result = load({
      'a.yaml': `alerts:
  - name: c
    metric: m
    alert_criteria: {type: above, above_value: 1}
    additional_criteria:
      b: {type: below, below_value: 1, metric: n}
      d: {type: below, below_value: 1, metric: n}
    expression: "a && (b || z)"
  - name: e
    metric: m
    alert_criteria: {type: above, above_value: 1}
    expression: "a &&"
`,
    });
    const messages = result.problems.map((p) => `${p.path}: ${p.message}`);
    expect(messages).toContain('alerts.0.expression: letter "z" has no additional_criteria entry');
    expect(messages).toContain('alerts.0.additional_criteria.d: letter "d" is not used in expression "a && (b || z)"');
    expect(messages.some((m) => m.startsWith('alerts.1.expression: invalid expression'))).toBe(true);
  });

  it('allows on_query_failure only for function queries and auto_resolve only for pagerduty and victorops', () => {
    const result = load({
      'a.yaml': `alerts:
  - {name: p, metric: plain.metric, alert_criteria: {type: above, above_value: 1}, on_query_failure: notify}
  - {name: f, metric: "sumSeries(x.*)", alert_criteria: {type: above, above_value: 1}, on_query_failure: notify}
channels:
  - {description: m, type: email, destination: a@b.c, auto_resolve: true}
`,
    });
    expect(result.problems.map((p) => p.path)).toEqual(['alerts.0.on_query_failure', 'channels.0.auto_resolve']);
  });

  it('checks destinations as the server does, without echoing a value from the environment', () => {
    const result = load(
      { 'c.yaml': 'channels:\n  - {description: m, type: email, destination: not-an-address}\n  - {description: e, type: email, destination: "${MAIL}"}\n  - {description: h, type: webhook, destination: "${HOOK:-https://hooks.example.com/x}"}\n' },
      { MAIL: 'private-person' },
    );
    expect(result.problems.map(formatProblem)).toEqual([
      'c.yaml:2:48  channels.0.destination  "not-an-address" is not an email address (several may be given, comma separated)',
      'c.yaml:3:48  channels.1.destination  a value is not an email address (several may be given, comma separated)',
    ]);
  });

  it('requires below_value under above_value for outside_bounds', () => {
    const result = load({ 'a.yaml': 'alerts:\n  - {name: o, metric: m, alert_criteria: {type: outside_bounds, above_value: 1, below_value: 5}}\n' });
    expect(result.problems.map((p) => p.path)).toEqual(['alerts.0.alert_criteria.below_value']);
  });

  it('interpolates ${VAR} and marks the value sensitive, and reports an unset variable at its place', () => {
    const result = load(
      { 'c.yaml': 'channels:\n  - {description: pd, type: pagerduty, destination: "${PD}"}\n  - {description: s, type: slack, destination: "${NOPE}"}\n  - {description: d, type: email, destination: "${MAIL:-a@b.c}"}\n' },
      { PD: 'secret-key' },
    );
    expect(result.definitions.channels[0]).toMatchObject({ spec: { destination: 'secret-key' }, sensitivePaths: ['destination'] });
    expect(result.definitions.channels.find((c) => c.key === 'd')).toMatchObject({ spec: { destination: 'a@b.c' }, sensitivePaths: [] });
    expect(result.problems.map(formatProblem)).toContainEqual('c.yaml:3:48  channels.1.destination  ${NOPE} is not set and has no default (write ${NOPE:-default})');
  });

  it('lists yaml files at any depth, skipping dot-directories, node_modules and alertform.yaml', () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-list-'));
    for (const sub of ['a/b', '.git', 'node_modules/x']) mkdirSync(join(dir, sub), { recursive: true });
    for (const file of ['top.yaml', 'a/b/deep.yml', '.git/x.yaml', 'node_modules/x/y.yaml', 'alertform.yaml', 'notes.txt']) writeFileSync(join(dir, file), '');
    return listDefinitionFiles(dir).then((files) => expect(files.map((f) => f.slice(dir.length + 1)).sort()).toEqual(['a/b/deep.yml', 'top.yaml']));
  });
});

describe('interpolation', () => {
  it('uses the default only when the variable is unset or empty', () => {
    expect(interpolateString('${A:-x}-${B:-y}', { A: 'set' })).toEqual({ value: 'set-y', sensitive: true, missing: [] });
    expect(interpolateString('${A:-x}', { A: '' })).toEqual({ value: 'x', sensitive: false, missing: [] });
  });
});

describe('project config', () => {
  it('fills max_deletes and reports bad fields with positions', () => {
    expect(parseProjectConfig('prune:\n  match: ["team-*"]\n', 'alertform.yaml').config).toEqual({ prune: { match: ['team-*'], max_deletes: 10 } });
    const bad = parseProjectConfig('server: http://x\nprune: yes\n', 'alertform.yaml');
    expect(bad.problems.map(formatProblem)).toEqual(['alertform.yaml:2:8  prune  must be false or {match: [globs], max_deletes: N}']);
  });
});
