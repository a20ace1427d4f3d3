import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 12, item 4. Before: account B alerting on tenantA.*.* saw A's series and values; there was no way to
// confine an account. After: a confined account's queries reaching outside its prefixes are a 400 naming the path.

let dir: string;
let server: TestServer;
let confined: string;
let free: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'alertform-prefixes-'));
  const db = join(dir, 'alertform.db');
  // The operator's command, for real: the key is printed once, the prefixes are stored on the account.
  const made = await runCli(['keys', 'create', '--db', db, '--email', 'team1@example.com', '--metric-prefix', 'team1.', '--metric-prefix', 'shared.team1.']);
  expect(made.code, made.stderr).toBe(0);
  confined = made.stdout.trim();
  const other = await runCli(['keys', 'create', '--db', db, '--email', 'other@example.com']);
  free = other.stdout.trim();
  server = await startTestServer({ db, keys: [confined, free] });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const create = (key: string, metric: string, extra: Record<string, unknown> = {}) =>
  server.request(
    'POST',
    '/v2/alerts/',
    { name: `a ${metric} ${Math.random()}`, metric, alert_criteria: { type: 'above', above_value: 1 }, ...extra },
    { key },
  );

describe('a metric-prefix-confined account', () => {
  it.each([
    ['tenantA.*.*', 'reads "tenantA.*.*"'],
    ['*.cpu', 'reads "*.cpu"'],
    ['{team1,tenantA}.cpu', 'reads "{team1,tenantA}.cpu"'],
    ['sumSeries(team1.a, tenantA.b)', 'reads "tenantA.b"'],
    ['asPercent(team1.a, total=tenantA.b)', 'reads "tenantA.b"'],
    ['team1.x|fallbackSeries(tenantA.x)', 'reads "tenantA.x"'],
    ["seriesByTag('name=tenantA.cpu')", 'seriesByTag reads "tenantA.cpu"'],
    ["seriesByTag('name=~team1.*')", 'seriesByTag reads "name=~team1.*"'],
    ["seriesByTag('dc=eu')", 'seriesByTag reads "dc=eu"'],
    ['applyByNode(team1.*, 1, "%.x")', 'calls applyByNode'],
    ['sumSeries(team1.a', 'cannot be checked'],
  ])('is refused %s, naming the path', async (metric, says) => {
    const response = await create(confined, metric);
    expect(response.status).toBe(400);
    expect(response.body.error.details[0]).toEqual({ path: 'metric', message: expect.stringContaining(says) });
  });

  it('is refused a foreign path in additional criteria and on update', async () => {
    const additional = await create(confined, 'team1.a', {
      additional_criteria: { b: { metric: 'tenantA.b', type: 'above', above_value: 1 } },
      expression: 'a && b',
    });
    expect(additional.status).toBe(400);
    expect(additional.body.error.details[0]).toMatchObject({ path: 'additional_criteria.b.metric', message: expect.stringContaining('"tenantA.b"') });
    const ok = await create(confined, 'team1.web.cpu');
    expect(ok.status).toBe(201);
    const update = await server.request('PUT', `/v2/alerts/${ok.body.id}/`, { metric: 'tenantA.web.cpu' }, { key: confined });
    expect(update.status).toBe(400);
    expect(update.body.error.details[0].message).toContain('"tenantA.web.cpu"');
  });

  it.each([
    'team1.web.*.cpu',
    'shared.team1.load',
    'sumSeries(team1.a.*, scale(team1.b, 2))',
    "seriesByTag('name=team1.cpu', 'dc=eu')",
    'alias(team1.x, "tenantA.label")',
  ])('may read %s', async (metric) => {
    expect((await create(confined, metric)).status).toBe(201);
  });

  it('confines nobody else: an account without prefixes reads any path', async () => {
    expect((await create(free, 'tenantA.*.*')).status).toBe(201);
  });

  it('warns about alerts the account already had when it is confined later', async () => {
    expect((await create(free, 'other.team.load')).status).toBe(201);
    await server.close();
    const result = await runCli(['keys', 'create', '--db', join(dir, 'alertform.db'), '--email', 'other@example.com', '--metric-prefix', 'other.mine.']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: existing alert [0-9a-f]+ reads "other\.team\.load", outside the account's metric prefixes/);
    server = await startTestServer({ db: join(dir, 'alertform.db'), keys: [confined, free] });
    expect((await create(free, 'other.team.cpu')).status).toBe(400);
  }, 60_000);

  it('refuses a wildcard prefix at keys create', async () => {
    const result = await runCli(['keys', 'create', '--db', join(dir, 'alertform.db'), '--email', 'x@example.com', '--metric-prefix', 'team*.']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--metric-prefix "team*." must be plain dot-separated words');
  }, 60_000);
});
