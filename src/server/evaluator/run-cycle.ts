import type { Logger } from 'pino';
import type { GraphiteClient, RenderResult } from '../../graphite/index.js';
import { CycleQueries } from './cycle-queries.js';
import { historyQueryRange, queryRangeMinutes } from '../../evaluation/criteria.js';
import type { EvaluationAlert, EvaluationLease, EvaluationStore, EvaluationUpdate, SavedRound } from '../store/evaluation-store.js';
import { listRound, type ReplicaLeases } from './round-lease.js';
import { criteriaOf, type Criterion } from '../../evaluation/judge-alert.js';
import type { NoDataPolicy } from '../../evaluation/no-data.js';
import type { WindowMute } from '../store/window-mutes.js';
import { judgeOneAlert, type CriterionInput } from './judge-one-alert.js';

/**
 * Where an alert's data comes from this cycle: Graphite's render (the default), the metric stream (inputs built
 * from its series rings, no request), or render first to warm the stream's rings (`queries`: the raw path
 * expressions), then the stream.
 */
export type FeedRoute =
  | { mode: 'render' }
  | { mode: 'stream'; inputs(): CriterionInput[] }
  | { mode: 'warm'; queries: { target: string; fromMinutes: number }[]; inputs(answers: RenderResult[]): CriterionInput[] };

/** The metric stream's side of a cycle (server/stream/stream-evaluator.ts). */
export interface CycleFeed {
  /** How one alert is fed this cycle; `settleSeconds` is its settle delay (its own, or the server's). */
  route(alert: EvaluationAlert, criteria: readonly Criterion[], settleSeconds: number, nowMs: number): FeedRoute;
  /** A full cycle listed these alerts (this replica's partitions): the stream lets go of any other. */
  listed?(alertIds: ReadonlySet<string>): void;
}

const RENDER: FeedRoute = { mode: 'render' };

/** What a cycle needs. `now` is the clock (ms), injectable for tests. */
export interface CycleDependencies {
  store: EvaluationStore;
  /** This replica's leases: the cycle lists and saves only the alerts of the partitions it holds. Absent: all. */
  leases?: ReplicaLeases;
  graphite: GraphiteClient;
  /** Told after a cycle wrote deliveries to the outbox (wakes the delivery worker). */
  onDeliveriesWritten?: () => void;
  now?: () => number;
  logger?: Logger;
  /** Alerts per page of the listing (default PAGE_SIZE); tests use small pages. */
  pageSize?: number;
  /** The server's settle delay in seconds (`--settle-delay`), for alerts whose settle_seconds is null; default 0. */
  settleSeconds?: number;
  /** What no data does for an alert whose on_no_data is null (serve --on-no-data); default ignore. */
  defaultOnNoData?: NoDataPolicy;
  /** The metric stream, when the server receives one: alerts it can judge are fed from it instead of render. */
  feed?: CycleFeed;
  /** Judge only these alerts (a cycle the stream started because their buckets completed); absent: every alert. */
  only?: ReadonlySet<string>;
}

/**
 * Alerts per page: a page's requests (about 24 full ones here) keep the client's 8 slots busy for a few round trips
 * while the next page is read, and a page is a small share of a large replica's listing.
 */
export const PAGE_SIZE = 2_000;

/** The longest a cycle judges without giving the event loop back, ms. */
const SLICE_MS = 10;

/** One alert of the cycle: its criteria, the query answers it waits for, and how its judging inputs are made. */
interface Plan {
  alert: EvaluationAlert;
  criteria: Criterion[];
  /** The slots of the cycle's queries it uses (released once it is judged). */
  slots: number[];
  pending: number;
  /** Its criteria's inputs, once every answer is in. */
  inputs: () => CriterionInput[];
}

/** Figures of one cycle. */
export interface CycleReport {
  alerts: number;
  queries: number;
  failedQueries: number;
  transitions: number;
  /** The transitions by the status entered (`/metrics`' alertform_transitions_total). */
  transitionsTo: Record<string, number>;
  notifications: number;
  saved: number;
  durationMs: number;
  /**
   * Alerts left out of this cycle while their account's maintenance windows are matched against them for the first
   * time (after a start; store/window-warmup.ts): judged at a later cycle.
   */
  deferred: number;
  /** The first MAX_NAMED_CHANGES alerts whose state changed, by id and name, for the cycle's log line. */
  changed: { alert: string; alertName: string; from: string; to: string }[];
}

/** A cycle's log line names at most this many changed alerts (an outage can change thousands; the count says all). */
const MAX_NAMED_CHANGES = 20;

/**
 * One evaluation cycle: read the alerts a page at a time, fetch each distinct query once (batched by the Graphite
 * client; a page's requests leave while the next page is read), judge each alert as soon as its answers are in,
 * then write the new states, history and notifications (one outbox row per channel) in one transaction, fenced by
 * the lease the pages were read under. A failure of one alert (even an unexpected one) is logged and leaves the
 * others alone. A crash before the commit loses the whole cycle (the next one judges again); after it, the outbox
 * holds every notification until a delivery worker has sent it.
 */
