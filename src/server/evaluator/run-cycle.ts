import { notifiedAlert } from '../../notifications/notified-alert.js';
import type { Logger } from 'pino';
import type { GraphiteClient, RenderResult } from '../../graphite/index.js';
import { CycleQueries } from './cycle-queries.js';
import type { Notification } from '../../notifications/types.js';
import { historyQueryRange, queryRangeMinutes } from '../../evaluation/criteria.js';
import type { EvaluationAlert, EvaluationLease, EvaluationStore, EvaluationUpdate, NotificationRecord, SavedRound } from '../store/evaluation-store.js';
import { listRound, type ReplicaLeases } from './round-lease.js';
import { criteriaOf, judgeAlert, judgeCriterion, type Criterion, type CriterionOutcome } from '../../evaluation/judge-alert.js';
import type { Advance, CycleInput } from '../../evaluation/transitions.js';
import { advanceWithNoData, type NoDataPolicy } from '../../evaluation/no-data.js';
import { previousStateOf, unchangedText } from './state-text-cache.js';
import { serializeEvalState } from '../../evaluation/stored-state.js';
import type { WindowMute } from '../store/window-mutes.js';

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
}

/**
 * Alerts per page: a page's requests (about 24 full ones here) keep the client's 8 slots busy for a few round trips
 * while the next page is read, and a page is a small share of a large replica's listing.
 */
export const PAGE_SIZE = 2_000;

/** One alert of the cycle: its criteria, where their answers are in the cycle's results, and how many are still out. */
interface Plan {
  alert: EvaluationAlert;
  /** The alert's settle delay: its own, or the server's. */
  settleSeconds: number;
  criteria: Criterion[];
  slots: number[];
  historySlots: number[];
  pending: number;
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
  /** Judges one alert whose query results are all in. */
  const judge = ({ alert, settleSeconds, criteria, slots, historySlots }: Plan) => {
    if (criteria.length === 0) return;
    try {
      const input = buildInput(criteria, cycle.results, slots, historySlots, now, settleSeconds, alert.expression);
      // Parsed once per distinct stored text (state-text-cache.ts).
      const previous = previousStateOf(alert.evalState, alert.status, alert.currentlyTriggeredMetrics);
      const advance = advanceWithNoData(previous, input, {
        now,
        notificationType: alert.notificationType,
        muted: alert.muted,
        onQueryFailure: alert.onQueryFailure,
        acknowledged: alert.acknowledged,
        escalation: alert.escalation,
        channels: alert.notificationChannels,
        flapGuard: alert.flapGuard,
      }, alert.onNoData ?? deps.defaultOnNoData ?? 'ignore');
      const ackEnd = acknowledgementEnd(alert, previous.status, advance.state.status, now);
      if (advance.state.status !== previous.status) {
        transitions += 1;
        transitionsTo[advance.state.status] = (transitionsTo[advance.state.status] ?? 0) + 1;
        if (changed.length < MAX_NAMED_CHANGES) changed.push({ alert: alert.id, alertName: alert.name, from: previous.status, to: advance.state.status });
      }
      const outgoing: { notification: Notification; channels: readonly string[] }[] = [];
      for (const { event, triggered, channels, escalation, flapping } of advance.notifications) {
        // An escalation step (and the recovery it owes) goes to its own channels, not the alert's.
        outgoing.push({ channels: channels ?? alert.notificationChannels, notification: {
          event,
          alert: notifiedAlert(alert),
          triggered,
          conditions: input.kind === 'judged' ? describeConditions(input.judgement.outcomes) : [],
          // Filled in at send time (a signed link to the server's own PNG, with --public-url): Graphite's own
          // URL is internal and never reaches a receiver.
          graphUrl: null,
          time: now,
          // Names the episode in the acknowledgement link of alerting and reminder notifications (set at send time).
          ...(event === 'alerting' || event === 'reminder' || event === 'escalated' ? { episode: advance.state.alertingSince } : {}),
          // The episode's start for receivers that pair a recovery with its alert (webhook started_at).
          startedAt: event === 'recovered' ? previous.alertingSince : event === 'query_failed' ? now : advance.state.alertingSince,
          ...(input.kind === 'query_failed' ? { failure: input.failures.map((f) => `${f.metric}: ${f.message}`).join('; ') } : {}),
          ...(escalation ? { escalation } : {}),
          ...(flapping ? { flapping } : {}),
        } });
      }
      // An unchanged state (most alerts, most cycles) is told from the stored text without serializing it again.
      const stored = unchangedText(alert.evalState, previous, advance.state) ?? serializeEvalState(advance.state);
      // Notifications always come with a state change; the check on them is a guard, not a case.
      if (stored !== alert.evalState || outgoing.length > 0 || ackEnd) {
        // Retries and the maximum age run on the wall clock, whatever clock the evaluation itself was given.
        const createdAt = Date.now();
        const alertDeliveries = outgoing.flatMap(({ notification, channels }) =>
          channels.map((channelId) => ({ channelId, event: notification.event, payload: notification, createdAt })),
        );
        notifications += outgoing.length;
        deliveries += alertDeliveries.length;
        if (alertDeliveries.length > 0) notifyingNames.set(alert.id, alert.name);
        updates.push({
          alertId: alert.id,
          status: advance.state.status,
          currentlyTriggeredMetrics: advance.state.triggered.map((one) => one.metric),
          evalState: stored,
          history: [...advance.history, ...notificationHistory(advance, alert.notificationChannels, now), ...(ackEnd ? [ackEnd.entry] : [])],
          deliveries: alertDeliveries,
          ...(ackEnd?.expiredAt !== undefined ? { endAcknowledgementAt: ackEnd.expiredAt } : {}),
        });
      }
    } catch (error) {
      deps.logger?.error({ alert: alert.id, alertName: alert.name, error: (error as Error).message }, 'alert evaluation failed');
    }
  };

