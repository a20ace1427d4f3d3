import { numberArg, seriesArg, type FunctionSpec } from './function-spec.js';
import { pyRound } from './python-numbers.js';
import { GraphiteWebError, type Value } from './time-series.js';

/**
 * perSecond and nonNegativeDerivative (graphite-web's _nonNegativeDelta): the difference from the previous value,
 * null for the first point and after a null; a decrease is null, or a wrap at maxValue (maxValue + 1 + value -
 * previous - (minValue or 0)), or a reset to minValue (value - minValue). perSecond divides by the series' step
 * and rounds to 6 decimals as Python's round() does.
 */

function nonNegativeDelta(value: Value, previous: Value, maxValue: number | null, minValue: number | null): [Value, Value] {
  // graphite-web compares None > maxValue here, which Python 3 refuses: the whole request fails.
  if ((maxValue !== null || minValue !== null) && value === null) {
    throw new GraphiteWebError('maxValue or minValue with a null point (Python 3 cannot compare None with a number)');
  }
  if (maxValue !== null && value! > maxValue) return [null, null];
  if (minValue !== null && value! < minValue) return [null, null];
  if (previous === null || value === null) return [null, value];
  if (value >= previous) return [value - previous, value];
  if (maxValue !== null) return [maxValue + 1 + value - previous - (minValue || 0), value];
  if (minValue !== null) return [value - minValue, value];
  return [null, value];
}

const params = [
  { name: 'seriesList', type: 'seriesList', required: true },
  { name: 'maxValue', type: 'float' },
  { name: 'minValue', type: 'float' },
] as const;

function derivativeOf(name: string, perStep: boolean): FunctionSpec {
  return {
    params,
    evaluate(call) {
      const maxValue = numberArg(call, 'maxValue', null);
      const minValue = numberArg(call, 'minValue', null);
      return seriesArg(call, 'seriesList').map((series) => {
        let previous: Value = null;
        const values = series.read().map((value) => {
          const [delta, next] = nonNegativeDelta(value, previous, maxValue, minValue);
          previous = next;
          return delta === null ? null : perStep ? pyRound(delta / series.step, 6) : delta;
        });
        return series.copy({ name: `${name}(${series.name})`, values });
      });
    },
  };
}

export const DERIVATIVE_FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map([
  ['perSecond', derivativeOf('perSecond', true)],
  ['nonNegativeDerivative', derivativeOf('nonNegativeDerivative', false)],
]);
