import type {
  AccountRecord,
  AlertRecord,
  AlertWrite,
  ApiKeyRecord,
  ChannelRecord,
  ChannelWrite,
  HistoryRecord,
  ScheduleRecord,
  ScheduleWrite,
} from './store.js';
import { acknowledgementFromRow } from './ack-store.js';
import type { TimelineRecord } from './console-store.js';
import type { ChannelThrottle } from '../../model/noise-control.js';

/*
 * Rows to records and writes to column values, for both backends: their tables have the same columns, with JSON
 * stored as text on both, so only the SQL differs between sqlite/*-rows.ts and postgres/*-rows.ts.
 */

// Accounts and API keys ---------------------------------------------------------------------------------------------

/** An account row with its metric_prefixes (JSON text). */
export interface AccountRow {
  id: string;
  email: string | null;
  created_at: string;
  metric_prefixes?: string;
}

/** An account; metricPrefixes only when the row carries a non-empty list (an unconfined account has none). */
export function accountFromRow(row: AccountRow): AccountRecord {
  const metricPrefixes = row.metric_prefixes === undefined ? [] : (JSON.parse(row.metric_prefixes) as string[]);
  return { id: row.id, email: row.email, createdAt: row.created_at, ...(metricPrefixes.length > 0 ? { metricPrefixes } : {}) };
}

/** A key joined with its account's email (API_KEY_SELECT). */
export interface ApiKeyRow {
  id: string;
  account_id: string;
  email: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** The select of ApiKeyRow, to be followed by a WHERE (or nothing) and the order. */
export const API_KEY_SELECT = `SELECT k.id, k.account_id, a.email, k.created_at, k.revoked_at FROM api_keys k
  JOIN accounts a ON a.id = k.account_id`;

export function apiKeyFromRow(row: ApiKeyRow): ApiKeyRecord {
  return { id: row.id, accountId: row.account_id, email: row.email, createdAt: row.created_at, revokedAt: row.revoked_at };
}

// Alerts ------------------------------------------------------------------------------------------------------------

/** A row of the alerts table, as either database returns it. */
export interface AlertRow {
  id: string;
  account_id: string;
  name: string;
  metric: string;
  alert_criteria: string;
  additional_criteria: string;
  expression: string;
  notification_type: string;
  info: string | null;
  on_query_failure: string | null;
  /** JSON, or null: none. */
  flap_guard: string | null;
  pagerduty_severity: string | null;
  opsgenie_priority: string | null;
  /** Seconds, or null: the server's settle delay. */
  settle_seconds: number | null;
  on_no_data: string | null;
  /** JSON of the parents, or null: none. */
  depends_on?: string | null;
  status: string;
  currently_triggered_metrics: string;
  muted_until: number | null;
  eval_state: string | null;
  created_at: string;
  /** JSON of the escalation steps. */
  escalation: string;
  ack_by?: string | null;
  ack_note?: string | null;
  ack_at?: number | null;
  ack_until?: number | null;
}

/** One alert row and its ordered links, as a record. */
export function alertFromRow(row: AlertRow, channels: string[], schedules: string[]): AlertRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    metric: row.metric,
    alertCriteria: JSON.parse(row.alert_criteria) as AlertRecord['alertCriteria'],
    additionalCriteria: JSON.parse(row.additional_criteria) as AlertRecord['additionalCriteria'],
    expression: row.expression,
    notificationChannels: channels,
    notificationType: JSON.parse(row.notification_type) as AlertRecord['notificationType'],
    scheduledMutes: schedules,
    info: row.info,
    onQueryFailure: row.on_query_failure as AlertRecord['onQueryFailure'],
    flapGuard: row.flap_guard ? (JSON.parse(row.flap_guard) as AlertRecord['flapGuard']) : null,
    pagerdutySeverity: row.pagerduty_severity as AlertRecord['pagerdutySeverity'],
    opsgeniePriority: row.opsgenie_priority as AlertRecord['opsgeniePriority'],
    settleSeconds: row.settle_seconds === null || row.settle_seconds === undefined ? null : Number(row.settle_seconds),
    onNoData: (row.on_no_data ?? null) as AlertRecord['onNoData'],
    dependsOn: row.depends_on ? (JSON.parse(row.depends_on) as AlertRecord['dependsOn']) : null,
    status: row.status,
    currentlyTriggeredMetrics: JSON.parse(row.currently_triggered_metrics) as string[],
    mutedUntil: row.muted_until,
    evalState: row.eval_state,
    createdAt: row.created_at,
    escalation: JSON.parse(row.escalation ?? '[]') as AlertRecord['escalation'],
    acknowledgement: acknowledgementFromRow(row),
  };
}

/** The columns an alert write sets, in the order of alertWriteValues. */
export const ALERT_WRITE_COLUMNS = [
  'name',
  'metric',
  'alert_criteria',
  'additional_criteria',
  'expression',
  'notification_type',
  'info',
  'on_query_failure',
  'escalation',
  'flap_guard',
  'pagerduty_severity',
  'opsgenie_priority',
  'settle_seconds',
  'on_no_data',
  'depends_on',
] as const;

