import type { NotificationType, OnQueryFailure } from '../model/types.js';
import type { AlertJudgement, TriggeredMetric } from './judge-alert.js';
import { NO_ESCALATION, escalateAlerting, escalationRecovery, type EscalationMemory, type EscalationNote, type EscalationStep } from './escalation.js';
import type { FlapGuard } from '../model/noise-control.js';
import { guardFlapping } from './flap-guard.js';

/**
 * Everything the evaluator remembers about one alert between cycles. Stored as the alert's eval_state
 * text (stored-state.ts), so that a restart neither re-notifies an alert that was already notified nor forgets a
 * backoff.
 */
export interface EvalState {
  version: 1;
  status: 'healthy' | 'alerting';
  /** The metrics that hold while alerting, with their latest breaching values. */
  triggered: TriggeredMetric[];
  /** Unix seconds of the last alerting or reminder notification (the start of the backoff). */
  lastNotifiedAt: number | null;
  /** Whether channels were told about the current alerting episode (recoveries are sent only then). */
  alertingNotified: boolean;
  /**
   * The alert's own channels (ids) told about the current episode by an alerting or reminder notification: one removed
   * from the alert since still gets the resolve. Absent while healthy, and for states stored before it existed.
   */
  pagedChannels?: string[];
  /** Whether the alert's queries failed in the last cycle. */
  queryFailing: boolean;
  /** Whether channels were told about the current query failure. */
  queryFailureNotified: boolean;
  /** The alerting episode's escalation: when it began, which steps went out or were held (escalation.ts). */
  escalation?: EscalationMemory;
  /**
   * Unix seconds at which the current alerting episode began (null while healthy, or for an episode older than this
   * field): it names the episode, so that an acknowledgement link from an earlier episode cannot acknowledge this one.
   */
  alertingSince: number | null;
  /** The flap guard's memory (flap-guard.ts): times of recent state changes, and whether it is flapping. */
  recentChanges?: number[];
  flapping?: boolean;
  /** Whether the last judged cycle found no data to judge (no-data.ts); absent: false. */
  noData?: boolean;
  /** Whether channels were told about the current no-data episode (a `no_data` notification went out). */
  noDataNotified?: boolean;
}

/** The notification kinds a cycle can emit for an alert. */
export type NotificationEvent =
  | 'alerting'
  | 'reminder'
  | 'recovered'
  | 'query_failed'
  | 'query_recovered'
  /** The alert's queries answer no data (on_no_data notify, no-data.ts); `no_data_recovered` when data returns. */
  | 'no_data'
  | 'no_data_recovered'
  /** An escalation step (escalation.ts): the alert has been alerting, unacknowledged, for the step's minutes. */
  | 'escalated'
  /** Someone acknowledged the episode (written by POST /v2/alerts/{id}/ack/, not by a cycle). */
  | 'acknowledged'
  /** The flap guard (flap-guard.ts): the alert changes state too often; its notifications pause until it is stable. */
  | 'flapping'
  /** A channel's throttle window ended with notifications held back: one summary lists them (built by the outbox side). */
  | 'throttled_summary'
  /** One message for a group of a channel that groups by path nodes (built by the outbox side). */
  | 'grouped';

/** A history entry of a transition, `time` in unix seconds (stored as the store's HistoryRecord, with its alert id). */
export interface TransitionHistoryEntry {
  status: 'alerting' | 'recovered' | 'query_failed' | 'no_data';
  value: number | null;
  metric: string;
  time: number;
}

/** A failed query of an alert. */
export interface QueryFailureInfo {
  metric: string;
  message: string;
}

/** What the cycle learned about an alert: a judgement of its data, or that some of its queries failed. */
export type CycleInput = { kind: 'judged'; judgement: AlertJudgement } | { kind: 'query_failed'; failures: QueryFailureInfo[] };

/** The alert's settings and circumstances that decide what a transition sends. */
export interface AdvanceContext {
  now: number;
  notificationType: NotificationType;
  /** Explicitly muted or inside an active scheduled mute. */
  muted: boolean;
  onQueryFailure: OnQueryFailure;
  /** Acknowledged by someone (and the ack not expired): no reminders, no escalation steps; recoveries still go out. */
  acknowledged: boolean;
  /** The alert's escalation steps, ascending by after_minutes (none: no escalation). */
  escalation?: readonly EscalationStep[];
  /** The alert's own channel ids: a recovery goes to the escalated channels that are not among them. */
  channels?: readonly string[];
  /** The alert's flap guard (flap-guard.ts); absent or null: none. */
  flapGuard?: FlapGuard | null;
}

