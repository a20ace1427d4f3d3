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
  - name: busy-share
    metric: asPercent(movingAverage(hosts.*.busy, 3), sumSeries(hosts.*.threads))
    alert_criteria: {type: above, above_value: 50, time_period: 3}
    notification_channels: [pager]
  - name: packets
    metric: perSecond(hosts.web1.packets, 1000000)
    alert_criteria: {type: above, above_value: 10, time_period: 2}
    notification_channels: [pager]
  - name: forecast
    metric: holtWintersForecast(hosts.*.cpu)
    alert_criteria: {type: above, above_value: 90, time_period: 5}
    notification_channels: [pager]
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
  it('runs the example tests, the sumSeries one evaluated locally without a Graphite, exit 0', async () => {
    const result = await runCli(['test', 'examples', '--require-all'], { env: { ALERTFORM_GRAPHITE_URL: undefined } });
    expect(result.stdout).toContain('PASS     examples/alerts-api.test.yaml:4  p99 above 800 ms for 10 minutes alerts once, then recovers');
    expect(result.stdout).toContain('PASS     examples/alerts-api.test.yaml:30  5xx rate summed across hosts (sumSeries, evaluated locally as graphite-web would)');
    expect(result.stdout).toContain('3 passed, 0 failed, 0 not run, in 1 file(s).');
    expect(result.code).toBe(0);
  });

  it('evaluates the supported functions locally, names series as graphite-web does, and fails where graphite-web would', async () => {
    // busy-share: the 3-point moving average of each host's busy threads (the 3 points before each minute) as a
    // share of all threads (50). web1 goes from 5 to 40 busy at minute 5: its average is (5+5+40)/3 at minute 6
    // (33 %), (5+40+40)/3 at minute 7 (57 %), 40 from minute 8 (80 %): above 50 % from minute 7, for 3 minutes at
    // minute 9. web2 stays at 5 %.
    const dir = project(`tests:
  - name: busy share
    alert: busy-share
    input_series:
      - {series: hosts.web1.busy, values: "5x4 40x10"}
      - {series: hosts.web2.busy, values: "2.5x14"}
      - {series: hosts.web1.threads, values: "25x14"}
      - {series: hosts.web2.threads, values: "25x14"}
    expect:
      - {at: 8m, status: healthy}
      - {at: 9m, status: alerting, triggered: ["asPercent(movingAverage(hosts.web1.busy,3),sumSeries(hosts.*.threads))"]}
  - name: a counter with a gap and maxValue
    alert: packets
    input_series:
      - {series: hosts.web1.packets, values: "0+600x3 _ 3000+900x3"}
    expect:
      - {at: 4m, status: alerting}
  - name: a function only Graphite has
    alert: forecast
    input_series:
      - {series: hosts.web1.cpu, values: "95x10"}
    expect:
      - {at: 5m, status: alerting}
`);
    const result = await runCli(['test', dir, '--require-all'], { env: { ALERTFORM_GRAPHITE_URL: undefined } });
    expect(result.stdout).toContain(`PASS     ${dir}/alerts.test.yaml:2  busy share`);
    // graphite-web 1.1.8 answers 500 for perSecond with maxValue over a null point (Python 3 cannot compare None).
    expect(result.stdout).toContain(`FAIL     ${dir}/alerts.test.yaml:12  a counter with a gap and maxValue`);
    expect(result.stdout).toContain('Graphite would fail on "perSecond(hosts.web1.packets, 1000000)": graphite-web fails on this (HTTP 500)');
    expect(result.stdout).toContain(
      `NOT RUN  ${dir}/alerts.test.yaml:18  a function only Graphite has: "holtWintersForecast(hosts.*.cpu)" is a function query only Graphite can evaluate (holtWintersForecast() is not evaluated locally; pass --graphite-url)`,
    );
    expect(result.stdout).toContain('1 passed, 1 failed, 1 not run, in 1 file(s).');
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
