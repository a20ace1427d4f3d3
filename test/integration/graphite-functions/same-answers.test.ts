import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateTarget, GraphiteWebError, isLocallyEvaluable, lookbackSecondsOf } from '../../../src/graphite-functions/index.js';
import { compileGraphitePattern } from '../../../src/model/graphite-target/glob.js';
import { graphiteAvailability, startGraphite, type Graphite } from '../../helpers/graphite.js';
import { makeSeries, SCHEMAS, toFetched, type WrittenSeries } from './same-points.js';

const availability = graphiteAvailability();

/**
 * Each target, several argument forms per function, asked of Debian's graphite-web over the points carbon-cache
 * stored and evaluated by the engine on the same points: the answers (names, times, values, nulls) are equal.
 */
const TARGETS = [
  // Combine: names by path expression, rows padded with nulls, different steps consolidated to their lcm.
  'sumSeries(gf.web.*.requests)',
  'sum(gf.web.*.requests)',
  'sumSeries(gf.web.h1.requests, gf.web.h2.requests)',
  'sumSeries(gf.web.{h1,h3}.requests,gf.web.h2.total)',
  'sumSeries(gf.web.h1.requests, gf.coarse.h1.requests)',
  'sumSeries(gf.web.h1.requests, gf.mid.h1.requests, gf.half.h1.requests)',
  'sumSeries(gf.nothing.*)',
  'sumSeries(gf.web.h1.requests, gf.nothing.*)',
  'averageSeries(gf.web.*.requests)',
  'avg(gf.web.*.requests, gf.coarse.*.requests)',
  'averageSeries(gf.mid.h1.requests, gf.half.h1.requests)',
  'minSeries(gf.web.*.requests)',
  'maxSeries(gf.{web,mid}.h1.requests)',
  'countSeries(gf.web.*.requests)',
  'countSeries(gf.web.*.requests, gf.coarse.*.requests)',
  'diffSeries(gf.web.h1.total, gf.web.h1.requests)',
  'diffSeries(gf.web.*.requests)',
  'divideSeries(gf.web.*.requests, gf.web.h1.total)',
  'divideSeries(gf.web.h1.requests, gf.nothing)',
  'divideSeries(sumSeries(gf.web.*.requests), sumSeries(gf.web.*.total))',
  'divideSeries(gf.web.h1.requests, gf.coarse.h1.requests)',
  // asPercent in each form.
  'asPercent(gf.web.*.requests)',
  'asPercent(gf.web.*.requests, 1500)',
  'asPercent(gf.web.*.requests, 1.5e3)',
  'asPercent(gf.web.*.requests, gf.web.h1.total)',
  'asPercent(gf.web.*.requests, gf.web.*.total)',
  'asPercent(gf.web.*.requests, gf.coarse.h1.requests)',
  'asPercent(gf.web.*.{requests,total}, None, 2)',
  'asPercent(gf.web.*.requests, gf.web.{h1,h2}.total, 2)',
  'asPercent(gf.web.{h1,h2}.requests, gf.web.*.total, 2)',
  'pct(gf.web.h1.requests, gf.web.h1.total)',
  // Transform.
  'scale(gf.web.*.requests, 2)',
  'scale(gf.web.h1.requests, 0.001)',
  'scale(gf.web.h1.requests, 12345678)',
  'scale(gf.web.h1.requests, -1.5)',
  'offset(gf.web.*.requests, -10)',
  'offset(gf.web.h1.requests, 0.25)',
  'absolute(offset(gf.web.h1.requests, -14))',
  'absolute(gf.half.h1.requests)',
  'keepLastValue(gf.web.*.requests)',
  'keepLastValue(gf.web.h3.requests, 2)',
  'keepLastValue(gf.web.h3.requests, 200)',
  'transformNull(gf.web.*.requests)',
  'transformNull(gf.web.h3.requests, -1)',
  'transformNull(gf.web.h3.requests, 0, gf.web.h1.requests)',
  // A path only in a keyword argument is not fetched by graphite-web: the reference is then empty, and ignored.
  'transformNull(gf.web.h3.requests, referenceSeries=gf.web.h1.requests)',
  'transformNull(gf.web.h3.requests, -2, referenceSeries=gf.web.h3.requests)',
  'transformNull(gf.web.h3.requests, 2.5, referenceSeries=gf.coarse.h1.requests)',
  // Alias.
  "alias(gf.web.h1.requests, 'one')",
  'sumSeries(alias(gf.web.*.requests, "x"))',
  'aliasByNode(gf.web.*.requests, 2)',
  'aliasByNode(gf.web.*.requests, 1, -1)',
  'aliasByNode(sumSeries(gf.web.*.requests), 1)',
  'aliasByNode(scale(gf.web.*.requests, 2), 2, 3)',
  'aliasByNode(gf.web.h1.requests, 9)',
  'gf.web.*.requests | aliasByNode(2)',
  'gf.web.*.requests | scale(3) | aliasByMetric()',
  'aliasByMetric(gf.web.*.requests)',
  'aliasByMetric(scale(gf.web.h1.requests, 2))',
  'aliasByMetric(sumSeries(gf.web.*.requests))',
  // Derivatives.
  'perSecond(gf.counter.*)',
  'perSecond(gf.counter.c2, 5000)',
  'perSecond(gf.counter.c2, maxValue=5000, minValue=10)',
  'perSecond(gf.coarse.counter)',
  'perSecond(sumSeries(gf.counter.*))',
  'nonNegativeDerivative(gf.counter.*)',
  'nonNegativeDerivative(gf.counter.c2, 4999)',
  'nonNegativeDerivative(gf.counter.c2, minValue=0)',
  'nonNegativeDerivative(gf.coarse.counter)',
  // Moving windows: points or a time string, the history before `from` fetched.
  'movingAverage(gf.web.*.requests, 5)',
  "movingAverage(gf.web.h1.requests, '1min')",
  "movingAverage(gf.web.h3.requests, '5min')",
  'movingAverage(gf.coarse.h1.requests, 3)',
  'movingAverage(sumSeries(gf.web.*.requests), 10)',
  'movingAverage(gf.web.h3.requests, 10, 0.5)',
  'movingAverage(gf.{web,coarse}.h1.requests, 3)',
  "movingAverage(gf.{web,coarse}.h1.requests, '3min')",
  "movingAverage(movingAverage(gf.web.h1.requests, '2min'), 4)",
  // Summarize: buckets aligned to the interval, or to from.
  "summarize(gf.web.*.requests, '5min')",
  "summarize(gf.web.h1.requests, '1h', 'avg')",
  "summarize(gf.web.h3.requests, '10min', 'max', true)",
  "summarize(gf.coarse.h1.requests, '7min', 'last')",
  "summarize(gf.web.h2.requests, '1min', 'count', alignToFrom=true)",
  "summarize(gf.mid.h1.requests, '90s', 'min')",
  // Nested.
  'sumSeries(scale(gf.web.*.requests, 2))',
  'asPercent(perSecond(gf.counter.*), sumSeries(perSecond(gf.counter.*)))',
  "divideSeries(summarize(gf.web.h1.requests, '5min'), summarize(gf.web.h1.total, '5min'))",
  'keepLastValue(transformNull(gf.web.h3.requests, 1), 3)',
  // Edges: pipes into a moving window, a keyword path also read positionally, empty lists, inf, a day's bucket.
  'gf.web.h1.requests | movingAverage(5)',
  'sumSeries(gf.web.h1.requests | scale(2), gf.web.h2.requests)',
  'sumSeries(transformNull(gf.web.h3.requests, referenceSeries=gf.web.h1.requests), gf.web.h1.requests)',
  'asPercent(gf.web.h1.requests, gf.web.h1.total)',
  'divideSeries(gf.nothing.*, gf.web.h1.total)',
  'countSeries(gf.nothing.*)',
  'keepLastValue(gf.web.h3.requests, inf)',
  "summarize(gf.web.h1.requests, '1d')",
  'movingAverage(gf.web.h3.requests, 10, xFilesFactor=0.8)',
  'perSecond(sumSeries(gf.web.h1.requests, gf.coarse.h1.requests))',
  'maxSeries(gf.mid.h1.requests, gf.coarse.h2.requests, gf.half.h1.requests)',
];

