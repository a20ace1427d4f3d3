/** One series of a Graphite render answer (`format=json`). */
export interface RenderSeries {
  /** The series name Graphite reports: the expanded path for plain and wildcard targets, or the function text. */
  target: string;
  /**
   * `[value, unix seconds]` pairs, oldest first; a value is null where the series has no data. Kept as Graphite
   * sent them: readers treat a value that is not a finite number as null.
   */
  datapoints: [number | null, number][];
  /**
   * The same points packed as value, time, value, time, ... (NaN where the value is null), when the render client's
   * reader made them (render-json.ts): the evaluator reads these, and `datapoints` is then built only when asked.
   */
  readonly packed?: Float64Array;
}

/** Why a query failed: the three causes the evaluator tells apart, plus an unreachable backend. */
export type GraphiteFailureKind = 'http' | 'invalid_target' | 'timeout' | 'unreachable';

/** A failed query. `message` never carries the backend URL (it may hold credentials). */
export interface GraphiteFailure {
  kind: GraphiteFailureKind;
  message: string;
  /** The HTTP status, for `http` and `invalid_target`. */
  status?: number;
}

/** One target to read, over the last `fromMinutes` minutes up to now. */
export interface RenderQuery {
  target: string;
  fromMinutes: number;
  /**
   * Asks Graphite to consolidate each series to at most this many points (render's `maxDataPoints`), for long
   * ranges where only coarse presence matters. A backend that ignores it still answers correctly, only bigger.
   */
  maxDataPoints?: number;
}

/** The outcome of one RenderQuery: its series, or why it failed. */
export type RenderResult = { ok: true; series: RenderSeries[] } | { ok: false; failure: GraphiteFailure };
