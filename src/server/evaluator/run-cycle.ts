import { notifiedAlert } from '../notifiers/notified-alert.js';
import type { Logger } from 'pino';
import type { GraphiteClient, RenderQuery, RenderResult } from '../../graphite/index.js';
import type { Notification } from '../notifiers/types.js';
import { historyQueryRange, queryRangeMinutes } from '../../evaluation/criteria.js';
import type { EvaluationAlert, EvaluationStore, EvaluationUpdate, NotificationRecord } from './evaluation-store.js';
import { listRound, type ReplicaLeases } from './round-lease.js';
import { criteriaOf, judgeAlert, judgeCriterion, type Criterion, type CriterionOutcome } from '../../evaluation/judge-alert.js';
import { advanceAlert, type Advance, type CycleInput } from '../../evaluation/transitions.js';
import { previousStateOf, unchangedText } from './state-text-cache.js';

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
}

/**
 * One evaluation cycle: read every alert, fetch each distinct query once (batched by the Graphite client), judge
 * each alert as soon as its answers are in, then write the new states, history and notifications (one outbox row
 * per channel) in one transaction. A failure of one alert (even an unexpected one) is logged and leaves the others alone. A crash
 * before the commit loses the whole cycle (the next one judges again); after it, the outbox holds every
 * notification until a delivery worker has sent it.
 */
