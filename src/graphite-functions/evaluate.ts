import type { RenderSeries } from '../evaluation/render-series.js';
import type { ArgNode, CallNode, ExpressionNode } from '../model/graphite-target/grammar.js';
import { bindCall } from './bind-call.js';
import type { ArgValue, BoundCall } from './function-spec.js';
import { EmptyResult, GraphiteWebError, InputParameterError, pyMod, TimeSeries, type Value } from './time-series.js';

/** A fetched series; `step` when the caller knows it (else it is read from the points: see stepOf). */
export type FetchedSeries = RenderSeries & { step?: number };

/** The raw series of one path expression (plain or glob), covering the range asked and the look-back before it. */
export type SeriesFetch = (pathExpression: string) => readonly FetchedSeries[];

export interface EvaluationRange {
  /** Unix seconds, as graphite-web's `from` and `until` (until not in the future). */
  from: number;
  until: number;
}

/** The step assumed for a series with fewer than two points and no `step`: carbon's default retention's. */
export const DEFAULT_STEP = 60;

/** A series' step: its own, else the smallest gap between its points. */
export function stepOf(series: FetchedSeries): number {
  if (series.step !== undefined && series.step > 0) return series.step;
  let step = Infinity;
  const points = series.datapoints;
  for (let i = 1; i < points.length; i += 1) {
    const gap = points[i]![1] - points[i - 1]![1];
    if (gap > 0 && gap < step) step = gap;
  }
  return Number.isFinite(step) ? step : DEFAULT_STEP;
}

/**
 * A fetched series cut to a range as whisper cuts it: one slot per step from the first step boundary after `from`
 * to the one at or before `until`, each point in the slot of its time rounded down to the step (the last one
 * wins, as carbon overwrites), null where none, named by its path with the path expression the target wrote.
 */
export function windowSeries(series: FetchedSeries, pathExpression: string, range: EvaluationRange): TimeSeries {
  const step = stepOf(series);
  const fromSlot = range.from - pyMod(range.from, step) + step;
  let untilSlot = range.until - pyMod(range.until, step) + step;
  if (untilSlot === fromSlot) untilSlot += step;
  const count = Math.max(0, Math.floor((untilSlot - fromSlot) / step));
  const values: Value[] = new Array<Value>(count).fill(null);
  for (const [value, time] of series.datapoints) {
    const slot = time - pyMod(time, step);
    if (slot < fromSlot || slot >= untilSlot) continue;
    if (typeof value === 'number' && Number.isFinite(value)) values[(slot - fromSlot) / step] = value;
    else values[(slot - fromSlot) / step] = null;
  }
  return new TimeSeries(series.target, fromSlot, untilSlot, step, values, 'average', 0, pathExpression);
}

/**
 * The path expressions graphite-web fetches for an expression: those of the head, of positional arguments and of
 * piped calls' arguments, but not those of keyword arguments (its prefetch walks `call.args` only, and a path it
 * did not prefetch reads as no series: `transformNull(x, referenceSeries=y)` has no reference series unless y is
 * also read positionally).
 */
export function fetchedPathsOf(node: ArgNode): string[] {
  const paths: string[] = [];
  const visit = (arg: ArgNode) => {
    if (arg.kind !== 'expression') return;
    const head = arg.head;
    if (head.kind === 'path') paths.push(head.path);
    else if (head.kind === 'call') head.args.forEach(visit);
    for (const piped of arg.pipes) piped.args.forEach(visit);
  };
  visit(node);
  return [...new Set(paths)];
}

/** What an evaluation reads from: the caller's series, the range, and the paths graphite-web would have fetched. */
interface Source {
  fetch: SeriesFetch;
  prefetched: ReadonlySet<string>;
}

/** Evaluates a parsed target as graphite-web's evaluator does. Throws GraphiteWebError where graphite-web fails. */
export function evaluateExpression(expression: ExpressionNode, fetch: SeriesFetch, range: EvaluationRange): TimeSeries[] {
  return asList(evaluateNode(expression, { fetch, prefetched: new Set(fetchedPathsOf(expression)) }, range));
}

function asList(value: ArgValue): TimeSeries[] {
  return value.kind === 'series' ? value.list : [];
}

function evaluateNode(node: ArgNode, source: Source, range: EvaluationRange): ArgValue {
  switch (node.kind) {
    case 'number':
      return { kind: 'number', value: Number(node.text), int: /^-?\d+$/.test(node.text) };
    case 'infinity':
      return { kind: 'number', value: Infinity, int: false };
    case 'string':
      return { kind: 'string', value: node.text.slice(1, -1) };
    case 'boolean':
      return { kind: 'boolean', value: node.value };
    case 'none':
      return { kind: 'none' };
    case 'expression':
      return { kind: 'series', list: evaluatePiped(node, node.pipes.length, source, range) };
  }
}

/** The expression with its first `pipes` piped calls: the last of them called with the rest as first argument. */
function evaluatePiped(node: ExpressionNode, pipes: number, source: Source, range: EvaluationRange): TimeSeries[] {
  if (pipes > 0) {
    const before: ExpressionNode = { ...node, pipes: node.pipes.slice(0, pipes - 1) };
    return callFunction(node.pipes[pipes - 1]!, before, source, range);
  }
  const head = node.head;
  if (head.kind === 'path') {
    if (!source.prefetched.has(head.path)) return [];
    // graphite-web orders a path's series by name (datalib's _merge_results).
    const fetched = [...source.fetch(head.path)].sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
    return fetched.map((series) => windowSeries(series, head.path, range));
  }
  if (head.kind === 'call') return callFunction(head, null, source, range);
  throw new Error('template() is not evaluated locally');
}

function callFunction(call: CallNode, piped: ExpressionNode | null, source: Source, range: EvaluationRange): TimeSeries[] {
  const bound = bindCall(call, piped);
  if (!bound.ok) throw new Error(bound.reason);
  // graphite-web evaluates the positional arguments, then the keyword ones, then calls.
  const rest = bound.rest.map((node) => evaluateNode(node, source, range));
  const byName = new Map<string, ArgValue>();
  for (const [name, node] of bound.byName) byName.set(name, evaluateNode(node, source, range));
  const first = bound.first;
  const boundCall: BoundCall = {
    get: (name) => byName.get(name),
    rest: () => rest,
    range,
    // graphite-web evaluates it as a target of its own: only its own paths are fetched for the new range.
    evaluateFirstOver: (other) => (first ? asList(evaluateNode(first.node, { fetch: source.fetch, prefetched: new Set(fetchedPathsOf(first.node)) }, other)) : []),
  };
  try {
    return bound.spec.evaluate(boundCall);
  } catch (error) {
    // graphite-web answers an empty normalize() with no series (HTTP 200).
    if (error instanceof EmptyResult) return [];
    // Its handling of a function's InputParameterError fails in turn ("unknown token in target evaluator"): 400.
    if (error instanceof InputParameterError) throw new GraphiteWebError(error.message, 400);
    throw error;
  }
}