/** A notification a cycle emits; `channels` (ids) when it goes elsewhere than to the alert's own channels. */
export interface AdvanceNotification {
  event: NotificationEvent;
  triggered: TriggeredMetric[];
  channels?: string[];
  /** For `escalated`: which step. */
  escalation?: EscalationNote;
  /** For `flapping`: how many state changes in what window. */
  flapping?: { changes: number; window_minutes: number };
}

/** The result of one cycle for one alert. */
export interface Advance {
  state: EvalState;
  history: TransitionHistoryEntry[];
  notifications: AdvanceNotification[];
  /**
   * Notifications a transition would have sent but did not, and why (muted, the backoff, on_query_failure): the
   * console shows them. Reminders held back while muted are not listed (one per cycle would drown the rest).
   */
  suppressed: { event: NotificationEvent; triggered: TriggeredMetric[]; reason: string }[];
}

/** The state of an alert the evaluator has never seen (or whose stored state is unreadable). */
export function initialEvalState(status = 'healthy', triggeredMetrics: readonly string[] = []): EvalState {
  const alerting = status === 'alerting';
  return {
    version: 1,
    status: alerting ? 'alerting' : 'healthy',
    triggered: alerting ? triggeredMetrics.map((metric) => ({ metric, value: null })) : [],
    lastNotifiedAt: null,
    // An alert stored as alerting without evaluator state was notified by whoever set it (assume so).
    alertingNotified: alerting,
    queryFailing: false,
    queryFailureNotified: false,
    escalation: { ...NO_ESCALATION },
    alertingSince: null,
    recentChanges: [],
    flapping: false,
  };
}

/** Adds the alert's own channels to those told about the episode (an alerting or reminder notification went out). */
function notePaged(state: EvalState, previous: EvalState, context: AdvanceContext): void {
  if (!context.channels) return;
  const told = previous.status === 'alerting' ? (previous.pagedChannels ?? []) : [];
  const added = context.channels.filter((id) => !told.includes(id));
  if (added.length > 0 || previous.status !== 'alerting') state.pagedChannels = [...told, ...added];
}

/** Whether the backoff of `["every", N]` lets an alerting notification go out now. */
function backoffAllows(state: EvalState, context: AdvanceContext): boolean {
  if (context.notificationType[0] !== 'every') return true;
  const minutes = context.notificationType[1];
  return state.lastNotifiedAt === null || context.now - state.lastNotifiedAt >= minutes * 60;
}

/**
 * Moves an alert's state one cycle forward: the transition (if any), its history entries and the notifications
 * to send. Pure: the clock is `context.now`.
 *
 * - healthy -> alerting when the alert holds; alerting -> healthy when it is clear on non-null data; an unknown
 *   judgement (no data) changes nothing.
 * - `state_change`: every transition notifies. `["every", N]`: a transition to alerting notifies unless an
 *   alerting notification went out less than N minutes ago (the backoff); while alerting, a reminder goes out
 *   every N minutes (and a suppressed alerting notice goes out as soon as the backoff allows). A recovery
 *   notifies when the channels were told about the alerting episode, whatever the backoff.
 * - A query failure changes no status; its first cycle records `query_failed` per failed query and notifies when
 *   on_query_failure is `notify`; once the queries work again, `query_recovered` closes what was opened.
 * - Muted: the state and history move on as usual, nothing is sent, except resolves (below).
 * - A page held back is not lost: an alert still alerting whose episode nobody was told about (held by a mute, a
 *   maintenance window, an acknowledgement, a parent alerting: the store's dependency hold) sends its `alerting`
 *   notification at the first cycle nothing holds it, whatever its notification type (as Alertmanager does when a
 *   silence expires or an inhibiting alert resolves).
 * - A resolve is never lost: once an alerting notification went out for an episode, its recovery goes to every
 *   channel that was told (the alert's and the escalated ones), muted, acknowledged or not; so does the
 *   `query_recovered` of a notified query failure. The flap guard does not hold them back (flap-guard.ts), nor does a
 *   channel's throttle (throttle/throttle-window.ts). A person who muted an alert mid-incident still has an open
 *   PagerDuty incident or a red Slack thread that only the resolve closes.
 * - Escalation (escalation.ts): while alerting, each step whose `after` has passed since the episode began goes to
 *   its own channels once (`channels` on the notification); a recovery also goes to the channels escalated to.
 * - Acknowledged: no reminders (nor a held-back alerting notice); the recovery is sent as usual.
 */
