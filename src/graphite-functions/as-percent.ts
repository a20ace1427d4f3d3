import { parseGraphiteTarget, type ArgNode, type ExpressionNode } from '../model/graphite-target/grammar.js';
import { safeDiv, safeMul, safeSum } from './safe.js';
import { seriesArg, type FunctionSpec } from './function-spec.js';
import { pyNumberText } from './python-numbers.js';
import { formatPathExpressions, GraphiteWebError, InputParameterError, normalize, TimeSeries, zipLongest, type Value } from './time-series.js';

/**
 * asPercent (and its short name pct), graphite-web's in each of its forms: no total (the sum of the list), a
 * number, one total series, as many totals as series (matched by sorted name), and with nodes (grouped by the
 * nodes of each name, totals summed per group, `MISSING` where one side has no partner).
 */

const percent = (a: Value, b: Value): Value => safeMul(safeDiv(a, b), 100.0);

const asPercent: FunctionSpec = {
  params: [
    { name: 'seriesList', type: 'seriesList', required: true },
    { name: 'total', type: 'numberOrSeries' },
    { name: 'nodes', type: 'node', multiple: true },
  ],
  evaluate(call) {
    const seriesList = seriesArg(call, 'seriesList');
    const totalArg = call.get('total');
    const nodes = call.rest().map((arg) => (arg.kind === 'number' ? arg.value : 0));
    normalize([seriesList]);
    if (nodes.length > 0) {
      if (totalArg?.kind === 'number') throw new InputParameterError('total must be None or a seriesList');
      return byNodes(seriesList, totalArg?.kind === 'series' ? totalArg.list : null, nodes);
    }
    let totalValues: Value[];
    let totalText: string;
    if (totalArg === undefined || totalArg.kind === 'none') {
      totalValues = zipLongest(seriesList.map((s) => s.read())).map(safeSum);
      totalText = `sumSeries(${formatPathExpressions(seriesList)})`;
    } else if (totalArg.kind === 'series') {
      const total = totalArg.list;
      if (total.length !== 1 && total.length !== seriesList.length) {
        throw new InputParameterError('asPercent second argument must be missing, a single digit, reference exactly 1 series or reference the same number of series as the first argument');
      }
      if (total.length === seriesList.length) return matched(seriesList, total);
      normalize([seriesList, total]);
      totalValues = total[0]!.read();
      totalText = total[0]!.name;
    } else if (totalArg.kind === 'number') {
      // [total] * len(seriesList[0]): the raw length of the first series.
      totalValues = new Array<Value>(seriesList[0]!.values.length).fill(totalArg.value);
      totalText = pyNumberText(totalArg);
    } else throw new GraphiteWebError('asPercent total of an unexpected type');
    return seriesList.map((series) => {
      const values = zipLongest([series.read(), totalValues]).map(([v, t]) => percent(v!, t!));
      // graphite-web keeps the series' own start, end and step here, even where normalize() consolidated it.
      return new TimeSeries(`asPercent(${series.name},${totalText || series.pathExpression})`, series.start, series.end, series.step, values);
    });
  },
};

/** One total per series: both lists sorted by name and paired (graphite-web's matchSeries). */
function matched(seriesList: TimeSeries[], total: TimeSeries[]): TimeSeries[] {
  const byName = (a: TimeSeries, b: TimeSeries) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const left = [...seriesList].sort(byName);
  const right = [...total].sort(byName);
  return left.map((series1, i) => pair(series1, right[i]!, `asPercent(${series1.name},${right[i]!.name})`));
}

function pair(series1: TimeSeries, series2: TimeSeries, name: string): TimeSeries {
  const { start, end, step } = normalize([[series1, series2]]);
  const values = zipLongest([series1.read(), series2.read()]).map(([v, t]) => percent(v!, t!));
  return new TimeSeries(name, start, end, step, values);
}