  /** Judges a plan whose answers are all in, then releases its answers (dropped once no alert needs them). */
  const settle = (planIndex: number) => {
    const plan = plans[planIndex]!;
    plans[planIndex] = undefined;
    judge(plan);
    for (const used of plan.slots) cycle.release(used);
    for (const used of plan.historySlots) if (used !== -1) cycle.release(used);
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
  /** A page of alerts: plans them, judges those whose answers are all in already, and asks what is new. */
  const onPage = (alerts: EvaluationAlert[]) => {
    for (const alert of alerts) {
      if (alert.mutedByWindow) windowMutes.push({ ...alert.mutedByWindow, alertId: alert.id, time: now });
      const planIndex = plans.length;
      const criteria = safeListCriteria(alert, deps.logger);
      const settleSeconds = alert.settleSeconds ?? deps.settleSeconds ?? 0;
      // The window ends settleSeconds ago: fetch that much more (whole minutes, as ranges are asked).
      const settleMinutes = Math.ceil(settleSeconds / 60);
      const slots: number[] = new Array(criteria.length);
      /** The history query of each criterion (missing data), -1 for none. */
      const historySlots: number[] = new Array(criteria.length);
      let pending = 0;
      for (let i = 0; i < criteria.length; i += 1) {
        const { metric, criteria: rule } = criteria[i]!;
        const slot = (slots[i] = cycle.use(metric, queryRangeMinutes(rule) + settleMinutes, undefined, planIndex));
        if (!cycle.answered(slot)) pending += 1;
        const range = historyQueryRange(rule);
        historySlots[i] = range ? cycle.use(metric, range.fromMinutes + settleMinutes, range.maxDataPoints, planIndex) : -1;
        if (range && !cycle.answered(historySlots[i]!)) pending += 1;
      }
      plans.push({ alert, settleSeconds, criteria, slots, historySlots, pending });
      if (pending === 0) settle(planIndex);
    }
    ask(false);
  };

  let lease: EvaluationLease | undefined;
  try {
    ({ lease } = await listRound(deps.store, nowMs, deps.leases, { size: deps.pageSize ?? PAGE_SIZE, onPage }));
    cycle.endListing();
    ask(true);
  } finally {
    // Even a cycle whose listing failed (its lease lost) waits for the requests it made: cycles never overlap.
    await Promise.allSettled(renders);
  }
  await Promise.all(renders);

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
    changed,
  };
  deps.logger?.debug(report, 'evaluation cycle');
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

/** Turns the query results of an alert's criteria into the cycle input: judged, or failed queries. */
function buildInput(
  criteria: Criterion[],
  results: readonly (RenderResult | undefined)[],
  /** Each criterion's query in `results`, and its history query (-1: none). */
  slots: readonly number[],
  historySlots: readonly number[],
  now: number,
  settleSeconds: number,
  expression: string,
): CycleInput {
  let failures: { metric: string; message: string }[] | undefined;
  for (let i = 0; i < criteria.length; i += 1) {
    const result = results[slots[i]!]!;
    const history = historySlots[i] === -1 ? null : results[historySlots[i]!]!;
    const failed = !result.ok ? result : history && !history.ok ? history : null;
    if (failed && !failed.ok) (failures ??= []).push({ metric: criteria[i]!.metric, message: failed.failure.message });
  }
  if (failures) return { kind: 'query_failed', failures };
  const outcomes: CriterionOutcome[] = new Array(criteria.length);
  for (let i = 0; i < criteria.length; i += 1) {
    const result = results[slots[i]!]!;
    const history = historySlots[i] === -1 ? undefined : results[historySlots[i]!]!;
    outcomes[i] = judgeCriterion(criteria[i]!, result.ok ? result.series : [], now, history?.ok ? history.series : undefined, settleSeconds);
  }
  return { kind: 'judged', judgement: judgeAlert(expression, outcomes) };
}

/** The timeline entries of what a transition sent (one per channel) and held back (with why). */
function notificationHistory(advance: Advance, alertChannels: readonly string[], now: number): NotificationRecord[] {
  const entries: NotificationRecord[] = [];
  for (const { event, triggered, channels, escalation } of advance.notifications) {
    const metric = triggered[0]?.metric ?? '';
    const value = triggered[0]?.value ?? null;
    const reason = escalation ? `${event}: step ${escalation.step} of ${escalation.of}, after ${escalation.after_minutes} minutes` : event;
    for (const channelId of channels ?? alertChannels) entries.push({ status: 'notification_sent', value, metric, time: now, channelId, reason });
  }
  for (const { event, triggered, reason } of advance.suppressed) {
    entries.push({ status: 'notification_suppressed', value: triggered[0]?.value ?? null, metric: triggered[0]?.metric ?? '', time: now, channelId: null, reason: `${event}: ${reason}` });
  }
  return entries;
}

/**
 * How a stored acknowledgement ends this cycle, if it does: the alert recovered (the store clears it with the
 * status), or its `until` passed (the update names the one to remove). Either way the timeline says so.
 */
function acknowledgementEnd(
  alert: EvaluationAlert,
  before: string,
  after: string,
  now: number,
): { entry: NotificationRecord; expiredAt?: number } | null {
  const at = alert.acknowledgedAt;
  if (at === null) return null;
  const entry = (reason: string): NotificationRecord => ({ status: 'unacknowledged', value: null, metric: '', time: now, channelId: null, reason });
  if (before === 'alerting' && after === 'healthy') return { entry: entry('recovered') };
  if (!alert.acknowledged) return { entry: entry('expired'), expiredAt: at };
  return null;
}

function describeConditions(outcomes: CriterionOutcome[]): Notification['conditions'] {
  return outcomes.map((o) => ({ letter: o.letter, metric: o.metric, criteria: o.criteria, state: o.state, triggered: o.triggered }));
}