export function advanceAlert(previous: EvalState, input: CycleInput, context: AdvanceContext): Advance {
  const state: EvalState = { ...previous };
  const history: TransitionHistoryEntry[] = [];
  const notifications: Advance['notifications'] = [];
  const suppressed: Advance['suppressed'] = [];
  const { now, muted } = context;

  if (input.kind === 'query_failed') {
    if (!previous.queryFailing) {
      state.queryFailing = true;
      for (const failure of input.failures) history.push({ status: 'query_failed', value: null, metric: failure.metric, time: now });
      const triggered = input.failures.map((f) => ({ metric: f.metric, value: null }));
      if (context.onQueryFailure === 'notify' && !muted) {
        notifications.push({ event: 'query_failed', triggered });
        state.queryFailureNotified = true;
      } else {
        const reason = context.onQueryFailure !== 'notify' ? `on_query_failure is ${context.onQueryFailure ?? 'not set'}` : 'muted';
        suppressed.push({ event: 'query_failed', triggered, reason });
      }
    }
    return guardFlapping(previous, { state, history, notifications, suppressed }, context.flapGuard, now, muted);
  }

  if (previous.queryFailing) {
    state.queryFailing = false;
    // A resolve: whoever was told about the failure is told it is over, muted or not.
    if (previous.queryFailureNotified) notifications.push({ event: 'query_recovered', triggered: [] });
    state.queryFailureNotified = false;
  }

  const { judgement } = input;
  if (previous.status === 'healthy' && judgement.state === 'holds') {
    state.status = 'alerting';
    state.triggered = judgement.triggered;
    for (const one of judgement.triggered) history.push({ status: 'alerting', value: one.value, metric: one.metric, time: now });
    state.alertingNotified = false;
    state.alertingSince = now;
    if (!muted && backoffAllows(previous, context)) {
      notifications.push({ event: 'alerting', triggered: judgement.triggered });
      state.alertingNotified = true;
      state.lastNotifiedAt = now;
      notePaged(state, previous, context);
    } else {
      const backoff = `backoff: an alerting notification went out less than ${context.notificationType[1]} minutes ago`;
      suppressed.push({ event: 'alerting', triggered: judgement.triggered, reason: muted ? 'muted' : backoff });
    }
  } else if (previous.status === 'alerting' && judgement.state === 'holds') {
    state.triggered = judgement.triggered;
    // Acknowledged: someone is on it, and a reminder every N minutes would only page them again (and wake whoever
    // else is on the channel) for what they already answered. The recovery still goes out.
    // An episode nobody was told about (its page held by a mute, a maintenance window, an acknowledgement, a parent
    // alerting, the backoff) pages once whatever held it has ended, on any notification type: what is still broken
    // after maintenance must be heard of. While flapping, the flap guard's own notice says it when it settles.
    const owed = !previous.alertingNotified && !previous.flapping;
    if (!muted && !context.acknowledged && (owed || context.notificationType[0] === 'every') && backoffAllows(previous, context)) {
      notifications.push({ event: previous.alertingNotified ? 'reminder' : 'alerting', triggered: judgement.triggered });
      state.alertingNotified = true;
      state.lastNotifiedAt = now;
      notePaged(state, previous, context);
    }
  } else if (previous.status === 'alerting' && judgement.state === 'clear') {
    // The last criterion with data for a metric wins, as when the letters' values were merged in order.
    const latestOf = (metric: string) => judgement.outcomes.findLast((outcome) => outcome.latest.has(metric))?.latest.get(metric) ?? null;
    const recovered = previous.triggered.map((one) => ({ metric: one.metric, value: latestOf(one.metric) }));
    state.status = 'healthy';
    state.triggered = [];
    state.alertingSince = null;
    for (const one of recovered) history.push({ status: 'recovered', value: one.value, metric: one.metric, time: now });
    // A resolve is owed to whoever was told about the episode, whatever happened since (mute, acknowledgement), and
    // to the channels told that the alert no longer names.
    const ownChannels = context.channels ?? [];
    const removed = previous.alertingNotified ? (previous.pagedChannels ?? []).filter((id) => !ownChannels.includes(id)) : [];
    if (previous.alertingNotified) notifications.push({ event: 'recovered', triggered: recovered });
    else suppressed.push({ event: 'recovered', triggered: recovered, reason: 'no alerting notification was sent for this episode' });
    if (removed.length > 0) notifications.push({ event: 'recovered', triggered: recovered, channels: removed });
    state.alertingNotified = false;
    delete state.pagedChannels;
    const escalated = escalationRecovery(previous.escalation ?? NO_ESCALATION, [...ownChannels, ...removed], recovered, true);
    state.escalation = escalated.memory;
    notifications.push(...escalated.notifications);
  }
  if (state.status === 'alerting') {
    const escalating = { now, steps: context.escalation ?? [], muted, acknowledged: context.acknowledged };
    const escalated = escalateAlerting(previous.escalation ?? NO_ESCALATION, previous.status === 'healthy', state.triggered, escalating);
    state.escalation = escalated.memory;
    notifications.push(...escalated.notifications);
    suppressed.push(...escalated.suppressed);
  }
  return guardFlapping(previous, { state, history, notifications, suppressed }, context.flapGuard, now, muted);
}
