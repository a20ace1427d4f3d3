import type { ArgNode, CallNode } from '../model/graphite-target/grammar.js';
import { checkGraphitePattern } from '../model/graphite-target/glob.js';
import { AGG_FUNCS } from './safe.js';
import type { FunctionSpec, ParamSpec, ParamType } from './function-spec.js';
import { LOCAL_FUNCTIONS } from './registry.js';
import { parseTimeOffset } from './time-offset.js';

/**
 * A call's argument nodes bound to its parameters as Python binds `func(requestContext, *args, **kwargs)`, or why
 * the call is not evaluated here: an unsupported function, a missing or unknown parameter, or an argument of a
 * type graphite-web would not check (it calls the function with it anyway, and the answer is then its own).
 */
export type BoundNodes =
  | { ok: true; spec: FunctionSpec; byName: Map<string, ArgNode>; rest: ArgNode[]; first: { param: ParamSpec; node: ArgNode } | null }
  | { ok: false; reason: string };

/**
 * `pipedFirst`: the call follows a `|`, so the expression before it is its first argument (a series list).
 */
export function bindCall(call: CallNode, pipedFirst: ArgNode | null): BoundNodes {
  const spec = LOCAL_FUNCTIONS.get(call.name);
  if (!spec) return { ok: false, reason: `${call.name}() is not evaluated locally` };
  const positional = pipedFirst ? [pipedFirst, ...call.args] : call.args;
  const byName = new Map<string, ArgNode>();
  const rest: ArgNode[] = [];
  const params = spec.params;
  for (let i = 0; i < positional.length; i += 1) {
    const param = i < params.length ? params[i]! : params[params.length - 1]!;
    if (i >= params.length && !param.multiple) return { ok: false, reason: `${call.name}() is given too many arguments` };
    const problem = checkArg(param.type, positional[i]!);
    if (problem) return { ok: false, reason: `${call.name}(): ${param.name} ${problem}` };
    if (param.multiple) rest.push(positional[i]!);
    else byName.set(param.name, positional[i]!);
  }
  for (const kwarg of call.kwargs) {
    const param = params.find((p) => p.name === kwarg.name);
    if (!param || param.multiple || byName.has(param.name)) return { ok: false, reason: `${call.name}() does not take ${kwarg.name}= here` };
    const problem = checkArg(param.type, kwarg.value);
    if (problem) return { ok: false, reason: `${call.name}(): ${param.name} ${problem}` };
    byName.set(param.name, kwarg.value);
  }
  for (const param of params) {
    if (param.required && (param.multiple ? rest.length === 0 : !byName.has(param.name))) return { ok: false, reason: `${call.name}() lacks ${param.name}` };
  }
  const firstParam = params[0]!;
  const firstNode = firstParam.multiple ? rest[0] : byName.get(firstParam.name);
  return { ok: true, spec, byName, rest, first: firstNode ? { param: firstParam, node: firstNode } : null };
}

const INT = /^-?\d+$/;

/** Why a node is not an argument of that type here, or null. */
function checkArg(type: ParamType, node: ArgNode): string | null {
  switch (type) {
    case 'seriesList':
      return node.kind === 'expression' ? null : 'must be a metric path or a function call';
    case 'float':
      return node.kind === 'number' ? null : 'must be a number';
    case 'intOrInf':
      return (node.kind === 'number' && INT.test(node.text)) || node.kind === 'infinity' ? null : 'must be a whole number or inf';
    case 'node':
      return node.kind === 'number' && INT.test(node.text) ? null : 'must be a node number (tags are not evaluated locally)';
    case 'intOrInterval':
      if (node.kind === 'number') return INT.test(node.text) && Number(node.text) >= 0 ? null : 'must be a whole number of points or a time string';
      return node.kind === 'string' && parseTimeOffset(node.text.slice(1, -1)) !== null ? null : 'must be a whole number of points or a time string';
    case 'interval': {
      const seconds = node.kind === 'string' ? parseTimeOffset(node.text.slice(1, -1)) : null;
      return seconds !== null && seconds > 0 ? null : 'must be a time string such as "5min"';
    }
    case 'aggFunc':
      return node.kind === 'string' && AGG_FUNCS.has(node.text.slice(1, -1)) ? null : 'must name an aggregation function';
    case 'boolean':
      return node.kind === 'boolean' ? null : 'must be true or false';
    case 'string':
      return node.kind === 'string' ? null : 'must be a quoted string';
    case 'numberOrSeries':
      return node.kind === 'number' || node.kind === 'expression' || node.kind === 'none' ? null : 'must be a number, a series list or None';
  }
}

/** Why a metric path is not read here (tagged series; a malformed wildcard), or null. */
export function checkPath(path: string): string | null {
  if (path.includes(';')) return `"${path}" is a tagged series`;
  const problem = checkGraphitePattern(path);
  return problem ? `"${path}": ${problem}` : null;
}
