import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 19, item 1. Before: a key confined to team1. created sumSeries(team1.x[,other.secret.cpu,y]) (201, evaluated,
// alerting): alertform read one path, graphite-web's grammar reads three. seriesByTag and applyByNode hid the same
// way; null, +5 and 1e+5 were literals to alertform and paths to graphite-web. After: targets are read with
// graphite-web's grammar and what cannot be proven inside the prefix is a 400 naming the field.
// metric-prefix-differential.test.ts checks the reading itself against graphite-web's parser.

let dir: string;
let server: TestServer;
let confined: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'alertform-prefix-grammar-'));
  const db = join(dir, 'alertform.db');
  const made = await runCli(['keys', 'create', '--db', db, '--email', 'team1@example.com', '--metric-prefix', 'team1.']);
  expect(made.code, made.stderr).toBe(0);
  confined = made.stdout.trim();
  server = await startTestServer({ db, keys: [confined] });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const create = (metric: string, extra: Record<string, unknown> = {}) =>
  server.request('POST', '/v2/alerts/', { name: `a ${Math.random()}`, metric, alert_criteria: { type: 'above', above_value: 1 }, ...extra }, { key: confined });

describe('a metric-prefix-confined account, with targets read as graphite-web reads them', () => {
  it.each([
    // "[" means nothing across "," "(" or quotes: each of these hides a second read
    ['sumSeries(team1.x[,other.secret.cpu,y])', 'reads "other.secret.cpu"'],
    ['sumSeries(team1.x[,seriesByTag("name=other.secret.cpu"),y])', 'seriesByTag reads "other.secret.cpu"'],
    ['sumSeries(team1.x[,applyByNode(other.*,1,"%.cpu"),y])', 'calls applyByNode'],
    ['sumSeries(team1.x[",other.secret.cpu,"])', 'cannot be checked'],
    // literals only in graphite-web's forms: the rest are paths
    ['sumSeries(team1.x,null)', 'reads "null"'],
    ['sumSeries(team1.x,+5)', 'reads "+5"'],
    ['sumSeries(team1.x,1e+5)', 'reads "1e+5"'],
    // every place a path is read: braces, nested calls, keyword values, pipes on either side, inside arguments
    ['{team1,other}.cpu', 'reads "{team1,other}.cpu"'],
    ['sumSeries(team1.x, scale(other.y, 2))', 'reads "other.y"'],
    ['scale(team1.x, 2, k=other.y)', 'reads "other.y"'],
    ['team1.x|fallbackSeries(other.y)', 'reads "other.y"'],
    ['sumSeries(team1.x|fallbackSeries(other.y))', 'reads "other.y"'],
    // what graphite-web would not take whole is refused, not guessed at
    ['sumSeries(team1.x) other.y', 'cannot be checked'],
    ['sumSeries(true.x)', 'cannot be checked'],
    ['scale(k=team1.x)', 'cannot be checked'],
    ['sumSeries(team1.x', 'cannot be checked'],
    // functions that read what the target does not say, also when called by name
    ['aliasQuery(team1.x, "team1", "other", "%d")', 'calls aliasQuery'],
    ['useSeriesAbove(team1.x, 0, "team1", "other")', 'calls useSeriesAbove'],
    ['events("*")', 'calls events'],
    ['groupByNode(team1.*, 1, "applyByNode")', 'passes "applyByNode" to groupByNode'],
    ['nosuchFunction(team1.x)', 'calls nosuchFunction, which graphite-web does not have'],
    // template variables rewrite paths
    ['template(team1.$v, v="x")', 'calls template'],
    ['sumSeries(team1.x, template(other.$1, "y"))', 'calls template'],
    // seriesByTag: an exact name= inside, quoted arguments only, written as graphite-web's storage recognises it
    ["seriesByTag('name=team1.x;dc=eu')", 'seriesByTag reads "name=team1.x;dc=eu"'],
    ["seriesByTag('name=team1.x', other.y)", 'other than quoted tag expressions'],
    ["seriesByTag ('name=team1.x')", 'space before "("'],
    // graphite-web's file finder joins a segment starting with "/" as an absolute path
    ['team1./var/lib/graphite/whisper/other/secret/cpu', 'file system path'],
    ['team1.\\,x', 'backslash escapes'],
  ])('is refused %s', async (metric, says) => {
    const response = await create(metric);
    expect(response.status).toBe(400);
    expect(response.body.error.details[0]).toEqual({ path: 'metric', message: expect.stringContaining(says) });
  });

  it('is refused a hidden read in additional criteria too, naming the field', async () => {
    const response = await create('team1.a', {
      additional_criteria: { b: { metric: 'sumSeries(team1.x[,other.secret.cpu,y])', type: 'above', above_value: 1 } },
      expression: 'a && b',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details[0]).toEqual({ path: 'additional_criteria.b.metric', message: expect.stringContaining('reads "other.secret.cpu"') });
  });

  it.each([
    'team1.web.*.c?u',
    'team1.[ab].x',
    'team1.{a,b}.x',
    'team1.x-y_z:w@1',
    'team1.x;dc=eu',
    ' sumSeries ( team1.a ,\n team1.b ) ',
    'scale(team1.a, -1.5)',
    'scale(team1.a, 1e5)',
    'scale(team1.a, 1.5E-3)',
    'removeAboveValue(team1.a, inf)',
    'keepLastValue(team1.a, None)',
    'timeShift(team1.a, "1d", resetEnd=false)',
    'asPercent(team1.a, total=team1.b)',
    'team1.a|scale(2)|alias("other.label")',
    'divideSeries(team1.a|sumSeries(), team1.b)',
    'groupByNode(team1.*.cpu, 1, "sum")',
    'aliasSub(team1.a, "(\\d+)", "\\1")',
    "seriesByTag('name=team1.cpu', 'dc=eu')",
    'movingAverage(team1.a, "5min", xFilesFactor=0.5)',
  ])('may still read %s', async (metric) => {
    const response = await create(metric);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  });
});
