import type { RenderSeries } from '../evaluation/render-series.js';

/** A value of a series: null where graphite-web has None. */
export type Value = number | null;

/** How graphite-web consolidates a series read with several values per point (TimeSeries.consolidationFunc). */
export type ConsolidationFunc = 'average' | 'sum' | 'max' | 'min' | 'first' | 'last';

/**
 * graphite-web's TimeSeries (render/datalib.py), held the same way so that the functions can be ported line for
 * line: `values` is the raw list, and reading it (`read()`) consolidates `valuesPerPoint` raw values into one, as
 * iterating a Python TimeSeries does once normalize() has set it. Several functions read consolidated values but
 * write raw indexes, or keep the raw step with consolidated values: kept on purpose, to give graphite-web's answers.
 */
export class TimeSeries {
  valuesPerPoint = 1;
  pathExpression: string;

  constructor(
    public name: string,
    public start: number,
    public end: number,
    public step: number,
    public values: Value[],
    public consolidationFunc: ConsolidationFunc = 'average',
    /** graphite-web's DEFAULT_XFILES_FACTOR is 0; no function supported here sets another. */
    public xFilesFactor = 0,
    pathExpression?: string,
  ) {
    this.pathExpression = pathExpression ?? name;
  }

  /** Python's `list(series)`: the values, consolidated `valuesPerPoint` at a time. */
  read(): Value[] {
    const per = this.valuesPerPoint;
    if (per <= 1) return this.values.slice();
    const out: Value[] = [];
    for (let i = 0; i < this.values.length; i += per) {
      const usable: number[] = [];
      const end = Math.min(i + per, this.values.length);
      for (let j = i; j < end; j += 1) if (this.values[j] !== null) usable.push(this.values[j]!);
      // The ratio is taken against valuesPerPoint even for the last, shorter group (as graphite-web does).
      out.push(usable.length > 0 && usable.length / per >= this.xFilesFactor ? consolidate(this.consolidationFunc, usable) : null);
    }
    return out;
  }

  /** Python's `series.copy(...)`: a new series with these fields replaced (valuesPerPoint back to 1). */
  copy(changes: { name?: string; start?: number; end?: number; step?: number; values?: Value[] }): TimeSeries {
    return new TimeSeries(
      changes.name ?? this.name,
      changes.start ?? this.start,
      changes.end ?? this.end,
      changes.step ?? this.step,
      changes.values ?? this.values,
      this.consolidationFunc,
      this.xFilesFactor,
    );
  }

  /**
   * The series as graphite-web's JSON renders it: values zipped with range(start, end + 1, step * valuesPerPoint),
   * the shorter deciding; NaN written as null (graphite-web replaces `NaN,` in its JSON text).
   */
  toRenderSeries(): RenderSeries {
    const values = this.read();
    const every = this.step * this.valuesPerPoint;
    const count = Math.min(values.length, every > 0 ? Math.max(0, Math.floor((this.end - this.start) / every) + 1) : 0);
    const datapoints: [number | null, number][] = new Array(count);
    for (let i = 0; i < count; i += 1) {
      const value = values[i]!;
      datapoints[i] = [value === null || Number.isNaN(value) ? null : value, this.start + i * every];
    }
    return { target: this.name, datapoints };
  }
}

function consolidate(func: ConsolidationFunc, usable: number[]): number {
  switch (func) {
    case 'sum':
      return usable.reduce((a, b) => a + b, 0);
    case 'average':
      return usable.reduce((a, b) => a + b, 0) / usable.length;
    case 'max':
      return usable.reduce((a, b) => (b > a ? b : a));
    case 'min':
      return usable.reduce((a, b) => (b < a ? b : a));
    case 'first':
      return usable[0]!;
    case 'last':
      return usable[usable.length - 1]!;
  }
}

/** Raised where graphite-web raises NormalizeEmptyResultError: the call answers no series. */
export class EmptyResult extends Error {}

/** Raised where graphite-web raises InputParameterError inside a function (it answers HTTP 400). */
export class InputParameterError extends Error {}

/**
 * Where graphite-web fails on a target and its data: HTTP 500 (a Python TypeError and the like) or 400 (an
 * InputParameterError inside a function). The caller treats it as the failed query graphite-web would answer.
 */
export class GraphiteWebError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 500 = 500,
  ) {
    super(`graphite-web fails on this (HTTP ${status}): ${message}`);
    this.name = 'GraphiteWebError';
  }
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** graphite-web's lcm of two steps. */
export function lcm(a: number, b: number): number {
  if (a === b) return a;
  const [big, small] = a < b ? [b, a] : [a, b];
  return Math.floor(big / gcd(big, small)) * small;
}

/**
 * graphite-web's normalize(): every series consolidated to the least common multiple of the steps, the earliest
 * start, the latest end cut to a whole number of steps from the start. Series of different steps and starts are
 * lined up by index from the earliest start, not by time (graphite-web does so; the answers then match it).
 */
export function normalize(seriesLists: readonly (readonly TimeSeries[])[]): { list: TimeSeries[]; start: number; end: number; step: number } {
  const list = seriesLists.flat();
  if (list.length === 0) throw new EmptyResult();
  const step = list.map((s) => s.step).reduce(lcm);
  for (const s of list) s.valuesPerPoint = Math.floor(step / s.step);
  // Loops, not Math.min(...): a wildcard may match more series than a call takes arguments.
  let start = Infinity;
  let end = -Infinity;
  for (const s of list) {
    if (s.start < start) start = s.start;
    if (s.end > end) end = s.end;
  }
  end -= pyMod(end - start, step);
  return { list, start, end, step };
}

/** Python's `%` on numbers: the result has the sign of the divisor. */
export function pyMod(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}

/** Python's izip_longest over the consolidated values: rows padded with null to the longest. */
export function zipLongest(series: readonly (readonly Value[])[]): Value[][] {
  let length = 0;
  for (const s of series) if (s.length > length) length = s.length;
  const rows: Value[][] = new Array(length);
  for (let i = 0; i < length; i += 1) rows[i] = series.map((s) => (i < s.length ? s[i]! : null));
  return rows;
}

/** graphite-web's formatPathExpressions: the distinct path expressions, in order, joined by commas. */
export function formatPathExpressions(list: readonly TimeSeries[]): string {
  return [...new Set(list.map((s) => s.pathExpression))].join(',');
}
