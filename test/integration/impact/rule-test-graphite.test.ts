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
      'alerts:\n  - {name: errors, metric: "sumSeries(shop.*.errors)", alert_criteria: {type: above, above_value: 25, time_period: 5}, notification_type: state_change}\n',
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
`,
    );
  });
  afterAll(async () => {
    await graphite?.stop();
  });

  it('is NOT RUN without a Graphite, with the reason', async () => {
    const result = await runCli(['test', dir], { env: { ALERTFORM_GRAPHITE_URL: undefined } });
    expect(result.stdout).toContain('"sumSeries(shop.*.errors)" is a function query: only Graphite can evaluate it (pass --graphite-url)');
    expect(result.stdout).toContain('0 passed, 0 failed, 2 not run, in 1 file(s).');
    expect(result.code).toBe(0);
  });

  it('writes the input series through carbon under a prefix, reads the function back, and judges it', async () => {
    const result = await runCli(['test', dir, '--graphite-url', graphite.url, '--carbon', `${graphite.carbonHost}:${graphite.carbonPort}`]);
    expect(result.stdout).toContain(`PASS     ${dir}/alerts.test.yaml:2  sum above 25 for 5 minutes`);
    expect(result.stdout).toContain(`${dir}/alerts.test.yaml:15  at 8m: expected healthy, got alerting`);
    expect(result.stdout).toContain('1 passed, 1 failed, 0 not run, in 1 file(s).');
    expect(result.code).toBe(1);
    // Nothing was written outside the test's own prefix.
    expect(await graphite.findMetrics('shop.*.errors')).toEqual([]);
  });
});
