import { AGG_FUNCS, safeDiv } from './safe.js';
import { seriesArg, type BoundCall, type FunctionSpec } from './function-spec.js';
import { formatPathExpressions, InputParameterError, lcm, normalize, pyMod, TimeSeries, zipLongest, type Value } from './time-series.js';

/**
 * The Combine family of graphite-web (render/functions.py): sumSeries, averageSeries, minSeries, maxSeries,
 * diffSeries (all graphite-web's aggregate()), countSeries and divideSeries, with the short names graphite-web
 * registers (`sum`, `avg`).
 */

/** graphite-web's aggregate(): one series named `<func>Series(<path expressions>)`. */
export function aggregate(seriesLists: readonly (readonly TimeSeries[])[], func: string): TimeSeries[] {
  const aggFunc = AGG_FUNCS.get(func)!;
  const { list, start, end, step } = normalize(seriesLists);
  const name = `${func}Series(${formatPathExpressions(list)})`;
  // xffValues with the default xFilesFactor 0: a row needs one value that is not null.
  const values = zipLongest(list.map((s) => s.read())).map((row) => (row.some((v) => v !== null) ? aggFunc(row) : null));
  return [new TimeSeries(name, start, end, step, values)];
}

const seriesLists = [{ name: 'seriesLists', type: 'seriesList', required: true, multiple: true }] as const;

function aggregator(func: string): FunctionSpec {
  return { params: seriesLists, evaluate: (call) => aggregate(lists(call), func) };
}

function lists(call: BoundCall): TimeSeries[][] {
  return call.rest().map((arg) => (arg.kind === 'series' ? arg.list : []));
}

/** countSeries: how many series there are, at every point (nulls count: graphite-web counts the row). */
const countSeries: FunctionSpec = {
  params: [{ name: 'seriesLists', type: 'seriesList', required: true, multiple: true }],
  evaluate(call) {
    const { list, start, end, step } = normalize(lists(call));
    const name = `countSeries(${formatPathExpressions(list)})`;
    const values = zipLongest(list.map((s) => s.read())).map((row) => row.length);
    return [new TimeSeries(name, start, end, step, values)];
  },
};

/** divideSeries: each dividend by the one divisor; no divisor series gives `divideSeries(x,MISSING)`, all null. */
const divideSeries: FunctionSpec = {
  params: [
    { name: 'dividendSeriesList', type: 'seriesList', required: true },
    { name: 'divisorSeries', type: 'seriesList', required: true },
  ],
  evaluate(call) {
    const dividends = seriesArg(call, 'dividendSeriesList');
    const divisors = seriesArg(call, 'divisorSeries');
    if (divisors.length === 0) {
      for (const series of dividends) {
        series.name = `divideSeries(${series.name},MISSING)`;
        series.pathExpression = series.name;
        series.values = series.values.map(() => null);
      }
      return dividends;
    }
    if (divisors.length > 1) throw new InputParameterError(`divideSeries second argument must reference exactly 1 series (got ${divisors.length})`);
    const divisor = divisors[0]!;
    return dividends.map((dividend) => {
      const name = `divideSeries(${dividend.name},${divisor.name})`;
      const both = [dividend, divisor];
      const step = both.map((s) => s.step).reduce(lcm);
      for (const s of both) s.valuesPerPoint = Math.floor(step / s.step);
      const start = Math.min(dividend.start, divisor.start);
      let end = Math.max(dividend.end, divisor.end);
      end -= pyMod(end - start, step);
      const values: Value[] = zipLongest(both.map((s) => s.read())).map(([a, b]) => safeDiv(a!, b!));
      return new TimeSeries(name, start, end, step, values);
    });
  },
};

export const COMBINE_FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map([
  ['sumSeries', aggregator('sum')],
  ['sum', aggregator('sum')],
  ['averageSeries', aggregator('average')],
  ['avg', aggregator('average')],
  ['minSeries', aggregator('min')],
  ['maxSeries', aggregator('max')],
  ['diffSeries', aggregator('diff')],
  ['countSeries', countSeries],
  ['divideSeries', divideSeries],
]);
