import { CALLS_BY_NAME, GRAPHITE_FUNCTIONS, UNCONFINABLE_FUNCTIONS } from '../../model/graphite-target/functions.js';
import type { CallNode, ExpressionNode, PathNode } from '../../model/graphite-target/grammar.js';
import { TargetSyntaxError, callsOf, parseTarget, pathNodesOf, tagExpressionsOf } from '../../model/graphite-target/target.js';
import { echo } from '../errors.js';
import { isInsidePrefixes } from '../../model/metric-prefixes.js';

/** A prefix an operator may give: dot-separated plain words, ending with a dot or not (`team1.`, `team1.prod`). */
export const METRIC_PREFIX = /^[A-Za-z0-9_:-]+(\.[A-Za-z0-9_:-]+)*\.?$/;

/** graphite-web's tag database reads a tag expression so (graphite.tags.base.BaseTagDB.parse_tagspec). */
const TAG_SPEC = /^([^;!=]+)(!?=~?)([^;]*)$/;

/**
 * Why a Graphite target may read outside an account's metric prefixes, or null when it provably reads only inside
 * them. No prefixes: the account is not confined. The target is read with graphite-web's own grammar
 * (src/model/graphite-target/grammar.ts), so what is judged is what graphite-web will fetch: every metric path (top level,
 * arguments, keyword values, both sides of `|` pipes) must start with a prefix, every seriesByTag call needs an
 * exact `name=` inside them. Whatever cannot be proven so is refused: a target graphite-web would not take whole,
 * functions graphite-web does not have or that build queries from strings, template(), escapes and `/` in paths.
 */
export function checkMetricPrefixes(target: string, prefixes: readonly string[]): string | null {
  if (prefixes.length === 0) return null;
  let expression: ExpressionNode;
  try {
    expression = parseTarget(target).expression;
  } catch (error) {
    if (!(error instanceof TargetSyntaxError)) throw error;
    return `cannot be checked against the account's metric prefixes: ${error.message} (at character ${error.position + 1})`;
  }
  const allowed = `(allowed: ${prefixes.join(', ')})`;
  const inside = (path: string) => isInsidePrefixes(path, prefixes);
  if (usesTemplate(expression)) return "calls template, whose variables rewrite metric paths; a metric-prefix-confined account may not use it";
  for (const call of callsOf(expression)) {
    const problem = checkCall(call, inside, allowed);
    if (problem !== null) return problem;
  }
  for (const path of pathNodesOf(expression)) {
    const problem = checkPath(path, inside, allowed);
    if (problem !== null) return problem;
  }
  return null;
}

function checkCall(call: CallNode, inside: (path: string) => boolean, allowed: string): string | null {
  const { name } = call;
  if (name === 'template') return "calls template, whose variables rewrite metric paths; a metric-prefix-confined account may not use it";
  if (!GRAPHITE_FUNCTIONS.has(name)) return `calls ${name}, which graphite-web does not have; a metric-prefix-confined account may only call graphite-web's functions`;
  if (UNCONFINABLE_FUNCTIONS.has(name)) return `calls ${name}, which a metric-prefix-confined account may not use`;
  if (CALLS_BY_NAME.has(name)) {
    for (const arg of [...call.args, ...call.kwargs.map((kw) => kw.value)]) {
      const named = arg.kind === 'string' ? arg.text.slice(1, -1) : null;
      if (named !== null && (UNCONFINABLE_FUNCTIONS.has(named) || named === 'seriesByTag' || named === 'template')) {
        return `passes ${echo(named)} to ${name}, which calls it by name; a metric-prefix-confined account may not use ${named}`;
      }
    }
  }
  if (name === 'seriesByTag') return checkSeriesByTag(call, inside, allowed);
  return null;
}

/** seriesByTag ANDs its expressions: one exact `name=` inside the prefixes confines the whole call. */
function checkSeriesByTag(call: CallNode, inside: (path: string) => boolean, allowed: string): string | null {
  // graphite-web's storage recognises the call by this exact text, and reads only its quoted arguments.
  if (!call.raw.startsWith('seriesByTag(')) return 'writes seriesByTag with a space before "(", which graphite-web does not read as a tag query';
  if (call.kwargs.length > 0 || call.args.some((arg) => arg.kind !== 'string')) {
    return 'passes seriesByTag something other than quoted tag expressions, which a metric-prefix-confined account may not do';
  }
  const expressions = tagExpressionsOf(call);
  const names = expressions.flatMap((expression) => {
    const spec = TAG_SPEC.exec(expression);
    return spec !== null && spec[1] === 'name' && spec[2] === '=' ? [spec[3]!] : [];
  });
  if (names.some(inside)) return null;
  const shown = names[0] ?? expressions.join(', ');
  return `seriesByTag reads ${echo(shown)}, outside the account's metric prefixes ${allowed}; give an exact name= inside them`;
}

function checkPath(path: PathNode, inside: (path: string) => boolean, allowed: string): string | null {
  if (!inside(path.path)) return `reads ${echo(path.path)}, outside the account's metric prefixes ${allowed}`;
  // graphite-web's file finder joins each path segment to a directory: a segment starting with "/" is absolute.
  if (path.path.includes('/')) return `reads ${echo(path.path)}, whose "/" graphite-web's finder takes as a file system path; a metric-prefix-confined account may not use it`;
  if (path.escaped) return `reads ${echo(path.path)} written with backslash escapes, which a metric-prefix-confined account may not use`;
  return null;
}

function usesTemplate(expression: ExpressionNode): boolean {
  if (expression.head.kind === 'template') return true;
  const calls = [expression.head, ...expression.pipes].filter((node): node is CallNode => node.kind === 'call');
  return calls.some((call) => [...call.args, ...call.kwargs.map((kw) => kw.value)].some((arg) => arg.kind === 'expression' && usesTemplate(arg)));
}
