import type { Expression } from '../model/expression.js';
import { evaluateExpression, parseExpression } from '../model/expression.js';
import type { AdditionalCriterion, AlertCriteria } from '../model/types.js';
import type { RenderSeries } from './render-series.js';
import { judgeSeriesIn, type SeriesVerdict } from './criteria.js';
import { bucketSeries, judgeMissingSeries } from './packed-points.js';
import { BUCKET_SECONDS } from './buckets.js';
import { judgedWindow } from './judged-window.js';

/** A metric that holds its criterion, with the latest breaching value (null for missing data). */
export interface TriggeredMetric {
  metric: string;
  value: number | null;
}

/** Tri-state truth: data says yes, data says no, or there is no data to say either. */
export type Truth = 'holds' | 'clear' | 'unknown';

/** One criterion (a letter) of an alert: its query and its rule. */
export interface Criterion {
  letter: string;
  metric: string;
  criteria: AlertCriteria;
}

/** What one criterion came to over all the series of its query. */
export interface CriterionOutcome extends Criterion {
  state: Truth;
  /** The series that hold, in the order Graphite returned them. */
  triggered: TriggeredMetric[];
  /**
   * The latest value Graphite returned for every series with judged data (used for recovery values). A Map: an object keyed by metric names
   * would give every alert's outcome a hidden class of its own.
   */
  latest: ReadonlyMap<string, number>;
}

/** The letters of an alert: `a` from metric + alert_criteria, then additional_criteria in letter order. */
export function listCriteria(alert: {
  metric: string;
  alert_criteria: AlertCriteria;
  additional_criteria?: Record<string, AdditionalCriterion> | null;
}): Criterion[] {
  return criteriaOf(alert.metric, alert.alert_criteria, alert.additional_criteria);
}

/** The same, from the fields themselves (the evaluator's camelCase record). */
export function criteriaOf(metric: string, alertCriteria: AlertCriteria, additionalCriteria?: Record<string, AdditionalCriterion> | null): Criterion[] {
  const list: Criterion[] = [{ letter: 'a', metric, criteria: alertCriteria }];
  // Most alerts have one letter: no entries to list and sort for them (this runs per alert per cycle).
  if (!hasKeys(additionalCriteria)) return list;
  for (const [letter, extra] of Object.entries(additionalCriteria ?? {}).sort(([x], [y]) => x.localeCompare(y))) {
    const { metric, ...criteria } = extra;
    list.push({ letter: letter.toLowerCase(), metric, criteria });
  }
  return list;
}

function hasKeys(record: object | null | undefined): boolean {
  for (const _ in record) return true;
  return false;
}

/**
 * Judges one criterion over the series its query returned at `now`. Each series is judged alone; the criterion
 * holds when any series holds, is clear when none holds and at least one is clear, and is unknown otherwise. For
 * `missing`, a query that matches no series with data anywhere (24 h and the window) counts as one missing
 * series named by the query.
 */
export function judgeCriterion(
  criterion: Criterion,
  series: readonly RenderSeries[],
  now: number,
  /** For `missing`: the series of its 24 h history query (see historyQueryRange). */
  history?: readonly RenderSeries[],
  /**
   * The settle delay (seconds): only buckets whose whole interval is older than `now - settleSeconds` are judged,
   * because points may still be arriving for the others; the window is the time_period ending with the last of them
   * (judged-window.ts). 0: the bucket holding `now` is judged as it is.
   */
  settleSeconds = 0,
): CriterionOutcome {
  const tally: Tally = { criterion, now, settleSeconds, triggered: [], latest: new Map(), anyClear: false, anyData: false };
  if (history) {
    const historyByName = new Map(history.map((one) => [one.target, one]));
    for (const one of series) judgeOne(tally, one.target, one, historyByName.get(one.target) ?? null);
    // A series that has history but no longer appears in the window query is judged on an empty window.
    const inWindow = new Set(series.map((one) => one.target));
    for (const [target, one] of historyByName) if (!inWindow.has(target)) judgeOne(tally, target, null, one);
  } else {
    for (const one of series) judgeOne(tally, one.target, one, undefined);
  }
  const { triggered, latest, anyClear, anyData } = tally;
  if (criterion.criteria.type === 'missing' && !anyData) {
    triggered.push({ metric: criterion.metric, value: null });
  }
  const state: Truth = triggered.length > 0 ? 'holds' : anyClear ? 'clear' : 'unknown';
  return { letter: criterion.letter, metric: criterion.metric, criteria: criterion.criteria, state, triggered, latest };
}

