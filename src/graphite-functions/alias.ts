import { aggKey } from './as-percent.js';
import { seriesArg, stringArg, type FunctionSpec } from './function-spec.js';

/**
 * The Alias family: alias, aliasByNode, aliasByMetric. They change the name only: the path expression stays, so
 * `sumSeries(alias(a.b,'x'))` is still named `sumSeries(a.b)`, as in graphite-web.
 */

const alias: FunctionSpec = {
  params: [
    { name: 'seriesList', type: 'seriesList', required: true },
    { name: 'newName', type: 'string', required: true },
  ],
  evaluate(call) {
    const list = seriesArg(call, 'seriesList');
    const newName = stringArg(call, 'newName', '');
    for (const series of list) series.name = newName;
    return list;
  },
};

/** aliasByNode: the name's nodes (of its first path when it is a function's name), joined by dots. */
const aliasByNode: FunctionSpec = {
  params: [
    { name: 'seriesList', type: 'seriesList', required: true },
    { name: 'nodes', type: 'node', required: true, multiple: true },
  ],
  evaluate(call) {
    const nodes = call.rest().map((arg) => (arg.kind === 'number' ? arg.value : 0));
    const list = seriesArg(call, 'seriesList');
    for (const series of list) series.name = aggKey(series, nodes);
    return list;
  },
};

/** aliasByMetric: graphite-web's substr(series, -1): the last node between the last "(" and the first ")". */
const aliasByMetric: FunctionSpec = {
  params: [{ name: 'seriesList', type: 'seriesList', required: true }],
  evaluate(call) {
    const list = seriesArg(call, 'seriesList');
    for (const series of list) {
      const left = series.name.lastIndexOf('(') + 1;
      let right = series.name.indexOf(')');
      if (right < 0) right = series.name.length + 1;
      // Python's name[left:right] is '' when right is before left.
      const clean = right > left ? series.name.slice(left, right) : '';
      const parts = clean.split('.');
      series.name = parts.slice(-1).join('.').replace(/,.*$/, '');
    }
    return list;
  },
};

export const ALIAS_FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map([
  ['alias', alias],
  ['aliasByNode', aliasByNode],
  ['aliasByMetric', aliasByMetric],
]);
