import type { Value } from './time-series.js';

/**
 * graphite-web's null-safe arithmetic (graphite/functions/safe.py) and its aggregation functions
 * (graphite/functions/aggfuncs.py), in the same order of operations so that sums and averages give the same
 * floating-point results (Python 3.11's sum() adds left to right, from 0).
 */

const present = (values: readonly Value[]): number[] => values.filter((v): v is number => v !== null);

export function safeSum(values: readonly Value[]): Value {
  const usable = present(values);
  return usable.length > 0 ? usable.reduce((a, b) => a + b, 0) : null;
}

export function safeDiff(values: readonly Value[]): Value {
  const usable = present(values);
  if (usable.length === 0) return null;
  // sum([first] + [-x for the rest]): the negations are added, from 0.
  return [usable[0]!, ...usable.slice(1).map((x) => x * -1)].reduce((a, b) => a + b, 0);
}

export function safeLen(values: readonly Value[]): number {
  return present(values).length;
}

export function safeDiv(a: Value, b: Value): Value {
  if (a === null) return null;
  if (b === null || b === 0) return null;
  return a / b;
}

export function safeMul(...factors: Value[]): Value {
  if (factors.includes(null)) return null;
  return (factors as number[]).reduce((x, y) => x * y);
}

export function safeSubtract(a: Value, b: Value): Value {
  return a === null || b === null ? null : a - b;
}

export function safeAvg(values: readonly Value[]): Value {
  const usable = present(values);
  return usable.length > 0 ? usable.reduce((a, b) => a + b, 0) / usable.length : null;
}

export function safeAvgZero(values: readonly Value[]): Value {
  return values.length > 0 ? values.map((v) => v ?? 0).reduce((a, b) => a + b, 0) / values.length : null;
}

export function safeMedian(values: readonly Value[]): Value {
  const sorted = present(values).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[mid - 1]! + sorted[mid]!) / 2 : sorted[mid]!;
}

export function safeStdDev(values: readonly Value[]): Value {
  const sum = safeSum(values);
  const count = safeLen(values);
  const avg = safeDiv(sum, count);
  if (avg === null) return null;
  let total = 0;
  for (const v of present(values)) total = total + (v - avg) * (v - avg);
  return Math.sqrt(total / count);
}

export function safeLast(values: readonly Value[]): Value {
  for (let i = values.length - 1; i >= 0; i -= 1) if (values[i] !== null) return values[i]!;
  return null;
}

export function safeMin(values: readonly Value[]): Value {
  const usable = present(values);
  return usable.length > 0 ? usable.reduce((a, b) => (b < a ? b : a)) : null;
}

export function safeMax(values: readonly Value[]): Value {
  const usable = present(values);
  return usable.length > 0 ? usable.reduce((a, b) => (b > a ? b : a)) : null;
}

export function safeAbs(value: Value): Value {
  return value === null ? null : Math.abs(value);
}

/** graphite-web's aggFuncs and their aliases, by the name a target gives. */
export const AGG_FUNCS: ReadonlyMap<string, (row: readonly Value[]) => Value> = new Map<string, (row: readonly Value[]) => Value>([
  ['average', safeAvg],
  ['avg_zero', safeAvgZero],
  ['median', safeMedian],
  ['sum', safeSum],
  ['min', safeMin],
  ['max', safeMax],
  ['diff', safeDiff],
  ['stddev', safeStdDev],
  ['count', safeLen],
  ['range', (row) => safeSubtract(safeMax(row), safeMin(row))],
  ['multiply', (row) => safeMul(...row)],
  ['last', safeLast],
  ['rangeOf', (row) => safeSubtract(safeMax(row), safeMin(row))],
  ['avg', safeAvg],
  ['total', safeSum],
  ['current', safeLast],
]);