/** What judgeCriterion gathers over its series (an object rather than a closure made per criterion per cycle). */
interface Tally {
  criterion: Criterion;
  /** The cycle's time. */
  now: number;
  /** The settle delay (judgedWindow). */
  settleSeconds: number;
  triggered: TriggeredMetric[];
  latest: Map<string, number>;
  anyClear: boolean;
  anyData: boolean;
}

/** One series of a criterion. `one` null: a series only in the history query; `historySeries` null: one absent from it, undefined: no history query. */
function judgeOne(tally: Tally, target: string, one: RenderSeries | null, historySeries: RenderSeries | null | undefined): void {
  const { criteria } = tally.criterion;
  let verdict: SeriesVerdict;
  if (criteria.type === 'missing') {
    const judged = judgeMissingSeries(criteria, one, historySeries, tally.now, tally.settleSeconds);
    verdict = judged.verdict;
    if (judged.latest !== null) {
      tally.anyData = true;
      tally.latest.set(target, judged.latest);
    }
  } else {
    const points = one ? bucketSeries(one) : [];
    const window = judgedWindow(criteria, tally.now, tally.settleSeconds, points[0]?.step ?? BUCKET_SECONDS);
    // The latest judged point: the last one before the window's end (newer ones are not judged yet).
    let last = points.length - 1;
    while (last >= 0 && points[last]!.time >= window.end) last -= 1;
    if (last >= 0) {
      tally.anyData = true;
      tally.latest.set(target, points[last]!.last);
    }
    verdict = judgeSeriesIn(criteria, points, window);
  }
  if (verdict.state === 'holds') tally.triggered.push({ metric: target, value: verdict.value });
  else if (verdict.state === 'clear') tally.anyClear = true;
}

/** What a whole alert came to: its truth and the metrics that make it so. */
export interface AlertJudgement {
  state: Truth;
  /** Series of the letters that hold (de-duplicated by metric name), when the alert holds. */
  triggered: TriggeredMetric[];
  outcomes: CriterionOutcome[];
}

const parsedExpressions = new Map<string, Expression>();

function parseCached(source: string): Expression {
  let tree = parsedExpressions.get(source);
  if (!tree) {
    tree = parseExpression(source);
    if (parsedExpressions.size > 10_000) parsedExpressions.clear();
    parsedExpressions.set(source, tree);
  }
  return tree;
}

/**
 * Combines criterion outcomes through the expression with three-valued logic: the alert holds when the expression
 * is true counting unknown letters as false, is clear when it is false even counting them as true, and is unknown
 * in between (missing data then neither triggers nor resolves).
 */
export function judgeAlert(expression: string | null | undefined, outcomes: CriterionOutcome[]): AlertJudgement {
  const tree = parseCached(expression && expression.trim() !== '' ? expression : 'a');
  // One letter (most alerts): the expression's truth is that letter's, without the two truth tables.
  if (tree.kind === 'letter' && outcomes.length === 1 && outcomes[0]!.letter === tree.letter) {
    const state = outcomes[0]!.state;
    return { state, triggered: state === 'holds' ? triggeredOf(outcomes) : [], outcomes };
  }
  const pessimistic: Record<string, boolean> = {};
  const optimistic: Record<string, boolean> = {};
  for (const outcome of outcomes) {
    pessimistic[outcome.letter] = outcome.state === 'holds';
    optimistic[outcome.letter] = outcome.state !== 'clear';
  }
  if (evaluateExpression(tree, pessimistic)) return { state: 'holds', triggered: triggeredOf(outcomes), outcomes };
  return { state: evaluateExpression(tree, optimistic) ? 'unknown' : 'clear', triggered: [], outcomes };
}

/** The series of the letters that hold, de-duplicated by metric name, in order. */
function triggeredOf(outcomes: CriterionOutcome[]): TriggeredMetric[] {
  const seen = new Set<string>();
  const triggered: TriggeredMetric[] = [];
  for (const outcome of outcomes) {
    if (outcome.state !== 'holds') continue;
    for (const one of outcome.triggered) {
      if (!seen.has(one.metric)) {
        seen.add(one.metric);
        triggered.push(one);
      }
    }
  }
  return triggered;
}
