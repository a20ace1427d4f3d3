import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiteAvailability, startGraphite, type Graphite } from '../../helpers/graphite.js';
import { runCli } from '../../helpers/run-cli.js';
import { prefixQueryPaths } from '../../../src/rule-tests/graphite-rule-test.js';

const availability = graphiteAvailability();

describe('prefixQueryPaths', () => {
  it('prefixes metric paths only: not functions, numbers or quoted text', () => {
    expect(prefixQueryPaths('sumSeries(shop.api.*.errors)', 'p')).toBe('sumSeries(p.shop.api.*.errors)');
    expect(prefixQueryPaths('divideSeries(sumSeries(a.{x,y}.err), a.[ab]*.total)', 'p')).toBe('divideSeries(sumSeries(p.a.{x,y}.err), p.a.[ab]*.total)');
    expect(prefixQueryPaths('alias(scale(web.cpu, 1.5), "web.cpu scaled")', 'p')).toBe('alias(scale(p.web.cpu, 1.5), "web.cpu scaled")');
    expect(prefixQueryPaths('plain.path', 'p')).toBe('p.plain.path');
  });
});

describe.skipIf(availability.skip)('alertform test with a function query on a real Graphite', { timeout: 180_000 }, () => {
  let graphite: Graphite;
  let dir: string;
  beforeAll(async () => {
    graphite = await startGraphite();
    dir = mkdtempSync(join(tmpdir(), 'af-ruletest-graphite-'));
    writeFileSync(
      join(dir, 'alerts.yaml'),
      'alerts:\n  - {name: errors, metric: "sumSeries(shop.*.errors)", alert_criteria: {type: above, above_value: 25, time_period: 5}, notification_type: state_change}\n' +
        // removeBelowValue(x, -1) keeps these non-negative points as they are: a function only Graphite evaluates.
        '  - {name: errors-graphite, metric: "removeBelowValue(sumSeries(shop.*.errors), -1)", alert_criteria: {type: above, above_value: 25, time_period: 5}, notification_type: state_change}\n',
    );
    // web1 sends 0 for 10 minutes then 30; web2 sends 0 throughout: the sum is above 25 from minute 10, so "5
    // minutes above" holds from minute 14 (points 10..14).
    writeFileSync(
      join(dir, 'alerts.test.yaml'),
      `tests:
  - name: sum above 25 for 5 minutes
    alert: errors
    input_series:
      - {series: shop.web1.errors, values: "0x9 30x10"}
      - {series: shop.web2.errors, values: "0x19"}
    expect:
      - {at: 13m, status: healthy}
      - {at: 14m, status: alerting, triggered: ["sumSeries(shop.*.errors)"]}
  - name: wrong on purpose
    alert: errors
    input_series:
      - {series: shop.web1.errors, values: "30x10"}
    expect:
      - {at: 8m, status: healthy}
  - name: the same sum through a function only Graphite has
    alert: errors-graphite
    input_series:
      - {series: shop.web1.errors, values: "0x9 30x10"}
      - {series: shop.web2.errors, values: "0x19"}
    expect:
      - {at: 13m, status: healthy}
      - {at: 14m, status: alerting}
`,
    );
  });
  afterAll(async () => {
    await graphite?.stop();
  });

  it('without a Graphite, evaluates sumSeries locally; a function only Graphite has is NOT RUN, with the reason', async () => {
    const result = await runCli(['test', dir], { env: { ALERTFORM_GRAPHITE_URL: undefined } });
    expect(result.stdout).toContain(`PASS     ${dir}/alerts.test.yaml:2  sum above 25 for 5 minutes`);
    expect(result.stdout).toContain(`${dir}/alerts.test.yaml:15  at 8m: expected healthy, got alerting`);
    expect(result.stdout).toContain(
      '"removeBelowValue(sumSeries(shop.*.errors), -1)" is a function query only Graphite can evaluate (removeBelowValue() is not evaluated locally; pass --graphite-url)',
    );
    expect(result.stdout).toContain('1 passed, 1 failed, 1 not run, in 1 file(s).');
    expect(result.code).toBe(1);
  });

  it('writes the input series of the other function through carbon under a prefix, reads it back, and judges it as the local sum', async () => {
    const result = await runCli(['test', dir, '--graphite-url', graphite.url, '--carbon', `${graphite.carbonHost}:${graphite.carbonPort}`]);
    expect(result.stdout).toContain(`PASS     ${dir}/alerts.test.yaml:2  sum above 25 for 5 minutes`);
    expect(result.stdout).toContain(`${dir}/alerts.test.yaml:15  at 8m: expected healthy, got alerting`);
    expect(result.stdout).toContain(`PASS     ${dir}/alerts.test.yaml:16  the same sum through a function only Graphite has`);
    expect(result.stdout).toContain('2 passed, 1 failed, 0 not run, in 1 file(s).');
    expect(result.code).toBe(1);
    // The local tests wrote nothing: only the Graphite one's series, under their prefix.
    expect(await graphite.findMetrics('alertform_test_*.shop.*.errors')).toHaveLength(2);
    // Nothing was written outside the test's own prefix.
    expect(await graphite.findMetrics('shop.*.errors')).toEqual([]);
  });
});
