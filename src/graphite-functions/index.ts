import type { RenderSeries } from '../evaluation/render-series.js';
import type { ArgNode, ExpressionNode } from '../model/graphite-target/grammar.js';
import { parseTarget } from '../model/graphite-target/target.js';
import { bindCall, checkPath } from './bind-call.js';
import { evaluateExpression, fetchedPathsOf, type EvaluationRange, type SeriesFetch } from './evaluate.js';
import { LOCAL_FUNCTIONS } from './registry.js';

/**
 * The Graphite function engine: the functions most alerts use, evaluated here on series the caller supplies,
 * with the answers graphite-web 1.1.8 gives on the same points (names, nulls, steps, consolidation, windows).
 * Pure: no I/O, no clock. The evaluator's stream path and `alertform test` use it; a target it does not take
 * whole (isLocallyEvaluable false) is left to graphite-web.
 */

export { DEFAULT_STEP, stepOf, windowSeries, type EvaluationRange, type FetchedSeries, type SeriesFetch } from './evaluate.js';
export { GraphiteWebError } from './time-series.js';

/** The names of the functions evaluated locally, sorted (graphite-web's short names `sum`, `avg`, `pct` included). */
export const LOCAL_FUNCTION_NAMES: readonly string[] = [...LOCAL_FUNCTIONS.keys()].sort();

/** Why a target is not evaluated locally, or null when it is: its first unsupported function or argument. */
export function whyNotLocal(target: string): string | null {
  let expression: ExpressionNode;
  try {
    expression = parseTarget(target).expression;
  } catch (error) {
    return `the target does not parse: ${(error as Error).message}`;
  }
  return checkExpression(expression);
}

function checkExpression(expression: ExpressionNode): string | null {
  const head = expression.head;
  if (head.kind === 'template') return 'template() is not evaluated locally';
  if (head.kind === 'path') {
    const problem = checkPath(head.path);
    if (problem) return problem;
  } else {
    const problem = checkCall(head, null);
    if (problem) return problem;
  }
  for (let i = 0; i < expression.pipes.length; i += 1) {
    const problem = checkCall(expression.pipes[i]!, { ...expression, pipes: expression.pipes.slice(0, i) });
    if (problem) return problem;
  }
  return null;
}

function checkCall(call: Parameters<typeof bindCall>[0], piped: ExpressionNode | null): string | null {
  const bound = bindCall(call, piped);
  if (!bound.ok) return bound.reason;
  for (const node of [...bound.byName.values(), ...bound.rest]) {
    if (node.kind === 'expression' && node !== piped) {
      const problem = checkExpression(node);
      if (problem) return problem;
    }
  }
  return null;
}

/** Whether every function of the target is evaluated locally, with arguments of the types it takes here. */
export function isLocallyEvaluable(target: string): boolean {
  return whyNotLocal(target) === null;
}

/**
 * The path expressions (plain or glob, escapes resolved) the target reads, each once, in order: those graphite-web
 * fetches (a path written only in a keyword argument is not fetched, and reads as no series).
 */
export function seriesPathsOf(target: string): string[] {
  return fetchedPathsOf(parseTarget(target).expression);
}

/**
 * How many seconds before `from` the fetched series must reach for movingAverage & co. (graphite-web fetches
 * that much more history for them): the windows of nested moving functions add up. `step` is the coarsest step
 * of the series read (a window of N points reaches back N times it). 0 for a target without moving windows.
 */
export function lookbackSecondsOf(target: string, step: number): number {
  return lookbackOf(parseTarget(target).expression, step);
}

function lookbackOf(expression: ExpressionNode, step: number): number {
  // The outermost call is the last piped one (its first argument is the expression before it), else the head.
  const piped = expression.pipes.length > 0 ? { ...expression, pipes: expression.pipes.slice(0, -1) } : null;
  const call = piped ? expression.pipes[expression.pipes.length - 1]! : expression.head.kind === 'call' ? expression.head : null;
  if (call === null) return 0;
  const bound = bindCall(call, piped);
  if (!bound.ok) return 0;
  const own = bound.spec.lookback?.(bound.byName, step) ?? 0;
  const inner = [...bound.byName.values(), ...bound.rest].filter((node): node is ExpressionNode => node.kind === 'expression');
  return own + Math.max(0, ...inner.map((node) => lookbackOf(node, step)));
}

/**
 * Evaluates a target over a range as graphite-web's `/render` would, on the series `fetch` gives for each path
 * expression (see windowSeries for how they are cut to the range; they must reach lookbackSecondsOf(target)
 * before `from`). Returns graphite-web's answer: series named as it names them, `[value, time]` points, null
 * where it has None. Throws for a target that is not locally evaluable, and GraphiteWebError where graphite-web
 * itself fails on the data (it answers HTTP 500).
 */
export function evaluateTarget(target: string, fetch: SeriesFetch, range: EvaluationRange): RenderSeries[] {
  return compileTarget(target).evaluate(fetch, range);
}

/** A target parsed and checked once, for a caller that evaluates it again and again (the stream evaluation). */
export interface CompiledTarget {
  target: string;
  /** seriesPathsOf(target). */
  paths: readonly string[];
  /** lookbackSecondsOf(target, step). */
  lookbackSeconds(step: number): number;
  /** evaluateTarget(target, fetch, range), without parsing again. */
  evaluate(fetch: SeriesFetch, range: EvaluationRange): RenderSeries[];
}

/** Parses and checks a target once; throws for a target that is not locally evaluable (see whyNotLocal). */
export function compileTarget(target: string): CompiledTarget {
  const reason = whyNotLocal(target);
  if (reason !== null) throw new Error(`"${target}" is not evaluated locally: ${reason}`);
  const expression = parseTarget(target).expression;
  return {
    target,
    paths: fetchedPathsOf(expression),
    lookbackSeconds: (step) => lookbackOf(expression, step),
    evaluate: (fetch, range) => evaluateExpression(expression, fetch, range).map((series) => series.toRenderSeries()),
  };
}

export type { ArgNode };
