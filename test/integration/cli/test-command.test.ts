import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';

const ALERTS = `alerts:
  - name: cpu
    metric: hosts.*.cpu
    alert_criteria: {type: above, above_value: 90, time_period: 5}
    notification_channels: [pager]
    notification_type: [every, 10]
channels:
  - {description: pager, type: pagerduty, destination: key}
`;

function project(tests: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'af-ruletest-'));
  writeFileSync(join(dir, 'alerts.yaml'), ALERTS);
  writeFileSync(join(dir, 'alerts.test.yaml'), tests);
  return dir;
}

describe('alertform test', { timeout: 120_000 }, () => {
  it('runs the example tests: two pass, the function query is NOT RUN with its reason, exit 0', async () => {
    const result = await runCli(['test', 'examples']);
    expect(result.stdout).toContain('PASS     examples/alerts-api.test.yaml:4  p99 above 800 ms for 10 minutes alerts once, then recovers');
    expect(result.stdout).toMatch(/NOT RUN {2}examples\/alerts-api\.test\.yaml:30 .*"sumSeries\(shop\.api\.\*\.http\.status\.5xx\)" is a function query/);
    expect(result.stdout).toContain('2 passed, 0 failed, 1 not run, in 1 file(s).');
    expect(result.stdout).toContain('1 test(s) did NOT RUN and prove nothing');
    expect(result.code).toBe(0);
  });

  it('with --require-all, fails when a test did not run and says why', async () => {
    const result = await runCli(['test', 'examples', '--require-all']);
    expect(result.stdout).toContain('1 test(s) did NOT RUN, and --require-all makes that a failure.');
    expect(result.code).toBe(1);
  });

  it('judges wildcards per series, counts reminders, and fails with the place of each wrong expectation', async () => {
    // web1 breaches from minute 5 to 24 (20 points): alerting from minute 9 (5 points above 90) to 24, recovered at 25.
    // Every 10 minutes: alerting at 9, reminder at 19; PagerDuty without auto_resolve gets no recovery: 2.
    const dir = project(`tests:
  - alert: cpu
    input_series:
      - {series: hosts.web1.cpu, values: "10x4 95x19 10x5"}
      - {series: hosts.web2.cpu, values: "10x30"}
      - {series: other.web3.cpu, values: "99x30"}
    expect:
      - {at: 8m, status: healthy}
      - {at: 9m, status: alerting, triggered: [hosts.web1.cpu]}
      - {at: 25m, status: healthy}
    notifications: {pager: 2}
  - name: wrong on purpose
    alert: cpu
    input_series:
      - {series: hosts.web1.cpu, values: "95x10"}
    expect:
      - {at: 2m, status: healthy}
    notifications: {pager: 5}
`);
    // A window judges the points it has: at the start of the data, 3 points above 90 already hold (alerting at 0m;
    // alerting + one reminder at 10m = 2 notifications).
    const result = await runCli(['test', dir]);
    expect(result.stdout).toContain(`PASS     ${dir}/alerts.test.yaml:2  cpu`);
    expect(result.stdout).toContain(`FAIL     ${dir}/alerts.test.yaml:12  wrong on purpose`);
    expect(result.stdout).toContain(`${dir}/alerts.test.yaml:17  at 2m: expected healthy, got alerting`);
    expect(result.stdout).toContain(`${dir}/alerts.test.yaml:18  pager: expected 5 notification(s), got 2`);
    expect(result.stdout).toContain('1 passed, 1 failed, 0 not run, in 1 file(s).');
    expect(result.code).toBe(1);
  });

  it('rejects bad notation and unknown alerts at file:line:column, and answers in JSON with --json', async () => {
    const dir = project(`tests:
  - alert: cpu
    input_series:
      - {series: hosts.web1.cpu, values: "1 2 10+5x"}
  - alert: nope
    input_series:
      - {series: x, values: "1"}
`);
    const result = await runCli(['test', dir, '--json']);
    expect(result.code).toBe(1);
    const body = JSON.parse(result.stdout);
    expect(body.problems.map((p: { text: string }) => p.text)).toEqual([
      `${dir}/alerts.test.yaml:4:47  tests.0.input_series.0.values  "10+5x": expected a whole count after "x", e.g. 10+5x5`,
    ]);
    expect(body.results).toEqual([expect.objectContaining({ alert: 'nope', status: 'failed', failures: [expect.objectContaining({ message: 'no alert named "nope" is defined here', location: expect.objectContaining({ line: 5 }) })] })]);
    expect(body).toMatchObject({ passed: 0, failed: 1, notRun: 0 });
  });

  it('checks test files against their schema', async () => {
    const dir = project('tests:\n  - alert: cpu\n    input_series: []\n    colour: red\n');
    const result = await runCli(['test', dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`error: ${dir}/alerts.test.yaml:`);
    expect(result.stdout).toContain('unknown field "colour"');
  });
});
