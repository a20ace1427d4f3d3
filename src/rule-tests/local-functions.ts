import type { RenderSeries } from '../evaluation/render-series.js';
import { compileGraphitePattern } from '../model/graphite-target/glob.js';
import { evaluateTarget, GraphiteWebError, type FetchedSeries } from '../graphite-functions/index.js';
import type { RuleTestCase } from './read-rule-tests.js';

/**
 * A function query of a rule test evaluated by the function engine on the test's input series, as graphite-web
 * would answer it had the series been written through carbon: one render over the whole test, from the first
 * point to `end`. Whisper keeps a point in the slot of its time rounded down to the step, so a test whose start
 * is not a multiple of its interval is evaluated on times shifted back by the remainder and shifted forward
 * again after: every input point keeps its slot. Nothing before the first point exists (movingAverage's early
 * windows are as short as on a fresh Graphite).
 */
export function evaluateTestQuery(metric: string, test: RuleTestCase, end: number): { series: RenderSeries[] } | { failure: string } {
  const step = test.interval;
  const shift = ((test.start % step) + step) % step;
  const first = test.start - shift;
  const fetch = (path: string): FetchedSeries[] => {
    const pattern = compileGraphitePattern(path);
    return test.series
      .filter((one) => one.name === path || pattern.test(one.name))
      .map((one) => ({ target: one.name, step, datapoints: one.values.map((value, i) => [value, first + i * step] as [number | null, number]) }));
  };
  try {
    const answer = evaluateTarget(metric, fetch, { from: first - step, until: end - shift });
    return { series: answer.map((one) => ({ target: one.target, datapoints: one.datapoints.map(([value, time]) => [value, time + shift] as [number | null, number]) })) };
  } catch (error) {
    if (error instanceof GraphiteWebError) return { failure: `Graphite would fail on "${metric}": ${error.message}` };
    throw error;
  }
}
