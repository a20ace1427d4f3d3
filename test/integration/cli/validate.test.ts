import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';

describe('alertform validate', { timeout: 120_000 }, () => {
  it('accepts the examples', async () => {
    const result = await runCli(['validate', 'examples']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Valid: 12 alert\(s\), 6 channel\(s\), 1 schedule\(s\), 1 maintenance window\(s\) in 6 file\(s\)\.$/m);
    expect(result.code).toBe(0);
  });

  it('prints every problem as file:line:column  path  message and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-validate-'));
    writeFileSync(join(dir, 'a.yaml'), 'alerts:\n  - name: x\n    metric: m\n    alert_criteria: {type: missing}\n    colour: red\n');
    const result = await runCli(['validate', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${dir}/a.yaml:4:21  alerts.0.alert_criteria.time_period  is required\n`);
    expect(result.stderr).toContain(`${dir}/a.yaml:5:5  alerts.0.colour  unknown field "colour"\n`);
    expect(result.stderr).toContain('2 problem(s) found');
  });

  it('counts maintenance windows, and refuses a dependency cycle at file:line:column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-validate-'));
    const alert = (name: string, parent: string) => `  - {name: ${name}, metric: m.${name}, alert_criteria: {type: above, above_value: 1}, depends_on: [${parent}]}\n`;
    writeFileSync(join(dir, 'w.yaml'), "maintenance_windows:\n  - {name: w, match: {alert_names: ['*']}, starts_at: '2026-12-24T22:00:00Z', duration: 5}\n");
    writeFileSync(join(dir, 'a.yaml'), `alerts:\n${alert('a', 'b')}${alert('b', 'a')}`);
    const cycle = await runCli(['validate', dir]);
    expect(cycle.code).toBe(1);
    expect(cycle.stderr).toContain(`${dir}/a.yaml:2:88  alerts.0.depends_on.0  depends_on makes a cycle: "a" → "b" → "a"`);
    writeFileSync(join(dir, 'a.yaml'), `alerts:\n${alert('a', 'b')}  - {name: b, metric: m.b, alert_criteria: {type: above, above_value: 1}}\n`);
    const valid = await runCli(['validate', dir]);
    expect(valid.stdout).toContain('Valid: 2 alert(s), 0 channel(s), 0 schedule(s), 1 maintenance window(s) in 2 file(s).');
    expect(valid.code).toBe(0);
  });

  it('answers in JSON with --json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-validate-'));
    writeFileSync(join(dir, 'a.yaml'), 'schedules:\n  - {name: s, start_time: "25:00", duration: 5}\n');
    const result = await runCli(['validate', '--json', dir]);
    expect(result.code).toBe(1);
    const body = JSON.parse(result.stdout);
    expect(body.valid).toBe(false);
    expect(body.problems[0]).toMatchObject({ path: 'schedules.0.start_time', location: { file: `${dir}/a.yaml`, line: 2 } });
  });

  it('says where a server comes from when plan has none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-plan-'));
    const none = await runCli(['plan', dir], { env: { ALERTFORM_URL: '' } });
    expect(none.stderr).toContain('no server: pass --server URL, set ALERTFORM_URL');
    expect(none.code).toBe(1);
  });
});
