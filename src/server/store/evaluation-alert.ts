import { isMutedAt } from '../../model/mute-state.js';
import type { ScheduleTiming } from '../../model/schedule-active.js';
import type { Weekday } from '../../model/types.js';
import { isAcknowledgedAt, type Acknowledgement } from '../../model/acknowledgement.js';
import { acknowledgementFromRow } from './ack-store.js';
import type { EvaluationAlert, EvaluationUpdate } from './evaluation-store.js';
import type { AlertRow } from './row-mappers.js';
import { ParsedJsonCache } from './parsed-json-cache.js';
import { activeMutingWindow, type AccountWindows, type MatchedWindow } from './window-mutes.js';
import type { ListingMatching } from './window-warmup.js';
import type { WindowAlert } from '../../model/maintenance-window.js';

/**
 * The evaluator's record from an alert row, shared by both backends (sqlite/ and postgres/evaluation-rows.ts): the
 * one place where `muted` and `acknowledged` are decided for a cycle (isMutedAt, isAcknowledgedAt, at the cycle's
 * time), so SQLite and PostgreSQL cannot disagree about them. The rules are model/'s (mute-state.ts,
 * acknowledgement.ts); they are applied here, where the record is built, because the listing cache hands the same
 * kept record to later cycles and decides both again at each cycle's time from the clock inputs it keeps beside it
 * (setClockFields), which the evaluator never sees.
 */

/** The alert columns the evaluator reads, in the order of an array row (evaluationAlertFromValues). */
const FIELDS = [
  'id', 'account_id', 'name', 'metric', 'alert_criteria', 'additional_criteria', 'expression', 'notification_type',
  'info', 'on_query_failure', 'flap_guard', 'pagerduty_severity', 'opsgenie_priority', 'settle_seconds', 'status',
  'info', 'on_query_failure', 'flap_guard', 'pagerduty_severity', 'opsgenie_priority', 'on_no_data', 'status',
  'currently_triggered_metrics', 'muted_until', 'eval_state', 'escalation', 'ack_by', 'ack_note', 'ack_at', 'ack_until',
] as const satisfies readonly (keyof EvaluationAlertRow)[];

/**
 * The alert columns the evaluator reads (alias `a`), the same on both databases, in FIELDS' order, then its account's
 * metric prefixes (JSON text): the stream confines what each alert sees to them (stream-evaluator.ts).
 */
export const EVALUATION_ALERT_COLUMNS = `${FIELDS.map((field) => `a.${field}`).join(', ')}, (SELECT c.metric_prefixes FROM accounts c WHERE c.id = a.account_id)`;

/** Where the account's metric prefixes are in an array row (after FIELDS). */
const PREFIXES_AT = FIELDS.length;

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

/** The alert's id in an array row. */
export function alertIdOf(values: readonly unknown[]): string {
  return values[AT.id] as string;
}

/** Where each column is in an array row (FIELDS' order). */
const AT = Object.fromEntries(FIELDS.map((field, i) => [field, i])) as { readonly [F in (typeof FIELDS)[number]]: number };

/** The row's JSON columns, parsed once per distinct text (parsed-json-cache.ts: shared and frozen). */
const parsed = {
  alertCriteria: new ParsedJsonCache<EvaluationAlert['alertCriteria']>(),
  additionalCriteria: new ParsedJsonCache<EvaluationAlert['additionalCriteria']>(),
  notificationType: new ParsedJsonCache<EvaluationAlert['notificationType']>(),
  flapGuard: new ParsedJsonCache<NonNullable<EvaluationAlert['flapGuard']>>(),
  triggeredMetrics: new ParsedJsonCache<string[]>(),
  escalation: new ParsedJsonCache<EvaluationAlert['escalation']>(),
  metricPrefixes: new ParsedJsonCache<string[]>(),
};

/**
 * What `muted` and `acknowledged` depend on besides the clock: the explicit mute, the alert's schedules' timings and
 * its acknowledgement. The evaluator's listing cache keeps it beside each record it keeps (evaluation-listing-cache.ts)
 * and decides both again at each cycle's time with setClockFields; null when nothing of it is set (most alerts):
 * then neither is ever true.
 */
export interface ClockInputs {
  mutedUntil: number | null;
  schedules: readonly ScheduleTiming[];
  acknowledgement: Acknowledgement | null;
  /** The maintenance windows that match the alert (matched once per listing: window-mutes.ts). */
  windows: readonly MatchedWindow[];
}

const NO_WINDOWS: readonly MatchedWindow[] = [];

/** What a window's match reads of an array row (its ordered channel ids given), and its account. */
export function windowAlertOfValues(values: readonly unknown[], channelIds: readonly string[]): { accountId: string; alert: WindowAlert } {
  return {
    accountId: values[AT.account_id] as string,
    alert: {
      name: values[AT.name] as string,
      metric: values[AT.metric] as string,
      additional_criteria: parsed.additionalCriteria.parse(values[AT.additional_criteria] as string),
      notification_channels: channelIds,
    },
  };
}

/** The windows of `windows` that match an array row (its ordered channel ids given). */
export function windowsMatchingValues(windows: AccountWindows, values: readonly unknown[], channelIds: readonly string[]): readonly MatchedWindow[] {
  if (windows.empty) return NO_WINDOWS;
  const { accountId, alert } = windowAlertOfValues(values, channelIds);
  return windows.matching(accountId, alertIdOf(values), alert);
}

/**
 * Matches a page of array rows against `windows` ahead of its synchronous build, yielding every few milliseconds
 * (AccountWindows.prepare): the build then finds every answer kept, but for the alerts `listing` put off.
 */
