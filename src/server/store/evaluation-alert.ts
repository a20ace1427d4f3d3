import { isMutedAt } from '../../model/mute-state.js';
import type { ScheduleTiming } from '../../model/schedule-active.js';
import type { Weekday } from '../../model/types.js';
import { acknowledgementFromRow, isAcknowledgedAt } from './ack-store.js';
import type { EvaluationAlert } from '../evaluator/evaluation-store.js';
import type { AlertRow } from './row-mappers.js';

/**
 * The evaluator's record from an alert row, shared by both backends (sqlite/ and postgres/evaluation-rows.ts): the
 * one place where `muted` and `acknowledged` are decided for a cycle (isMutedAt, isAcknowledgedAt, at the cycle's
 * time), so SQLite and PostgreSQL cannot disagree about them.
 */

/** The alert columns the evaluator reads (alias `a`), the same on both databases. */
export const EVALUATION_ALERT_COLUMNS = `a.id, a.account_id, a.name, a.metric, a.alert_criteria, a.additional_criteria,
  a.expression, a.notification_type, a.info, a.on_query_failure, a.flap_guard, a.pagerduty_severity, a.opsgenie_priority,
  a.status, a.currently_triggered_metrics, a.muted_until, a.eval_state, a.escalation, a.ack_by, a.ack_note, a.ack_at, a.ack_until`;

/** An alert row as EVALUATION_ALERT_COLUMNS selects it (JSON columns as text; BIGINTs as numbers). */
export type EvaluationAlertRow = Omit<AlertRow, 'created_at' | 'escalation' | 'ack_by' | 'ack_note' | 'ack_at' | 'ack_until'> & {
  escalation: string | null;
  ack_by: string | null;
  ack_note: string | null;
  ack_at: number | null;
  ack_until: number | null;
};

/** The schedule columns a mute needs (the schedules table, both databases). */
export const SCHEDULE_TIMING_COLUMNS = 'id, start_time, duration, timezone, repeat_days, anchor';

/** A schedule row as SCHEDULE_TIMING_COLUMNS selects it. */
export interface ScheduleTimingRow {
  id: string;
  start_time: string;
  duration: number;
  timezone: string;
  repeat_days: string;
  anchor: number;
}

/** Schedules by id, as the mute decision needs them. */
export function scheduleTimings(rows: readonly ScheduleTimingRow[]): Map<string, ScheduleTiming> {
  return new Map(
    rows.map((row) => [
      row.id,
      { startTime: row.start_time, duration: row.duration, timezone: row.timezone, repeat: JSON.parse(row.repeat_days) as Weekday[], anchor: row.anchor },
    ]),
  );
}

/**
 * One row and its ordered links (channel ids; its schedules' timings) as the evaluator's record, with `muted` and
 * `acknowledged` decided at `now` (epoch ms). evalState stays the stored text: the evaluator parses it once.
 */
export function evaluationAlertFromRow(
  row: EvaluationAlertRow,
  channelIds: string[],
  schedules: readonly ScheduleTiming[],
  now: number,
): EvaluationAlert {
  const acknowledgement = acknowledgementFromRow(row);
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    metric: row.metric,
    alertCriteria: JSON.parse(row.alert_criteria) as EvaluationAlert['alertCriteria'],
    additionalCriteria: JSON.parse(row.additional_criteria) as EvaluationAlert['additionalCriteria'],
    expression: row.expression,
    notificationChannels: channelIds,
    notificationType: JSON.parse(row.notification_type) as EvaluationAlert['notificationType'],
    onQueryFailure: row.on_query_failure as EvaluationAlert['onQueryFailure'],
    flapGuard: row.flap_guard ? (JSON.parse(row.flap_guard) as EvaluationAlert['flapGuard']) : null,
    info: row.info,
    pagerdutySeverity: row.pagerduty_severity as EvaluationAlert['pagerdutySeverity'],
    opsgeniePriority: row.opsgenie_priority as EvaluationAlert['opsgeniePriority'],
    status: row.status,
    currentlyTriggeredMetrics: JSON.parse(row.currently_triggered_metrics) as string[],
    muted: isMutedAt({ mutedUntil: row.muted_until }, schedules, now),
    escalation: JSON.parse(row.escalation ?? '[]') as EvaluationAlert['escalation'],
    // An acknowledgement whose `until` has not passed at the cycle's time.
    acknowledged: isAcknowledgedAt(acknowledgement, Math.floor(now / 1000)),
    acknowledgedAt: acknowledgement?.at ?? null,
    evalState: row.eval_state,
  };
}

