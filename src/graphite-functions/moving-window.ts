import { AGG_FUNCS } from './safe.js';
import { numberArg, seriesArg, type BoundCall, type FunctionSpec } from './function-spec.js';
import { pyNumberText } from './python-numbers.js';
import { parseTimeOffset } from './time-offset.js';
import type { ArgNode } from '../model/graphite-target/grammar.js';
import type { TimeSeries, Value } from './time-series.js';

/**
 * movingAverage (and movingSum, movingMin, movingMax: graphite-web's movingWindow with another function). The value
 * at each point is the function of the window of points BEFORE it (the point itself is not in its window). The
 * window is a number of points, or a time string ('5min': that many seconds of points at each series' step).
 *
 * graphite-web evaluates the first argument a second time, over a range that starts the window earlier
 * (`previewSeconds` before `from`: the window's seconds, or the points times the coarsest step of the list), and
 * keeps the points from `from` on. So the caller's series must reach back that far: see lookbackSeconds().
 */

/** The seconds of history the window needs before `from`, for a window argument as written and the coarsest step. */
export function previewSeconds(window: { kind: 'number'; value: number } | { kind: 'string'; value: string }, maxStep: number): number | null {
  if (window.kind === 'string') {
    const seconds = parseTimeOffset(window.value);
    return seconds === null ? null : Math.abs(seconds);
  }
  return maxStep * Math.trunc(window.value);
}

function windowArg(call: BoundCall): { kind: 'number'; value: number; text: string } | { kind: 'string'; value: string } {
  const arg = call.get('windowSize')!;
  if (arg.kind === 'string') return { kind: 'string', value: arg.value };
  if (arg.kind === 'number') return { kind: 'number', value: arg.value, text: pyNumberText(arg) };
  throw new Error('windowSize is checked before evaluation');
}

function movingWindow(func: string, tagName: string): FunctionSpec {
  const aggFunc = AGG_FUNCS.get(func)!;
  return {
    params: [
      { name: 'seriesList', type: 'seriesList', required: true },
      { name: 'windowSize', type: 'intOrInterval', required: true },
      { name: 'xFilesFactor', type: 'float' },
    ],
    lookback(bound: ReadonlyMap<string, ArgNode>, step: number): number {
      const node = bound.get('windowSize');
      if (node?.kind === 'string') return previewSeconds({ kind: 'string', value: node.text.slice(1, -1) }, step) ?? 0;
      if (node?.kind === 'number') return previewSeconds({ kind: 'number', value: Number(node.text) }, step) ?? 0;
      return 0;
    },
    evaluate(call) {
      const seriesList = seriesArg(call, 'seriesList');
      if (seriesList.length === 0) return [];
      const window = windowArg(call);
      const preview = previewSeconds(window, seriesList.reduce((max, s) => Math.max(max, s.step), 0))!;
      const xFilesFactor = numberArg(call, 'xFilesFactor', null);
      const previewList = call.evaluateFirstOver({ from: call.range.from - preview, until: call.range.until });
      return previewList.map((series) => {
        const name = window.kind === 'string' ? `${tagName}(${series.name},"${window.value}")` : `${tagName}(${series.name},${window.text})`;
        const points = window.kind === 'string' ? Math.floor(preview / series.step) : Math.trunc(window.value);
        const effectiveXff = xFilesFactor ?? series.xFilesFactor;
        // Raw values, as graphite-web slices the list (not its consolidated reading).
        const raw = series.values;
        const values: Value[] = [];
        for (let i = points; i < raw.length; i += 1) {
          const nonNull = raw.slice(i - points, i).filter((v): v is number => v !== null);
          values.push(nonNull.length > 0 && nonNull.length / points >= effectiveXff ? aggFunc(nonNull) : null);
        }
        return windowCopy(series, name, series.start + preview, values);
      });
    },
  };
}

function windowCopy(series: TimeSeries, name: string, start: number, values: Value[]): TimeSeries {
  return series.copy({ name, start, values });
}

export const MOVING_FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map([
  ['movingAverage', movingWindow('average', 'movingAverage')],
  ['movingSum', movingWindow('sum', 'movingSum')],
  ['movingMin', movingWindow('min', 'movingMin')],
  ['movingMax', movingWindow('max', 'movingMax')],
]);
