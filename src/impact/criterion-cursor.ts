import type { RenderSeries } from '../graphite/types.js';
import { BUCKET_SECONDS, bucketDatapoints, isValue } from '../evaluation/buckets.js';
import { breaches } from '../evaluation/criteria.js';
import { judgedWindow } from '../evaluation/judged-window.js';
import type { Criterion, CriterionOutcome, TriggeredMetric, Truth } from '../evaluation/judge-alert.js';

/** Seconds the `missing` history query reaches back before its window (the server's 24 h query). */
const MISSING_HISTORY_SECONDS = 24 * 3600;

/**
 * Judges one criterion at increasing instants over series fetched once for a whole backtest window. Each series
 * keeps two or three cursors into its points and prefix counts of the points that do not breach, so one step costs
 * O(series) whatever the time_period: the window slides, it is never rebuilt. The rules are the server's
 * (src/evaluation/criteria.ts: judgeSeries, judgeMissing; judge-alert.ts: judgeCriterion), over the very window
 * those judge (judgedWindow, src/evaluation/judged-window.ts), applied to the points a render at `at` would have
 * returned; test/unit/impact/criterion-cursor.test.ts and server-backtest-agree.test.ts check they agree.
 */
export interface CriterionCursor {
  /**
   * The outcome at `at` (unix seconds), judged as a cycle at `at` without a settle delay on complete data: the
   * window ends with the bucket holding `at` (at the last second of a step, the step's own bucket), which is exactly
   * the window a cycle with a settle delay judges once that bucket is settled. Calls must come with non-decreasing `at`.
   */
  judgeAt(at: number): CriterionOutcome;
}

interface ThresholdTrack {
  name: string;
  /** The series' resolution (30 s buckets, or its own coarser step). */
  step: number;
  times: ArrayLike<number>;
  values: ArrayLike<number>;
  /** clear[i] = how many of the first i points do not breach. */
  clear: Int32Array;
  lo: number;
  hi: number;
}

interface MissingTrack {
  name: string;
  step: number;
  times: number[];
  values: number[];
  /** First point in the history range, first in the window, first after `at`. */
  old: number;
  lo: number;
  hi: number;
}

/** A cursor over the series a criterion's query returned for the whole window (plus its look-back). */
export function createCriterionCursor(criterion: Criterion, series: readonly RenderSeries[]): CriterionCursor {
  if (criterion.criteria.type === 'missing') return createMissingCursor(criterion, series);
  return createThresholdCursor(criterion, series);
}

function createThresholdCursor(criterion: Criterion, series: readonly RenderSeries[]): CriterionCursor {
  const { criteria } = criterion;
  const tracks: ThresholdTrack[] = series.map((one) => {
    const { times, values } = bucketedOf(one);
    const clear = new Int32Array(values.length + 1);
    for (let i = 0; i < values.length; i += 1) clear[i + 1] = clear[i]! + (breaches(criteria, values[i]!) ? 0 : 1);
    return { name: one.target, step: Math.max(BUCKET_SECONDS, seriesStep(one) ?? BUCKET_SECONDS), times, values, clear, lo: 0, hi: 0 };
  });
  // Instantaneous criteria read the latest point of their look-back.
  const instant = !(typeof criteria.time_period === 'number' && criteria.time_period > 0);
  return {
    judgeAt(at) {
      let triggered: TriggeredMetric[] | null = null;
      let anyClear = false;
      for (const track of tracks) {
        const window = judgedWindow(criteria, at, 0, track.step);
        while (track.hi < track.times.length && track.times[track.hi]! < window.end) track.hi += 1;
        while (track.lo < track.hi && track.times[track.lo]! < window.start) track.lo += 1;
        const { lo, hi } = track;
        if (hi === lo) continue;
        const holds = instant ? track.clear[hi]! - track.clear[hi - 1]! === 0 : track.clear[hi]! - track.clear[lo]! === 0;
        if (holds) (triggered ??= []).push({ metric: track.name, value: track.values[hi - 1]! });
        else anyClear = true;
      }
      return outcomeOf(criterion, triggered, anyClear);
    },
  };
}