function byNodes(seriesList: TimeSeries[], total: TimeSeries[] | null, nodes: number[]): TimeSeries[] {
  const keys: string[] = [];
  const known = new Set<string>();
  const metaSeries = new Map<string, TimeSeries[]>();
  for (const series of seriesList) {
    const key = aggKey(series, nodes);
    if (!metaSeries.has(key)) {
      metaSeries.set(key, [series]);
      keys.push(key);
      known.add(key);
    } else metaSeries.get(key)!.push(series);
  }
  // graphite-web reuses the start, end and step of the last normalize() for the MISSING series; before any, it
  // fails (UnboundLocalError).
  let last: { start: number; end: number; step: number } | null = null;
  const sumGroup = (group: TimeSeries[]): TimeSeries => {
    if (group.length === 1) return group[0]!;
    const name = `sumSeries(${formatPathExpressions(group)})`;
    const { start, end, step } = (last = normalize([group]));
    return new TimeSeries(name, start, end, step, zipLongest(group.map((s) => s.read())).map(safeSum));
  };
  const totals = new Map<string, TimeSeries>();
  if (total === null) {
    for (const key of keys) totals.set(key, sumGroup(metaSeries.get(key)!));
  } else {
    const groups = new Map<string, TimeSeries[]>();
    for (const series of total) {
      const key = aggKey(series, nodes);
      if (!groups.has(key)) {
        groups.set(key, [series]);
        if (!known.has(key)) {
          keys.push(key);
          known.add(key);
        }
      } else groups.get(key)!.push(series);
    }
    for (const [key, group] of groups) totals.set(key, sumGroup(group));
  }
  const results: TimeSeries[] = [];
  const range = () => {
    if (last === null) throw new GraphiteWebError('asPercent with nodes: a total without series before any pair');
    return last;
  };
  for (const key of keys) {
    const group = metaSeries.get(key);
    if (group === undefined) {
      const series2 = totals.get(key)!;
      const { start, end, step } = range();
      results.push(new TimeSeries(`asPercent(MISSING,${series2.name})`, start, end, step, series2.read().map(() => null)));
      continue;
    }
    for (const series1 of group) {
      const series2 = totals.get(key);
      if (series2 === undefined) {
        const { start, end, step } = range();
        results.push(new TimeSeries(`asPercent(${series1.name},MISSING)`, start, end, step, series1.read().map(() => null)));
      } else {
        const name = `asPercent(${series1.name},${series2.name})`;
        last = normalize([[series1, series2]]);
        const values = zipLongest([series1.read(), series2.read()]).map(([v, t]) => percent(v!, t!));
        results.push(new TimeSeries(name, last.start, last.end, last.step, values));
      }
    }
  }
  return results;
}

/**
 * graphite-web's aggKey with integer nodes: the nodes of the name, or of the first path in it when the name ends
 * with `)` (a function's name); a node past the end is '' (graphite-web falls back to a tag of that name).
 */
export function aggKey(series: TimeSeries, nodes: readonly number[]): string {
  let path = series.name;
  if (series.name.endsWith(')')) path = firstPathExpression(series.name) ?? series.name;
  const parts = path.split(';', 1)[0]!.split('.');
  return nodes
    .map((n) => {
      const index = n < 0 ? parts.length + n : n;
      return index >= 0 && index < parts.length ? parts[index]! : '';
    })
    .join('.');
}

/** graphite-web's _getFirstPathExpression: parse the name, follow first arguments down to a path. */
function firstPathExpression(name: string): string | null {
  const parsed = parseGraphiteTarget(name);
  if (parsed === null) throw new GraphiteWebError(`the series name ${JSON.stringify(name)} does not parse as a target`);
  let node: ExpressionNode | null = parsed.expression;
  while (node !== null) {
    const head: ExpressionNode['head'] = node.head;
    if (head.kind === 'path') return head.path;
    if (head.kind !== 'call') return null;
    const first: ArgNode | undefined = head.args[0];
    node = first?.kind === 'expression' ? first : null;
  }
  return null;
}

export const PERCENT_FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map([
  ['asPercent', asPercent],
  ['pct', asPercent],
]);
