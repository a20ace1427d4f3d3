import type { RenderSeries } from '../../evaluation/render-series.js';
import type { ExpressionNode } from '../../model/graphite-target/grammar.js';
import { parseTarget } from '../../model/graphite-target/target.js';

/**
 * STAND-IN for the function engine (src/graphite-functions/index.ts, built on its own branch): the same three
 * exports under the same names, for plain paths, globs and sumSeries / averageSeries / minSeries / maxSeries of
 * paths only. The stream evaluator imports these names from here until the engine is merged, then from it.
 */
type Aggregate = (values: number[]) => number;
const AGGREGATES: Record<string, Aggregate> = {
  sumSeries: (values) => values.reduce((a, b) => a + b, 0),
  sum: (values) => values.reduce((a, b) => a + b, 0),
  averageSeries: (values) => values.reduce((a, b) => a + b, 0) / values.length,
  avg: (values) => values.reduce((a, b) => a + b, 0) / values.length,
  minSeries: (values) => Math.min(...values),
  maxSeries: (values) => Math.max(...values),
};

/** The raw series of one path expression, as render would return them for it. */
export type SeriesFetch = (pathExpression: string) => readonly RenderSeries[];

function shape(target: string): { call: string | null; paths: string[] } | null {
  let expression: ExpressionNode;
  try {
    expression = parseTarget(target).expression;
  } catch {
    return null;
  }
  if (expression.pipes.length > 0) return null;
  const head = expression.head;
  if (head.kind === 'path') return { call: null, paths: [head.path] };
  if (head.kind !== 'call' || !(head.name in AGGREGATES) || head.kwargs.length > 0 || head.args.length === 0) return null;
  const paths: string[] = [];
  for (const arg of head.args) {
    if (arg.kind !== 'expression' || arg.head.kind !== 'path' || arg.pipes.length > 0) return null;
    paths.push(arg.head.path);
  }
  return { call: head.name, paths };
}

/** Whether every function of the target is evaluated locally. */
export function isLocallyEvaluable(target: string): boolean {
  return shape(target) !== null;
}

/** The path expressions (plain or glob) the target reads, each once, in order. */
export function seriesPathsOf(target: string): string[] {
  return [...new Set(shape(target)?.paths ?? [])];
}

/** Graphite's answer for the target over the range, from the raw series `fetch` gives. */
export function evaluateTarget(target: string, fetch: SeriesFetch, range: { from: number; until: number }): RenderSeries[] {
  const parsed = shape(target);
  if (!parsed) throw new Error(`"${target}" is not evaluated locally`);
  const inRange = (series: RenderSeries): RenderSeries => ({
    target: series.target,
    datapoints: series.datapoints.filter(([, time]) => time > range.from && time <= range.until),
  });
  const series = parsed.paths.flatMap((path) => fetch(path).map(inRange));
  if (parsed.call === null) return series;
  if (series.length === 0) return [];
  const aggregate = AGGREGATES[parsed.call]!;
  const byTime = new Map<number, number[]>();
  for (const one of series) {
    for (const [value, time] of one.datapoints) {
      let values = byTime.get(time);
      if (!values) byTime.set(time, (values = []));
      if (typeof value === 'number' && Number.isFinite(value)) values.push(value);
    }
  }
  const datapoints = [...byTime.entries()]
    .sort(([a], [b]) => a - b)
    .map(([time, values]): [number | null, number] => [values.length > 0 ? aggregate(values) : null, time]);
  return [{ target: `${parsed.call}(${parsed.paths.join(',')})`, datapoints }];
}
