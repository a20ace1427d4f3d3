import type { MutingWindow } from './store/window-store.js';
import type { AlertRead, ChannelRead, DeliveryRead, MuteStatus, ScheduleRead } from '../model/types.js';
import { muteState } from '../model/mute-state.js';
import { alertStateOf, stateFactsOf } from '../model/alert-state.js';
import { isAcknowledgedAt } from '../model/acknowledgement.js';
import type { AlertRecord, ChannelRecord, ScheduleRecord } from './store/store.js';
import type { DeliveryRecord, PendingSummary } from './store/outbox.js';
import type { EvaluatedBy } from './evaluator/evaluation-health.js';

const MINUTE = 60_000;

export { muteState } from '../model/mute-state.js';

/** The alert read object, fields in a stable order. */
export function presentAlert(alert: AlertRecord, schedules: readonly ScheduleRecord[], now: number, evaluating: boolean, evaluatedBy: EvaluatedBy = 'render', mutedByWindow = false): AlertRead {
  return presentAlertAs(alert, mutedByWindow || muteState(alert, schedules, now).muted, isAcknowledgedAt(alert.acknowledgement, Math.floor(now / 1000)), evaluating, evaluatedBy);
}

/**
 * The alert read object with its per-request parts already decided: whether it is muted now, whether its
 * acknowledgement still holds (an expired one, its `until` passed and not yet removed by the evaluator, is shown
 * as none), and whether anything evaluates the server's alerts (its `state`).
 */
export function presentAlertAs(alert: AlertRecord, muted: boolean, acknowledged: boolean, evaluating: boolean, evaluatedBy: EvaluatedBy = 'render'): AlertRead {
  return {
    id: alert.id,
    name: alert.name,
    metric: alert.metric,
    alert_criteria: alert.alertCriteria,
    additional_criteria: alert.additionalCriteria,
    expression: alert.expression,
    notification_channels: alert.notificationChannels,
    notification_type: alert.notificationType,
    scheduled_mutes: alert.scheduledMutes,
    currently_triggered_metrics: alert.currentlyTriggeredMetrics,
    muted,
    status: alert.status,
    info: alert.info,
    on_query_failure: alert.onQueryFailure,
    // Extension: always present (an empty list when none), so a plan can tell "none" from "not supported".
    escalation: alert.escalation,
    acknowledgement: acknowledged ? { ...alert.acknowledgement! } : null,
    flap_guard: alert.flapGuard ?? null,
    pagerduty_severity: alert.pagerdutySeverity ?? null,
    opsgenie_priority: alert.opsgeniePriority ?? null,
    settle_seconds: alert.settleSeconds ?? null,
    on_no_data: alert.onNoData ?? null,
    depends_on: alert.dependsOn && alert.dependsOn.length > 0 ? alert.dependsOn : null,
    // Extension (read-only): the one state (model/alert-state.ts) beside the documented status.
    state: alertStateOf(stateFactsOf(alert.status, alert.evalState), evaluating),
    // Extension (read-only): how this server judges the alert, on the metric stream or by render polling.
    evaluated_by: evaluatedBy,
  };
}

/** The mute status object: duration is the remaining whole minutes, rounded up, 0 when not muted. */
export function presentMuteStatus(alert: AlertRecord, schedules: readonly ScheduleRecord[], now: number, window: MutingWindow | null = null): MuteStatus {
  const state = muteState(alert, schedules, now);
  const until = window && (state.until === null || window.until > state.until) ? window.until : state.until;
  return {
    id: alert.id,
    name: alert.name,
    muted: until !== null,
    duration: until === null ? 0 : Math.ceil((until - now) / MINUTE),
    scheduled_mutes: alert.scheduledMutes,
    ...(window ? { maintenance_window: { id: window.id, name: window.name, until: new Date(window.until).toISOString() } } : {}),
  };
}

/**
 * The channel object. Additive fields appear only when they say something: last_error after a failed delivery,
 * pending_deliveries and oldest_pending_seconds (age of the oldest, at `now` epoch ms) while notifications wait in
 * the outbox.
 */
export function presentChannel(channel: ChannelRecord, pending?: PendingSummary, now: number = Date.now()): ChannelRead {
  return {
    type: channel.type,
    description: channel.description,
    destination: channel.destination,
    id: channel.id,
    auto_resolve: channel.autoResolve,
    throttle: channel.throttle ?? null,
    template: channel.template ?? null,
    group_by: channel.groupBy ?? null,
    ...(channel.lastError
      ? { last_error: { time: String(channel.lastError.time), message: channel.lastError.message } }
      : {}),
    ...(pending && pending.count > 0
      ? { pending_deliveries: pending.count, oldest_pending_seconds: Math.max(0, Math.floor((now - pending.oldestCreatedAt) / 1000)) }
      : {}),
  };
}

/** A delivery as `GET /v2/deliveries/` lists it: times in unix seconds (strings, as elsewhere), no destination. */
export function presentDelivery(delivery: DeliveryRecord): DeliveryRead {
  const seconds = (ms: number | null) => (ms === null ? null : String(Math.floor(ms / 1000)));
  return {
    id: delivery.id,
    state: delivery.state,
    channel: delivery.channel,
    alert: delivery.alert,
    event: delivery.event,
    attempts: delivery.attempts,
    created_at: seconds(delivery.createdAt)!,
    next_attempt_at: seconds(delivery.nextAttemptAt),
    last_attempt_at: seconds(delivery.lastAttemptAt),
    last_error: delivery.lastError,
  };
}

export function presentSchedule(schedule: ScheduleRecord): ScheduleRead {
  return {
    id: schedule.id,
    name: schedule.name,
    start_time: schedule.startTime,
    duration: schedule.duration,
    timezone: schedule.timezone,
    repeat: schedule.repeat,
    alerts: schedule.alerts,
  };
}