function createMissingCursor(criterion: Criterion, series: readonly RenderSeries[]): CriterionCursor {
  const tracks: MissingTrack[] = series.map((one) => {
    const times: number[] = [];
    const values: number[] = [];
    for (const point of one.datapoints) {
      if (isValue(point?.[0]) && typeof point[1] === 'number') {
        times.push(point[1]);
        values.push(point[0]);
      }
    }
    return { name: one.target, step: seriesStep(one) ?? BUCKET_SECONDS, times, values, old: 0, lo: 0, hi: 0 };
  });
  return {
    judgeAt(at) {
      let triggered: TriggeredMetric[] | null = null;
      let anyClear = false;
      let anyData = false;
      for (const track of tracks) {
        const window = judgedWindow(criterion.criteria, at, 0, track.step);
        while (track.hi < track.times.length && track.times[track.hi]! < window.end) track.hi += 1;
        while (track.lo < track.hi && track.times[track.lo]! < window.start) track.lo += 1;
        while (track.old < track.hi && track.times[track.old]! < window.start - MISSING_HISTORY_SECONDS) track.old += 1;
        if (track.hi === track.old) continue;
        anyData = true;
        if (track.hi > track.lo) anyClear = true;
        else (triggered ??= []).push({ metric: track.name, value: null });
      }
      if (!anyData) (triggered ??= []).push({ metric: criterion.metric, value: null });
      return outcomeOf(criterion, triggered, anyClear);
    },
  };
}

interface BucketedColumns {
  times: Float64Array;
  values: Float64Array;
}

/** Bucketed points per fetched series: the current and new versions of an updated alert read the same series. */
const bucketed = new WeakMap<RenderSeries, BucketedColumns>();

/**
 * Indexes a series for the cursors ahead of time (a server's replay does it one series at a time, between turns of
 * the event loop): createCriterionCursor then finds it done.
 */
export function prepareSeries(series: RenderSeries): void {
  bucketedOf(series);
}

/**
 * A series at the evaluation resolution, as two columns. Data of 30 s or coarser is what bucketDatapoints keeps
 * as it is (its non-null points), so it is copied straight into typed arrays: a week of points makes no objects.
 */
function bucketedOf(series: RenderSeries): BucketedColumns {
  let columns = bucketed.get(series);
  if (columns) return columns;
  if ((seriesStep(series) ?? BUCKET_SECONDS) >= BUCKET_SECONDS) {
    const times = new Float64Array(series.datapoints.length);
    const values = new Float64Array(series.datapoints.length);
    let n = 0;
    for (const point of series.datapoints) {
      if (isValue(point?.[0]) && typeof point[1] === 'number') {
        times[n] = point[1];
        values[n] = point[0];
        n += 1;
      }
    }
    columns = { times: times.subarray(0, n), values: values.subarray(0, n) };
  } else {
    const points = bucketDatapoints(series.datapoints);
    columns = { times: Float64Array.from(points, (p) => p.time), values: Float64Array.from(points, (p) => p.value) };
  }
  bucketed.set(series, columns);
  return columns;
}

/** Shared by every step where nothing holds: judgeAlert and advanceAlert only read these. */
const NOTHING: TriggeredMetric[] = [];
const NO_LATEST: ReadonlyMap<string, number> = new Map();

/**
 * One criterion's outcome, allocated plainly: a backtest makes millions. `latest` (the values recoveries record in
 * history) is left empty: a backtest counts transitions and notifications, it writes no history.
 */
function outcomeOf(criterion: Criterion, triggered: TriggeredMetric[] | null, anyClear: boolean): CriterionOutcome {
  const state: Truth = triggered ? 'holds' : anyClear ? 'clear' : 'unknown';
  if (!triggered) {
    // The outcomes without a triggered series are the same every time: one shared (read-only) object each.
    let shared = quietOutcomes.get(criterion);
    if (!shared) quietOutcomes.set(criterion, (shared = { clear: makeOutcome(criterion, 'clear', NOTHING), unknown: makeOutcome(criterion, 'unknown', NOTHING) }));
    return state === 'clear' ? shared.clear : shared.unknown;
  }
  return makeOutcome(criterion, state, triggered);
}

const quietOutcomes = new WeakMap<Criterion, { clear: CriterionOutcome; unknown: CriterionOutcome }>();

function makeOutcome(criterion: Criterion, state: Truth, triggered: TriggeredMetric[]): CriterionOutcome {
  return { letter: criterion.letter, metric: criterion.metric, criteria: criterion.criteria, state, triggered, latest: NO_LATEST };
}

/** The step of a series: the smallest gap between consecutive timestamps (Graphite sends a regular grid). */
export function seriesStep(series: RenderSeries): number | null {
  let step = Infinity;
  const points = series.datapoints;
  for (let i = 1; i < points.length; i += 1) {
    const gap = (points[i]?.[1] as number) - (points[i - 1]?.[1] as number);
    if (gap > 0 && gap < step) step = gap;
  }
  return Number.isFinite(step) ? step : null;
}
