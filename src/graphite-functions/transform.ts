import { safeAbs, safeMul } from './safe.js';
import { numberArg, seriesArg, type FunctionSpec } from './function-spec.js';
import { pyFormatG } from './python-numbers.js';
import { zipLongest, type TimeSeries, type Value } from './time-series.js';

/**
 * The point-by-point Transform family of graphite-web: scale, offset, absolute, keepLastValue, transformNull.
 * Each renames the series (`scale(x,2)`: the factor as Python's `%g` prints it) and makes the new name its path
 * expression, so an aggregate over them is named by these names.
 */

/** Writes f(value) over the series as graphite-web does: consolidated values read, raw indexes written. */
function mapValues(series: TimeSeries, f: (value: Value) => Value): void {
  series.read().forEach((value, i) => {
    series.values[i] = f(value);
  });
}

function rename(series: TimeSeries, name: string): void {
  series.name = name;
  series.pathExpression = name;
}

const scale: FunctionSpec = {
  params: [
    { name: 'seriesList', type: 'seriesList', required: true },
    { name: 'factor', type: 'float', required: true },
  ],
  evaluate(call) {
    const factor = numberArg(call, 'factor', 0)!;
    const list = seriesArg(call, 'seriesList');
    for (const series of list) {
      rename(series, `scale(${series.name},${pyFormatG(factor)})`);
      mapValues(series, (value) => safeMul(value, factor));
    }
    return list;
  },
};

const offset: FunctionSpec = {
  params: [
    { name: 'seriesList', type: 'seriesList', required: true },
    { name: 'factor', type: 'float', required: true },
  ],
  evaluate(call) {
    const factor = numberArg(call, 'factor', 0)!;
    const list = seriesArg(call, 'seriesList');
    for (const series of list) {
      rename(series, `offset(${series.name},${pyFormatG(factor)})`);
      mapValues(series, (value) => (value === null ? null : value + factor));
    }
    return list;
  },
};

const absolute: FunctionSpec = {
  params: [{ name: 'seriesList', type: 'seriesList', required: true }],
  evaluate(call) {
    const list = seriesArg(call, 'seriesList');
    for (const series of list) {
      rename(series, `absolute(${series.name})`);
      mapValues(series, safeAbs);
    }
    return list;
  },
};

/** keepLastValue: a gap of at most `limit` nulls (default: any) after a value is filled with that value. */
const keepLastValue: FunctionSpec = {
  params: [
    { name: 'seriesList', type: 'seriesList', required: true },
    { name: 'limit', type: 'intOrInf' },
  ],
  evaluate(call) {
    const limit = numberArg(call, 'limit', Infinity)!;
    const list = seriesArg(call, 'seriesList');
    for (const series of list) {
      rename(series, `keepLastValue(${series.name})`);
      const read = series.read();
      let nulls = 0;
      let last: Value = null;
      read.forEach((value, i) => {
        if (value === null) {
          nulls += 1;
          return;
        }
        if (nulls > 0 && nulls <= limit && last !== null) for (let j = i - nulls; j < i; j += 1) series.values[j] = last;
        nulls = 0;
        last = value;
      });
      // A run of nulls at the end is filled too, when within the limit.
      if (nulls > 0 && nulls <= limit && last !== null) for (let j = series.values.length - nulls; j < series.values.length; j += 1) series.values[j] = last;
    }
    return list;
  },
};

/** transformNull: nulls become `default` (0), or only where a referenceSeries has a value at that index. */
const transformNull: FunctionSpec = {
  params: [
    { name: 'seriesList', type: 'seriesList', required: true },
    { name: 'default', type: 'float' },
    { name: 'referenceSeries', type: 'seriesList' },
  ],
  evaluate(call) {
    const fallback = numberArg(call, 'default', 0)!;
    const reference = seriesArg(call, 'referenceSeries');
    const list = seriesArg(call, 'seriesList');
    const defaults = reference.length > 0 ? zipLongest(reference.map((s) => s.read())).map((row) => (row.some((v) => v !== null) ? fallback : null)) : null;
    for (const series of list) {
      rename(series, reference.length > 0 ? `transformNull(${series.name},${pyFormatG(fallback)},referenceSeries)` : `transformNull(${series.name},${pyFormatG(fallback)})`);
      // izip_longest(series, defaults): where the reference is longer the series grows (graphite-web's answer then
      // has as many points as its time range allows).
      series.values = defaults && defaults.length > 0 ? zipLongest([series.read(), defaults]).map(([v, d]) => v ?? d!) : series.read().map((v) => v ?? fallback);
    }
    return list;
  },
};

export const TRANSFORM_FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map([
  ['scale', scale],
  ['offset', offset],
  ['absolute', absolute],
  ['keepLastValue', keepLastValue],
  ['transformNull', transformNull],
]);
