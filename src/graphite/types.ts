import type { RenderSeries } from '../evaluation/render-series.js';

// The series shape lives with the evaluator that judges it (evaluation/ imports nothing of this client).
export type { RenderSeries };

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