/** The column values of an alert write, in the order of ALERT_WRITE_COLUMNS. */
export function alertWriteValues(alert: AlertWrite): unknown[] {
  return [
    alert.name,
    alert.metric,
    JSON.stringify(alert.alertCriteria),
    JSON.stringify(alert.additionalCriteria),
    alert.expression,
    JSON.stringify(alert.notificationType),
    alert.info,
    alert.onQueryFailure,
    JSON.stringify(alert.escalation ?? []),
    alert.flapGuard ? JSON.stringify(alert.flapGuard) : null,
    alert.pagerdutySeverity ?? null,
    alert.opsgeniePriority ?? null,
    alert.settleSeconds ?? null,
    alert.onNoData ?? null,
    alert.dependsOn && alert.dependsOn.length > 0 ? JSON.stringify(alert.dependsOn) : null,
  ];
}

/** An alert's id and its depends_on column. */
export interface DependsOnRow {
  id: string;
  depends_on: string;
}

/** A depends_on column without one parent (NULL when none is left). */
export function withoutParent(dependsOn: string, parentId: string): string | null {
  const left = (JSON.parse(dependsOn) as { alert: string }[]).filter((edge) => edge.alert !== parentId);
  return left.length > 0 ? JSON.stringify(left) : null;
}

// Channels ----------------------------------------------------------------------------------------------------------

/** A row of the channels table. */
export interface ChannelRow {
  id: string;
  account_id: string;
  type: string;
  description: string;
  destination: string;
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  auto_resolve: number | boolean;
  last_error: string | null;
  /** JSON, or null: none (noise control). */
  throttle: string | null;
  /** JSON {title?, body?}; null: the default message. */
  template: string | null;
  /** JSON, or null: no grouping. */
  group_by?: string | null;
}

export function channelFromRow(row: ChannelRow): ChannelRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    type: row.type as ChannelRecord['type'],
    description: row.description,
    destination: row.destination,
    autoResolve: row.auto_resolve === 1 || row.auto_resolve === true,
    lastError: row.last_error === null ? null : (JSON.parse(row.last_error) as ChannelRecord['lastError']),
    throttle: row.throttle ? (JSON.parse(row.throttle) as ChannelRecord['throttle']) : null,
    template: row.template ? (JSON.parse(row.template) as ChannelRecord['template']) : null,
    groupBy: row.group_by ? (JSON.parse(row.group_by) as ChannelRecord['groupBy']) : null,
  };
}

/** A channel write's throttle column: JSON, or null when none. */
export function throttleText(channel: ChannelWrite): string | null {
  return channel.throttle ? JSON.stringify(channel.throttle) : null;
}

/** A channel write's group_by column: JSON, or NULL when it does not group. */
export function groupByColumn(channel: ChannelWrite): string | null {
  return channel.groupBy ? JSON.stringify(channel.groupBy) : null;
}

/** A channel write's template column: JSON, or NULL for the default message. */
export function templateColumn(channel: ChannelWrite): string | null {
  return channel.template ? JSON.stringify(channel.template) : null;
}

// Schedules ---------------------------------------------------------------------------------------------------------

/** A row of the schedules table. */
export interface ScheduleRow {
  id: string;
  account_id: string;
  name: string;
  start_time: string;
  duration: number;
  timezone: string;
  repeat_days: string;
  anchor: number;
}

/** Schedules with the ids of the alerts that reference them (links ordered by alert creation). */
export function scheduleFromRows(rows: ScheduleRow[], links: { schedule_id: string; alert_id: string }[]): ScheduleRecord[] {
  const alerts = new Map<string, string[]>();
  for (const link of links) {
    const list = alerts.get(link.schedule_id);
    if (list) list.push(link.alert_id);
    else alerts.set(link.schedule_id, [link.alert_id]);
  }
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    startTime: row.start_time,
    duration: row.duration,
    timezone: row.timezone,
    repeat: JSON.parse(row.repeat_days) as ScheduleRecord['repeat'],
    anchor: row.anchor,
    alerts: alerts.get(row.id) ?? [],
  }));
}

/** The column values of a schedule write: name, start_time, duration, timezone, repeat_days, anchor. */
export function scheduleValues(schedule: ScheduleWrite): unknown[] {
  return [schedule.name, schedule.startTime, schedule.duration, schedule.timezone, JSON.stringify(schedule.repeat), schedule.anchor];
}

// History -----------------------------------------------------------------------------------------------------------

/** A public history row (HISTORY_COLUMNS). */
export interface HistoryRow {
  alert_id: string;
  status: string;
  value: number | null;
  time: number;
  metric: string;
}

export const HISTORY_COLUMNS = 'alert_id, status, value, time, metric';

export function historyFromRow(row: HistoryRow): HistoryRecord {
  return { alertId: row.alert_id, status: row.status, value: row.value, time: row.time, metric: row.metric };
}

/** A history row joined with its channel (LEFT JOIN: a deleted channel leaves its entries without one). */
export interface TimelineRow {
  status: string;
  time: number;
  metric: string;
  value: number | null;
  channel_id: string | null;
  type: string | null;
  description: string | null;
  reason: string | null;
  actor?: string | null;
}

/** A timeline row as a record (both stores' rows have the same shape). */
export function timelineFromRow(row: TimelineRow): TimelineRecord {
  return {
    kind: row.status,
    time: Number(row.time),
    metric: row.metric,
    value: row.value,
    channel: row.channel_id !== null && row.type !== null ? { id: row.channel_id, type: row.type, description: row.description ?? '' } : null,
    reason: row.reason,
    by: row.actor ?? null,
  };
}

/** The throttle a summary describes: the channel's, or (removed since) one of the window's length. */
export function channelThrottle(text: string | null, startedAt: number, endsAt: number): ChannelThrottle {
  if (text) return JSON.parse(text) as ChannelThrottle;
  return { max_notifications: 0, window_minutes: Math.round((endsAt - startedAt) / 60_000) };
}
