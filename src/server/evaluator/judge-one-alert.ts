import type { Logger } from 'pino';
import { notifiedAlert } from '../../notifications/notified-alert.js';
import type { RenderResult } from '../../graphite/index.js';
import type { Notification } from '../../notifications/types.js';
import type { EvaluationAlert, EvaluationUpdate, NotificationRecord } from '../store/evaluation-store.js';
import { judgeAlert, judgeCriterion, type Criterion, type CriterionOutcome } from '../../evaluation/judge-alert.js';
import type { Advance, CycleInput } from '../../evaluation/transitions.js';
import { advanceWithNoData, type NoDataPolicy } from '../../evaluation/no-data.js';
import { previousStateOf, unchangedText } from './state-text-cache.js';
import { serializeEvalState } from '../../evaluation/stored-state.js';

/**
 * What one criterion of an alert is judged on: its query's answer (Graphite's render, or series built from the
 * metric stream in the same shape), its history query's answer when it has one, and how many seconds before `now`
 * the data ends (the settle delay; for a stream-judged alert, how far back its buckets are complete).
 */
export interface CriterionInput {
  result: RenderResult;
  history?: RenderResult;
  settleSeconds: number;
}

/** What judging one alert came to: the update to save (none when nothing changed) and its counts. */
export interface AlertVerdict {
  update: EvaluationUpdate | null;
  /** The status entered, when it changed. */
  transitionTo: string | null;
  /** The status before (the cycle's log names what changed from what). */
  transitionFrom: string;
  notifications: number;
  deliveries: number;
}

/** The server-wide parts of judging that are not the alert's own. */
export interface JudgeOptions {
  now: number;
  /** What no data does for an alert whose on_no_data is null (serve --on-no-data). */
  defaultOnNoData?: NoDataPolicy;
  logger?: Logger;
}

/**
 * Judges one alert on its criteria's inputs: the alert's truth (evaluation/), its transition with the no-data
 * policy, the notifications it owes (one outbox row per channel) and its history. The one per-alert path of every
 * evaluation, whether the data came from render polling or from the metric stream. A failure is logged and answers
 * no update, leaving the other alerts alone.
 */
export function judgeOneAlert(alert: EvaluationAlert, criteria: readonly Criterion[], inputs: readonly CriterionInput[], options: JudgeOptions): AlertVerdict {
  const none: AlertVerdict = { update: null, transitionTo: null, transitionFrom: alert.status, notifications: 0, deliveries: 0 };
  if (criteria.length === 0) return none;
  const { now } = options;
  try {
    const input = buildInput(criteria, inputs, now, alert.expression);
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
    }, alert.onNoData ?? options.defaultOnNoData ?? 'ignore');
    const ackEnd = acknowledgementEnd(alert, previous.status, advance.state.status, now);
    const transitionTo = advance.state.status !== previous.status ? advance.state.status : null;
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
    if (stored === alert.evalState && outgoing.length === 0 && !ackEnd) return { ...none, transitionTo, transitionFrom: previous.status };
    // Retries and the maximum age run on the wall clock, whatever clock the evaluation itself was given.
    const createdAt = Date.now();
    const deliveries = outgoing.flatMap(({ notification, channels }) =>
      channels.map((channelId) => ({ channelId, event: notification.event, payload: notification, createdAt })),
    );
    return {
      transitionTo,
      transitionFrom: previous.status,
      notifications: outgoing.length,
      deliveries: deliveries.length,
      update: {
        alertId: alert.id,
        status: advance.state.status,
        currentlyTriggeredMetrics: advance.state.triggered.map((one) => one.metric),
        evalState: stored,
        history: [...advance.history, ...notificationHistory(advance, alert.notificationChannels, now), ...(ackEnd ? [ackEnd.entry] : [])],
        deliveries,
        ...(ackEnd?.expiredAt !== undefined ? { endAcknowledgementAt: ackEnd.expiredAt } : {}),
      },
    };
  } catch (error) {
    options.logger?.error({ alert: alert.id, error: (error as Error).message }, 'alert evaluation failed');
    return none;
  }
}

/** Turns the query results of an alert's criteria into the cycle input: judged, or failed queries. */
function buildInput(criteria: readonly Criterion[], inputs: readonly CriterionInput[], now: number, expression: string): CycleInput {
  let failures: { metric: string; message: string }[] | undefined;
  for (let i = 0; i < criteria.length; i += 1) {
    const { result, history } = inputs[i]!;
    const failed = !result.ok ? result : history && !history.ok ? history : null;
    if (failed && !failed.ok) (failures ??= []).push({ metric: criteria[i]!.metric, message: failed.failure.message });
  }
  if (failures) return { kind: 'query_failed', failures };
  const outcomes: CriterionOutcome[] = new Array(criteria.length);
  for (let i = 0; i < criteria.length; i += 1) {
    const { result, history, settleSeconds } = inputs[i]!;
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