export async function runEvaluationCycle(deps: CycleDependencies): Promise<CycleReport> {
  const started = Date.now();
  const nowMs = (deps.now ?? Date.now)();
  const now = Math.floor(nowMs / 1000);
  const { alerts, lease } = await listRound(deps.store, nowMs, deps.leases);

  const queryIndex = new Map<string, number>();
  const queries: RenderQuery[] = [];
  /** For each query: the plans (alerts) that wait for it. */
  const waiting: number[][] = [];
  const slotOf = (query: RenderQuery, planIndex: number): number => {
    const key = `${query.fromMinutes}/${query.maxDataPoints ?? ''}\n${query.target}`;
    let slot = queryIndex.get(key);
    if (slot === undefined) {
      slot = queries.push(query) - 1;
      queryIndex.set(key, slot);
      waiting.push([]);
    }
    waiting[slot]!.push(planIndex);
    return slot;
  };
  const plans = alerts.map((alert, planIndex) => {
    const criteria = safeListCriteria(alert, deps.logger);
    const slots: number[] = [];
    const historySlots: (number | null)[] = [];
    for (const criterion of criteria) {
      slots.push(slotOf({ target: criterion.metric, fromMinutes: queryRangeMinutes(criterion.criteria) }, planIndex));
      const range = historyQueryRange(criterion.criteria);
      historySlots.push(range ? slotOf({ target: criterion.metric, ...range }, planIndex) : null);
    }
    return { alert, criteria, slots, historySlots, pending: slots.length + historySlots.filter((slot) => slot !== null).length };
  });
  queryIndex.clear();

  const updates: EvaluationUpdate[] = [];
  let notifications = 0;
  let deliveries = 0;
  let transitions = 0;
  const transitionsTo: Record<string, number> = {};
  let failedQueries = 0;
  /** Judges one alert whose query results are all in. */
  const judge = ({ alert, criteria, slots, historySlots }: (typeof plans)[number]) => {
    if (criteria.length === 0) return;
    try {
      const input = buildInput(
        criteria,
        slots.map((slot) => results[slot]!),
        historySlots.map((slot) => (slot === null ? null : results[slot]!)),
        now,
        alert.expression,
      );
      // Parsed once per distinct stored text (state-text-cache.ts).
      const previous = previousStateOf(alert.evalState, alert.status, alert.currentlyTriggeredMetrics);
      const advance = advanceAlert(previous, input, {
        now,
        notificationType: alert.notificationType,
        muted: alert.muted,
        onQueryFailure: alert.onQueryFailure,
        acknowledged: alert.acknowledged,
        escalation: alert.escalation,
        channels: alert.notificationChannels,
        flapGuard: alert.flapGuard,
      });
      const ackEnd = acknowledgementEnd(alert, previous.status, advance.state.status, now);
      if (advance.state.status !== previous.status) {
        transitions += 1;
        transitionsTo[advance.state.status] = (transitionsTo[advance.state.status] ?? 0) + 1;
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
          ...(input.kind === 'query_failed' ? { failure: input.failures.map((f) => `${f.metric}: ${f.message}`).join('; ') } : {}),
          ...(escalation ? { escalation } : {}),
          ...(flapping ? { flapping } : {}),
        } });
      }
      // An unchanged state (most alerts, most cycles) is told from the stored text without serializing it again.
      const stored = unchangedText(alert.evalState, previous, advance.state) ?? JSON.stringify(advance.state);
      // Notifications always come with a state change; the check on them is a guard, not a case.
      if (stored !== alert.evalState || outgoing.length > 0 || ackEnd) {
        // Retries and the maximum age run on the wall clock, whatever clock the evaluation itself was given.
        const createdAt = Date.now();
        const alertDeliveries = outgoing.flatMap(({ notification, channels }) =>
          channels.map((channelId) => ({ channelId, event: notification.event, payload: notification, createdAt })),
        );
        notifications += outgoing.length;
        deliveries += alertDeliveries.length;
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
      deps.logger?.error({ alert: alert.id, error: (error as Error).message }, 'alert evaluation failed');
    }
  };

  // Each alert is judged as soon as its last answer is in, and each answer dropped once its alerts are judged: the
  // judging overlaps the requests still in flight, and only the answers not yet used are held in memory.
  const results: (RenderResult | undefined)[] = new Array(queries.length);
  /** For each query: how many of its uses by alerts are not judged yet. */
  const unused = waiting.map((planIndexes) => planIndexes.length);
  await deps.graphite.renderEach(queries, (slot, result) => {
    if (!result.ok) failedQueries += 1;
    results[slot] = result;
    for (const planIndex of waiting[slot]!) {
      const plan = plans[planIndex]!;
      plan.pending -= 1;
      if (plan.pending > 0) continue;
      judge(plan);
      for (const used of plan.slots) if ((unused[used]! -= 1) === 0) results[used] = undefined;
      for (const used of plan.historySlots) if (used !== null && (unused[used]! -= 1) === 0) results[used] = undefined;
    }
  });

  if (updates.length > 0) await deps.store.saveEvaluations(updates, lease);
  if (deliveries > 0) deps.onDeliveriesWritten?.();

  const report: CycleReport = {
    alerts: alerts.length,
    queries: queries.length,
    failedQueries,
    transitions,
    transitionsTo,
    notifications,
    saved: updates.length,
    durationMs: Date.now() - started,
  };
  deps.logger?.debug(report, 'evaluation cycle');
  return report;
}

function safeListCriteria(alert: EvaluationAlert, logger?: Logger): Criterion[] {
  try {
    return criteriaOf(alert.metric, alert.alertCriteria, alert.additionalCriteria);
  } catch (error) {
    logger?.error({ alert: alert.id, error: (error as Error).message }, 'alert has unreadable criteria');
    return [];
  }
}

/** Turns the query results of an alert's criteria into the cycle input: judged, or failed queries. */
function buildInput(
  criteria: Criterion[],
  results: RenderResult[],
  histories: (RenderResult | null)[],
  now: number,
  expression: string,
): CycleInput {
  const failures = [];
  for (let i = 0; i < criteria.length; i += 1) {
    const failed = [results[i]!, histories[i]].find((result) => result && !result.ok);
    if (failed && !failed.ok) failures.push({ metric: criteria[i]!.metric, message: failed.failure.message });
  }
  if (failures.length > 0) return { kind: 'query_failed', failures };
  const seriesOf = (result: RenderResult | null | undefined) => (result && result.ok ? result.series : undefined);
  const outcomes: CriterionOutcome[] = criteria.map((criterion, i) =>
    judgeCriterion(criterion, seriesOf(results[i]) ?? [], now, seriesOf(histories[i])),
  );
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
