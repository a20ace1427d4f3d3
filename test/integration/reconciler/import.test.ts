import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiteAvailability, startGraphite, type Graphite } from '../../helpers/graphite.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { runCli } from '../../helpers/run-cli.js';
import { fastClient, planDir } from './helpers.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/import/', import.meta.url));
const SOURCES = {
  moira: [`${FIXTURES}moira/triggers.json`, `${FIXTURES}moira/settings.json`],
  grafana: [`${FIXTURES}grafana/rules.yaml`, `${FIXTURES}grafana/contact-points.yaml`],
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const filesOf = (dir: string) => Object.fromEntries(readdirSync(dir).filter((f) => !f.startsWith('.')).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

describe.each(['moira', 'grafana'] as const)('import %s', { timeout: 120_000 }, (tool) => {
  it('writes definitions that validate, plan as creates only, apply, and pull back with no diff', async () => {
    const out = mkdtempSync(join(tmpdir(), `af-import-${tool}-`));
    const imported = await runCli(['import', tool, ...SOURCES[tool], '--out', out]);
    // The fixtures hold rules that cannot come over: the exit code says the import is incomplete, stderr says what.
    expect(imported.code).toBe(2);
    expect(imported.stderr).toMatch(/not imported/);
    expect(readFileSync(join(out, 'IMPORT-REPORT.md'), 'utf8')).toMatch(/## Not imported/);

    const validated = await runCli(['validate', out]);
    expect(validated.stderr).toBe('');
    expect(validated.code).toBe(0);

    const { plan } = await planDir(out, fastClient(server.authUrl), {});
    expect(plan.problems).toEqual([]);
    expect(plan.changes.length).toBeGreaterThan(3);
    expect(new Set(plan.changes.map((c) => c.action))).toEqual(new Set(['create']));

    const applied = await runCli(['apply', out, '--auto-approve', '--server', server.authUrl]);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const again = await planDir(out, fastClient(server.authUrl), {});
    expect(again.plan.changes).toEqual([]);

    // What the server now holds, pulled back, plans as no-op too: nothing was lost on the way in.
    const pulled = mkdtempSync(join(tmpdir(), `af-import-pull-${tool}-`));
    expect((await runCli(['pull', '--out', pulled, '--server', server.authUrl])).code).toBe(0);
    expect((await planDir(pulled, fastClient(server.authUrl), {})).plan.changes).toEqual([]);
    // Each imported alert is on the server under its imported name.
    const names = (await server.request('GET', '/v2/alerts/')).body.alerts.map((a: { name: string }) => a.name);
    for (const file of Object.keys(filesOf(out)).filter((f) => f.startsWith('alerts-'))) {
      for (const [, name] of readFileSync(join(out, file), 'utf8').matchAll(/^ {2}- name: "?(.+?)"?$/gm)) expect(names).toContain(name);
    }
  });

  it('writes the same files when run twice, and says the same in --json', async () => {
    const first = mkdtempSync(join(tmpdir(), `af-import-a-${tool}-`));
    const second = mkdtempSync(join(tmpdir(), `af-import-b-${tool}-`));
    const one = await runCli(['import', tool, ...SOURCES[tool], '--out', first, '--json']);
    const two = await runCli(['import', tool, ...SOURCES[tool], '--out', second, '--json']);
    expect(filesOf(second)).toEqual(filesOf(first));
    const report = JSON.parse(one.stdout) as { complete: boolean; rules: { outcome: string; dropped: unknown[] }[] };
    expect(report.complete).toBe(false);
    expect(report.rules.some((r) => r.outcome === 'not_imported')).toBe(true);
    expect(JSON.parse(two.stdout).rules).toEqual(report.rules);
  });
});

describe('import errors', () => {
  it('names the file and line of a source that is not JSON or YAML, or missing, and exits 1 writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-import-bad-'));
    writeFileSync(join(dir, 'bad.json'), '{"list": [\n  {"id": "x",\n  }\n');
    const out = join(dir, 'out');
    const bad = await runCli(['import', 'moira', join(dir, 'bad.json'), '--out', out]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad\.json:\d+:\d+: not JSON or YAML/);
    const missing = await runCli(['import', 'moira', `${FIXTURES}moira/settings.json`, join(dir, 'missing.json'), '--out', out]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/missing\.json: no such file/);
    expect(existsSync(out)).toBe(false);
  });
});

describe.skipIf(graphiteAvailability().skip)('import, then plan --impact over a real Graphite', { timeout: 240_000 }, () => {
  let graphite: Graphite;
  afterAll(() => graphite?.stop());

  it('shows how often each imported alert would have fired, to compare with the tool being left', async () => {
    graphite = await startGraphite({ retentions: '60s:2d' });
    const last = Math.floor(Date.now() / 60_000) * 60;
    // p99 latency at 300 ms for 6 hours, above 800 for 20 minutes two hours ago: "for 5m" fires once.
    const spike = (t: number) => t >= last - 120 * 60 && t < last - 100 * 60;
    const points = [];
    for (let t = last - 6 * 3600; t <= last; t += 60) points.push({ path: 'shop.api.latency.p99', value: spike(t) ? 950 : 300, time: t });
    await graphite.writePoints(points);
    await graphite.waitForSeries('shop.api.latency.p99', ([series]) => (series?.datapoints.filter(([v]) => v !== null).length ?? 0) >= points.length, {
      minutes: 6 * 60 + 10,
      timeoutMs: 30_000,
    });
    const out = mkdtempSync(join(tmpdir(), 'af-import-impact-'));
    expect((await runCli(['import', 'grafana', ...SOURCES.grafana, '--out', out])).code).toBe(2);
    const fresh = await startTestServer();
    try {
      const result = await runCli(['plan', out, '--json', '--graphite-url', graphite.url, '--impact-window', '6h'], {
        env: { ALERTFORM_URL: fresh.url, ALERTFORM_API_KEY: fresh.key, ALERTFORM_GRAPHITE_URL: undefined },
        timeoutMs: 120_000,
      });
      const plan = JSON.parse(result.stdout);
      const latency = plan.impact.alerts.find((a: { name: string }) => a.name === 'API p99 latency high');
      // 20 minutes above 800 with a 5-minute window: alerting from the 5th minute to the 20th, one episode.
      expect(latency).toMatchObject({ action: 'create', fired: 1 });
      expect(latency.alerting_minutes).toBeGreaterThanOrEqual(15);
      expect(latency.alerting_minutes).toBeLessThanOrEqual(17);
    } finally {
      await fresh.close();
    }
  });
});