/** Targets graphite-web fails on, and its status: the engine throws GraphiteWebError with it. */
const FAILING: [string, number][] = [
  // Python 3 cannot compare None with maxValue/minValue: any null in the range fails the request.
  ['perSecond(gf.counter.c1, 1000)', 500],
  ['nonNegativeDerivative(gf.web.h3.requests, minValue=0)', 500],
  // A function's InputParameterError becomes a 400.
  ['divideSeries(gf.web.*.requests, gf.web.*.total)', 400],
  ['asPercent(gf.web.*.requests, gf.nothing)', 400],
  ['asPercent(gf.web.*.requests, 1500, 2)', 400],
];

describe.skipIf(availability.skip)('the function engine answers as the real graphite-web', { timeout: 300_000 }, () => {
  let graphite: Graphite;
  let written: WrittenSeries[];
  const now = Math.floor(Date.now() / 1000);
  const base = Math.floor(now / 600) * 600 - 7200;
  // An unaligned range: whisper rounds both ends to each series' step.
  const range = { from: base + 3600 + 7, until: base + 6600 + 3 };

  beforeAll(async () => {
    graphite = await startGraphite({ schemas: SCHEMAS });
    written = makeSeries(base, now - 60);
    await graphite.writePoints(written.flatMap((one) => one.points.map(([time, value]) => ({ path: one.path, value, time }))));
    // carbon stores as it drains its cache; graphite-web reads files and the cache: wait until every point answers.
    for (const one of written) {
      await graphite.waitForSeries(one.path, (answer) => answer[0]?.datapoints.filter((p) => p[0] !== null).length === one.points.length, {
        minutes: Math.ceil((now - base) / 60) + 2,
      });
    }
  }, 180_000);
  afterAll(async () => {
    await graphite?.stop();
  });

  const render = async (target: string) => {
    const url = `${graphite.url}/render?target=${encodeURIComponent(target)}&from=${range.from}&until=${range.until}&format=json`;
    const response = await fetch(url);
    return { status: response.status, body: response.ok ? ((await response.json()) as { target: string; datapoints: [number | null, number][] }[]) : await response.text() };
  };
  const fetchSeries = (path: string) => {
    const pattern = compileGraphitePattern(path);
    return toFetched(written.filter((one) => pattern.test(one.path)));
  };

  it('runs against Debian graphite-web', () => {
    const version = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'graphite-web']).toString();
    expect(version).toMatch(/^1\.1\.8/);
  });

  it.each(TARGETS)('%s', async (target) => {
    expect(isLocallyEvaluable(target)).toBe(true);
    const answer = await render(target);
    expect(answer.status).toBe(200);
    const expected = (answer.body as { target: string; datapoints: [number | null, number][] }[]).map(({ target: name, datapoints }) => ({ target: name, datapoints }));
    const got = evaluateTarget(target, fetchSeries, range);
    expect(got).toEqual(expected);
    // Not vacuous: most targets answer series with values.
    if (!/nothing/.test(target)) expect(expected.some((s) => s.datapoints.some((p) => p[0] !== null))).toBe(true);
  });

  it.each(FAILING)('%s fails on graphite-web (%i) and in the engine', async (target, status) => {
    const answer = await render(target);
    expect(answer.status).toBe(status);
    let thrown: unknown;
    try {
      evaluateTarget(target, fetchSeries, range);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GraphiteWebError);
    expect((thrown as GraphiteWebError).status).toBe(status);
  });

  it('says how much history a moving window needs, and the series the range reads reach that far', () => {
    expect(lookbackSecondsOf("movingAverage(movingAverage(gf.web.h1.requests, '2min'), 4)", 10)).toBe(160);
    expect(lookbackSecondsOf('movingAverage(gf.{web,coarse}.h1.requests, 3)', 60)).toBe(180);
    expect(base).toBeLessThan(range.from - 600);
  });
});