export async function prepareWindowsOfValues(
  windows: AccountWindows,
  rows: readonly (readonly unknown[])[],
  channelsOf: (alertId: string) => readonly string[],
  listing?: ListingMatching,
): Promise<void> {
  if (windows.empty) return;
  await windows.prepare(
    rows.map((row) => {
      const alertId = alertIdOf(row);
      return { alertId, ...windowAlertOfValues(row, channelsOf(alertId)) };
    }),
    listing,
  );
}

/** The row's clock inputs (its schedules' timings and matching windows given), null when there are none. */
export function clockInputsFromValues(
  values: readonly unknown[],
  schedules: readonly ScheduleTiming[],
  windows: readonly MatchedWindow[] = NO_WINDOWS,
): ClockInputs | null {
  const mutedUntil = values[AT.muted_until] as number | null;
  // Most alerts carry no acknowledgement: no object to build for them.
  const acknowledgement = values[AT.ack_by] === null ? null : acknowledgementFromRow({
    ack_by: values[AT.ack_by] as string | null,
    ack_note: values[AT.ack_note] as string | null,
    ack_at: values[AT.ack_at] as number | null,
    ack_until: values[AT.ack_until] as number | null,
  });
  if (mutedUntil === null && schedules.length === 0 && acknowledgement === null && windows.length === 0) return null;
  return { mutedUntil, schedules, acknowledgement, windows };
}

/**
 * Decides the record's `muted` and `acknowledged` at `now` (epoch ms): the one place that does, for a record just
 * built and for a kept one at a later cycle (isMutedAt, isAcknowledgedAt), so SQLite, PostgreSQL and the cache
 * cannot disagree about them.
 */
export function setClockFields(record: EvaluationAlert, clock: ClockInputs | null, now: number): void {
  if (clock === null) {
    record.muted = false;
    record.mutedByWindow = null;
    record.acknowledged = false;
    return;
  }
  record.mutedByWindow = clock.windows.length > 0 ? activeMutingWindow(clock.windows, now) : null;
  record.muted = record.mutedByWindow !== null || isMutedAt(clock, clock.schedules, now);
  // An acknowledgement whose `until` has not passed at the cycle's time.
  record.acknowledged = isAcknowledgedAt(clock.acknowledgement, Math.floor(now / 1000));
}

/**
 * One row as an array of EVALUATION_ALERT_COLUMNS' values (in their order; the drivers build arrays at a third of
 * the cost of objects with twenty-odd keys), its ordered channel ids and its clock inputs (clockInputsFromValues)
 * as the evaluator's record, with `muted` and `acknowledged` decided at `now` (epoch ms). evalState stays the stored
 * text: the evaluator parses it once. The JSON columns' values are shared between alerts with the same text, frozen.
 */
export function evaluationAlertFromValues(values: readonly unknown[], channelIds: string[], clock: ClockInputs | null, now: number): EvaluationAlert {
  const flapGuard = values[AT.flap_guard] as string | null;
  const record: EvaluationAlert = {
    id: values[AT.id] as string,
    accountId: values[AT.account_id] as string,
    name: values[AT.name] as string,
    metric: values[AT.metric] as string,
    alertCriteria: parsed.alertCriteria.parse(values[AT.alert_criteria] as string),
    additionalCriteria: parsed.additionalCriteria.parse(values[AT.additional_criteria] as string),
    expression: values[AT.expression] as string,
    notificationChannels: channelIds,
    notificationType: parsed.notificationType.parse(values[AT.notification_type] as string),
    onQueryFailure: values[AT.on_query_failure] as EvaluationAlert['onQueryFailure'],
    flapGuard: flapGuard ? parsed.flapGuard.parse(flapGuard) : null,
    info: values[AT.info] as string | null,
    pagerdutySeverity: values[AT.pagerduty_severity] as EvaluationAlert['pagerdutySeverity'],
    opsgeniePriority: values[AT.opsgenie_priority] as EvaluationAlert['opsgeniePriority'],
    settleSeconds: values[AT.settle_seconds] === null || values[AT.settle_seconds] === undefined ? null : Number(values[AT.settle_seconds]),
    onNoData: (values[AT.on_no_data] ?? null) as EvaluationAlert['onNoData'],
    status: values[AT.status] as string,
    currentlyTriggeredMetrics: parsed.triggeredMetrics.parse(values[AT.currently_triggered_metrics] as string),
    muted: false,
    mutedByWindow: null,
    escalation: parsed.escalation.parse((values[AT.escalation] as string | null) ?? '[]'),
    acknowledged: false,
    acknowledgedAt: clock?.acknowledgement?.at ?? null,
    evalState: values[AT.eval_state] as string | null,
    metricPrefixes: parsed.metricPrefixes.parse((values[PREFIXES_AT] as string | null | undefined) ?? '[]'),
  };
  setClockFields(record, clock, now);
  return record;
}

/**
 * A kept record after its own save (the evaluator's listing cache): the same status, triggered metrics (the same
 * shared, frozen value a listing would read from the stored text) and state text a listing would read back.
 */
export function applySavedEvaluation(record: EvaluationAlert, update: Pick<EvaluationUpdate, 'status' | 'currentlyTriggeredMetrics' | 'evalState'>): void {
  record.status = update.status;
  record.currentlyTriggeredMetrics = parsed.triggeredMetrics.parse(JSON.stringify(update.currentlyTriggeredMetrics));
  record.evalState = update.evalState;
}