export async function runEvaluationCycle(deps: CycleDependencies): Promise<CycleReport> {
  const started = Date.now();
  const nowMs = (deps.now ?? Date.now)();
  const now = Math.floor(nowMs / 1000);
  const cycle = new CycleQueries();
  /** Each alert's plan by its index in the cycle, until it is judged. */
  const plans: (Plan | undefined)[] = [];

  const updates: EvaluationUpdate[] = [];
  /** Alerts a maintenance window mutes now: the store records each window episode's mute once. */
  const windowMutes: WindowMute[] = [];
  let notifications = 0;
  let deliveries = 0;
  let transitions = 0;
  const transitionsTo: Record<string, number> = {};
  const changed: CycleReport['changed'] = [];
  /** The names of the alerts that notify this cycle: a dependency may hold their pages, and the log names them. */
  const notifyingNames = new Map<string, string>();
  let failedQueries = 0;
  /** The alerts a full cycle listed, for the stream to let go of the others (partitions lost, alerts deleted). */
  const listed = deps.feed?.listed && !deps.only ? new Set<string>() : undefined;
  const judgeOptions = { now, ...(deps.defaultOnNoData ? { defaultOnNoData: deps.defaultOnNoData } : {}), ...(deps.logger ? { logger: deps.logger } : {}) };
  /** Judges one alert whose query results are all in (judge-one-alert.ts: the path polling and the stream share). */
  const judge = ({ alert, criteria, inputs }: Plan) => {
    if (criteria.length === 0) return;
    let verdict;
    try {
      verdict = judgeOneAlert(alert, criteria, inputs(), judgeOptions);
    } catch (error) {
      deps.logger?.error({ alert: alert.id, alertName: alert.name, error: (error as Error).message }, 'alert evaluation failed');
      return;
    }
    if (verdict.transitionTo !== null) {
      transitions += 1;
      transitionsTo[verdict.transitionTo] = (transitionsTo[verdict.transitionTo] ?? 0) + 1;
      if (changed.length < MAX_NAMED_CHANGES) changed.push({ alert: alert.id, alertName: alert.name, from: verdict.transitionFrom, to: verdict.transitionTo });
    }
    notifications += verdict.notifications;
    deliveries += verdict.deliveries;
    if (verdict.deliveries > 0) notifyingNames.set(alert.id, alert.name);
    if (verdict.update) updates.push(verdict.update);
  };

  /** Judges a plan whose answers are all in, then releases its answers (dropped once no alert needs them). */
  const settle = (planIndex: number) => {
    const plan = plans[planIndex]!;
    plans[planIndex] = undefined;
    judge(plan);
    for (const used of plan.slots) cycle.release(used);
  };
  const onAnswer = (slot: number, result: RenderResult) => {
    if (!result.ok) failedQueries += 1;
    for (const planIndex of cycle.answer(slot, result)) {
      const plan = plans[planIndex]!;
      if ((plan.pending -= 1) === 0) settle(planIndex);
    }
  };
  // Every request of the cycle shares its client budgets (timeout splits, matching time), whatever the pages.
  const renderCycle = {};
  const renders: Promise<void>[] = [];
  const ask = (all: boolean) => {
    const slots = cycle.take(all);
    if (slots.length === 0) return;
    const queries = slots.map((slot) => cycle.queries[slot]!);
    renders.push(deps.graphite.renderEach(queries, (index, result) => onAnswer(slots[index]!, result), renderCycle));
  };
  /** An alert judged on Graphite's render answers: each criterion's query, and its history query (missing data). */
  const renderPlan = (alert: EvaluationAlert, criteria: Criterion[], settleSeconds: number, planIndex: number): Plan => {
    // The window ends settleSeconds ago: fetch that much more (whole minutes, as ranges are asked).
    const settleMinutes = Math.ceil(settleSeconds / 60);
    const windowSlots: number[] = new Array(criteria.length);
    /** The history query of each criterion (missing data), -1 for none. */
    const historySlots: number[] = new Array(criteria.length);
    let pending = 0;
    for (let i = 0; i < criteria.length; i += 1) {
      const { metric, criteria: rule } = criteria[i]!;
      const slot = (windowSlots[i] = cycle.use(metric, queryRangeMinutes(rule) + settleMinutes, undefined, planIndex));
      if (!cycle.answered(slot)) pending += 1;
      const range = historyQueryRange(rule);
      historySlots[i] = range ? cycle.use(metric, range.fromMinutes + settleMinutes, range.maxDataPoints, planIndex) : -1;
      if (range && !cycle.answered(historySlots[i]!)) pending += 1;
    }
    const inputs = () =>
      criteria.map((_, i): CriterionInput => {
        const result = cycle.results[windowSlots[i]!]!;
        return historySlots[i] === -1 ? { result, settleSeconds } : { result, history: cycle.results[historySlots[i]!]!, settleSeconds };
      });
    return { alert, criteria, slots: [...windowSlots, ...historySlots.filter((slot) => slot !== -1)], pending, inputs };
  };
  /**
   * A page of alerts: plans them, judges those whose answers are all in already (every stream alert), and asks what
   * is new. Judging is CPU (a page of stream alerts is thousands of judgements): past SLICE_MS it gives the event
   * loop back, so that the HTTP answers and the carbon port wait at most a slice, whatever the page size.
   */
  const onPage = async (alerts: EvaluationAlert[]) => {
    let sliceStart = performance.now();
    for (const alert of alerts) {
      if (performance.now() - sliceStart > SLICE_MS) {
        // What this page planned so far leaves now; the rest of it after the loop's turn.
        ask(false);
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
      if (deps.only && !deps.only.has(alert.id)) continue;
      if (alert.mutedByWindow) windowMutes.push({ ...alert.mutedByWindow, alertId: alert.id, time: now });
      listed?.add(alert.id);
      const planIndex = plans.length;
      const criteria = safeListCriteria(alert, deps.logger);
      const settleSeconds = alert.settleSeconds ?? deps.settleSeconds ?? 0;
      const route: FeedRoute = criteria.length > 0 && deps.feed ? deps.feed.route(alert, criteria, settleSeconds, nowMs) : RENDER;
      let plan: Plan;
      if (route.mode === 'stream') {
        plan = { alert, criteria, slots: [], pending: 0, inputs: route.inputs };
      } else if (route.mode === 'warm') {
        const slots = route.queries.map(({ target, fromMinutes }) => cycle.use(target, fromMinutes, undefined, planIndex));
        const answers = () => slots.map((slot) => cycle.results[slot]!);
        plan = { alert, criteria, slots, pending: slots.filter((slot) => !cycle.answered(slot)).length, inputs: () => route.inputs(answers()) };
      } else {
        plan = renderPlan(alert, criteria, settleSeconds, planIndex);
      }
      plans.push(plan);
      if (plan.pending === 0) settle(planIndex);
    }
    ask(false);
  };

  let deferred = 0;
  const onDeferred = (alertIds: readonly string[]) => {
    deferred += alertIds.length;
    // Still this replica's alerts: the stream keeps them.
    if (listed) for (const id of alertIds) listed.add(id);
  };

  let lease: EvaluationLease | undefined;
  try {
    ({ lease } = await listRound(deps.store, nowMs, deps.leases, { size: deps.pageSize ?? PAGE_SIZE, onPage, onDeferred }));
    cycle.endListing();
    ask(true);
  } finally {
    // Even a cycle whose listing failed (its lease lost) waits for the requests it made: cycles never overlap.
    await Promise.allSettled(renders);
  }
  await Promise.all(renders);
  if (listed) deps.feed!.listed!(listed);

  if (updates.length > 0) logHeld(await deps.store.saveEvaluations(updates, lease), notifyingNames, deps.logger);
  if (deliveries > 0) deps.onDeliveriesWritten?.();
  // The mutes' history is an audit, not the mute itself (the round is saved): a failure here is logged, not the cycle's.
  if (windowMutes.length > 0) {
    await deps.store.recordWindowMutes?.(windowMutes).catch((error: unknown) => {
      deps.logger?.error({ error: (error as Error).message }, 'recording maintenance window mutes failed');
    });
  }

  const report: CycleReport = {
    alerts: plans.length,
    queries: cycle.queries.length,
    failedQueries,
    transitions,
    transitionsTo,
    notifications,
    saved: updates.length,
    durationMs: Date.now() - started,
    deferred,
    changed,
  };
  deps.logger?.debug(report, 'evaluation cycle');
  if (deferred > 0) deps.logger?.info({ deferred }, 'alerts wait for their maintenance windows to be matched for the first time; a later cycle judges them');
  return report;
}

/**
 * A line per notification a dependency held back (an operator reading the log learns why a page did not go out),
 * the first MAX_NAMED_CHANGES of a cycle; one line counts the rest (a parent's outage can hold thousands).
 */
function logHeld(saved: SavedRound | void, names: ReadonlyMap<string, string>, logger?: Logger): void {
  if (!saved || saved.held.length === 0 || !logger) return;
  for (const held of saved.held.slice(0, MAX_NAMED_CHANGES)) {
    logger.info({ alert: held.alertId, alertName: names.get(held.alertId), metric: held.metric, reason: held.reason }, 'notification held by a dependency');
  }
  if (saved.held.length > MAX_NAMED_CHANGES) logger.info({ more: saved.held.length - MAX_NAMED_CHANGES }, 'more notifications held by dependencies');
}

function safeListCriteria(alert: EvaluationAlert, logger?: Logger): Criterion[] {
  try {
    return criteriaOf(alert.metric, alert.alertCriteria, alert.additionalCriteria);
  } catch (error) {
    logger?.error({ alert: alert.id, alertName: alert.name, error: (error as Error).message }, 'alert has unreadable criteria');
    return [];
  }
}
