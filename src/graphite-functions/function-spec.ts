import type { TimeSeries } from './time-series.js';
import type { PyNumber } from './python-numbers.js';
import type { ArgNode } from '../model/graphite-target/grammar.js';

/** An argument as graphite-web's evaluator hands it to a function. */
export type ArgValue =
  | { kind: 'series'; list: TimeSeries[] }
  | ({ kind: 'number' } & PyNumber)
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'none' };

/**
 * What a parameter accepts here. Narrower than graphite-web, on purpose: a target whose arguments are of another
 * type (graphite-web, not enforcing its parameter types, would call the function with them anyway) is not
 * evaluated locally, so its answer always comes from graphite-web.
 */
export type ParamType =
  | 'seriesList'
  | 'float'
  | 'intOrInf'
  | 'intOrInterval'
  | 'interval'
  | 'aggFunc'
  | 'boolean'
  | 'string'
  | 'node'
  /** asPercent's total: a number, a series list or None. */
  | 'numberOrSeries';

export interface ParamSpec {
  name: string;
  type: ParamType;
  required?: boolean;
  /** Python's *args: takes every further positional argument. */
  multiple?: boolean;
}

/** A call's arguments bound to its parameters, as Python binds `func(requestContext, *args, **kwargs)`. */
export interface BoundCall {
  /** The value of a parameter, undefined when not given. */
  get(name: string): ArgValue | undefined;
  /** The values of the `multiple` parameter, in order. */
  rest(): ArgValue[];
  /** The range the call is evaluated over (movingAverage evaluates its first argument again, earlier). */
  range: { from: number; until: number };
  /** Evaluates the first argument again over another range, as movingWindow does. */
  evaluateFirstOver(range: { from: number; until: number }): TimeSeries[];
}

/** One supported function: its parameters and graphite-web's behaviour. */
export interface FunctionSpec {
  params: readonly ParamSpec[];
  evaluate(call: BoundCall): TimeSeries[];
  /** Seconds of data before `from` the call reads, given the coarsest step of its input (movingAverage). */
  lookback?(bound: ReadonlyMap<string, ArgNode>, step: number): number;
}

/** The series list of a parameter (an empty list when absent). */
export function seriesArg(call: BoundCall, name: string): TimeSeries[] {
  const arg = call.get(name);
  return arg?.kind === 'series' ? arg.list : [];
}

/** A numeric parameter, or the default. */
export function numberArg(call: BoundCall, name: string, fallback: number | null): number | null {
  const arg = call.get(name);
  return arg?.kind === 'number' ? arg.value : fallback;
}

/** A string parameter, or the default. */
export function stringArg(call: BoundCall, name: string, fallback: string): string {
  const arg = call.get(name);
  return arg?.kind === 'string' ? arg.value : fallback;
}
