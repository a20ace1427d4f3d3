import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { Definitions } from '../definitions/definitions.js';
import { createGraphiteClient, type RenderSeries } from '../graphite/index.js';
import { historyQueryRange, queryRangeMinutes } from '../evaluation/criteria.js';
import { listCriteria } from '../evaluation/judge-alert.js';
import type { RuleTestCase } from './read-rule-tests.js';
import { notLocal, runRuleTest, type RuleTestResult } from './run-rule-test.js';
import { carbonLine } from './series-path.js';

/** Where a test writes its input series (carbon's plaintext port) and reads the function's answer (graphite-web). */
export interface GraphiteTestTarget {
  graphiteUrl: string;
  carbon: { host: string; port: number };
}

/** `host:port`, or the Graphite URL's host on carbon's usual port 2003. */
export function resolveCarbon(given: string | undefined, graphiteUrl: string): { host: string; port: number } {
  if (given) {
    const match = /^(.+):(\d+)$/.exec(given);
    if (!match) throw new Error(`--carbon must be host:port, not "${given}"`);
    return { host: match[1]!, port: Number(match[2]) };
  }
  return { host: new URL(graphiteUrl).hostname, port: 2003 };
}

/**
 * Whether a test's alert has a query only Graphite can evaluate: a function the function engine does not
 * evaluate. The engine's functions are evaluated locally even when a Graphite is given (nothing is written).
 */
export function needsGraphite(test: RuleTestCase, definitions: Definitions): boolean {
  const alert = definitions.alerts.find((a) => a.key === test.alert);
  return alert !== undefined && listCriteria(alert.spec).some((c) => notLocal(c.metric) !== null);
}

const SEGMENT = String.raw`(?:[A-Za-z0-9_\-*?]|\[[^\]]*\]|\{[^}]*\})+`;
const PATH = new RegExp(String.raw`(^|[(,\s])(${SEGMENT}(?:\.${SEGMENT})+)(?!\s*\()`, 'g');

/**
 * Puts `prefix.` before every metric path of a function query (tokens with a dot that are not numbers, quoted
 * text or function names), so the query reads the test's own series and never real ones.
 */
export function prefixQueryPaths(query: string, prefix: string): string {
  return query
    .split(/("[^"]*"|'[^']*')/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(PATH, (whole, lead: string, path: string) => (/^\d/.test(path) ? whole : `${lead}${prefix}.${path}`))))
    .join('');
}

/**
 * Runs a test whose alert uses a function query against a real Graphite: the input series are written through
 * carbon under a prefix of their own (`alertform_test_<random>.`), stamped so the test ends a little before now,
 * the query is rewritten to read them, and Graphite's answer is what the evaluator is replayed on.
 */
export async function runRuleTestOnGraphite(test: RuleTestCase, definitions: Definitions, target: GraphiteTestTarget): Promise<RuleTestResult> {
  const alert = definitions.alerts.find((a) => a.key === test.alert)!;
  const criteria = listCriteria(alert.spec);
  const prefix = `alertform_test_${randomBytes(5).toString('hex')}`;
  const longest = Math.max(0, ...test.series.map((s) => s.values.length - 1)) * test.interval;
  const span = (test.duration ?? Math.max(longest, ...test.expect.map((e) => e.at))) + Math.max(30, test.interval);
  const now = Math.floor(Date.now() / 1000);
  const start = Math.floor((now - span - 60) / 60) * 60;
  const lines: string[] = [];
  for (const one of test.series) {
    one.values.forEach((value, i) => {
      if (value !== null) lines.push(carbonLine(`${prefix}.${one.name}`, value, start + i * test.interval));
    });
  }
  await writePlaintext(target.carbon, lines.join('\n') + '\n');

  const client = createGraphiteClient({ baseUrl: target.graphiteUrl, timeoutMs: 30_000 });
  const fromMinutes = Math.ceil((now - start) / 60) + 1;
  // Carbon has the points once every input series answers with all of them (graphite-web reads carbon's cache).
  const expected = test.series.map((one) => ({ target: `${prefix}.${one.name}`, count: one.values.filter((v) => v !== null).length }));
  for (let attempt = 0; ; attempt += 1) {
    const answers = await client.render(expected.map((e) => ({ target: e.target, fromMinutes })));
    const complete = answers.every((answer, i) => answer.ok && countValues(answer.series) >= expected[i]!.count);
    if (complete) break;
    if (attempt >= 100) return { name: test.name, alert: test.alert, location: test.location, status: 'not_run', failures: [], reason: 'Graphite did not show the written input series within 10 s (is --carbon the right carbon for this graphite-web?)' };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const series = new Map<string, RenderSeries[]>();
  for (const criterion of criteria) {
    const lookback = Math.max(queryRangeMinutes(criterion.criteria), historyQueryRange(criterion.criteria)?.fromMinutes ?? 0);
    const [answer] = await client.render([{ target: prefixQueryPaths(criterion.metric, prefix), fromMinutes: fromMinutes + lookback }]);
    if (!answer!.ok) {
      return {
        name: test.name,
        alert: test.alert,
        location: test.location,
        status: 'failed',
        failures: [{ location: test.alertLocation, message: `Graphite could not evaluate "${criterion.metric}": ${answer!.failure.message}` }],
      };
    }
    const strip = (name: string) => name.split(`${prefix}.`).join('');
    series.set(criterion.metric, answer!.series.map((one) => ({ target: strip(one.target), datapoints: one.datapoints })));
  }
  return runRuleTest(test, definitions, { series, start });
}

function countValues(series: RenderSeries[]): number {
  return series.reduce((n, one) => n + one.datapoints.filter((p) => typeof p[0] === 'number').length, 0);
}

function writePlaintext(carbon: { host: string; port: number }, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(carbon, () => socket.end(body));
    socket.once('error', (error: NodeJS.ErrnoException) => reject(new Error(`carbon at ${carbon.host}:${carbon.port} could not be reached (${error.code ?? 'error'})`)));
    socket.once('close', (hadError) => (hadError ? undefined : resolve()));
  });
}
