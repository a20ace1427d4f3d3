import { AGG_FUNCS } from './safe.js';
import { seriesArg, stringArg, type FunctionSpec } from './function-spec.js';
import { parseTimeOffset } from './time-offset.js';
import { pyMod, type TimeSeries, type Value } from './time-series.js';

/**
 * summarize(seriesList, interval, func='sum', alignToFrom=false), graphite-web's: buckets of `interval` seconds,
 * aligned to multiples of the interval since the epoch (the first bucket starts at or before the series' start,
 * so it may hold only part of its points), or, with alignToFrom, starting at the series' own start (the first
 * point at or after `from`). A bucket whose points are all null is null. Named
 * `summarize(x, "1h", "sum")` (with spaces and double quotes), `, true` appended with alignToFrom.
 */

function summarizeValues(series: TimeSeries, aggFunc: (row: readonly Value[]) => Value, interval: number, newStart: number, newEnd: number): { values: Value[]; end: number } {
  const timestamps: number[] = [];
  for (let t = series.start; t < series.end; t += series.step) timestamps.push(t);
  const datapoints = series.read();
  const intervalPoints = interval / series.step;
  const count = Math.min(timestamps.length, datapoints.length);
  const values: Value[] = [];
  let i = 0;
  let bucket = newStart;
  while (bucket < newEnd) {
    let s = i;
    let nonNull = 0;
    while (i < count && timestamps[i]! < bucket + interval) {
      if (timestamps[i]! <= bucket) s = i;
      if (timestamps[i]! >= bucket && datapoints[i] !== null) nonNull += 1;
      i += 1;
    }
    // xff(nonNull, intervalPoints) with the default xFilesFactor 0.
    values.push(nonNull > 0 && intervalPoints !== 0 && nonNull / intervalPoints >= series.xFilesFactor ? aggFunc(datapoints.slice(s, i)) : null);
    bucket += interval;
  }
  return { values, end: bucket };
}

const summarize: FunctionSpec = {
  params: [
    { name: 'seriesList', type: 'seriesList', required: true },
    { name: 'intervalString', type: 'interval', required: true },
    { name: 'func', type: 'aggFunc' },
    { name: 'alignToFrom', type: 'boolean' },
  ],
  evaluate(call) {
    const intervalString = stringArg(call, 'intervalString', '');
    const interval = parseTimeOffset(intervalString)!;
    const func = stringArg(call, 'func', 'sum');
    const aligned = call.get('alignToFrom');
    const alignToFrom = aligned?.kind === 'boolean' && aligned.value;
    const aggFunc = AGG_FUNCS.get(func)!;
    return seriesArg(call, 'seriesList').map((series) => {
      let newStart = series.start;
      let newEnd = series.end;
      if (!alignToFrom) {
        newStart = series.start - pyMod(series.start, interval);
        newEnd = series.end - pyMod(series.end, interval) + interval;
      }
      const { values, end } = summarizeValues(series, aggFunc, interval, newStart, newEnd);
      if (alignToFrom) newEnd = end;
      const name = `summarize(${series.name}, "${intervalString}", "${func}"${alignToFrom ? ', true' : ''})`;
      return series.copy({ name, start: newStart, end: newEnd, step: interval, values });
    });
  },
};

export const SUMMARIZE_FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map([['summarize', summarize]]);
