import type { Database } from 'better-sqlite3';
import type { AlertRecord, AlertWrite } from '../store.js';
import { acknowledgementFromRow } from '../ack-store.js';

/** A row of the alerts table as SQLite returns it. */
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
  status: string;
  currently_triggered_metrics: string;
  muted_until: number | null;
  eval_state: string | null;
  created_at: string;
  /** JSON of the escalation steps (migration of issue 22). */
  escalation: string;
  ack_by?: string | null;
  ack_note?: string | null;
  ack_at?: number | null;
  ack_until?: number | null;
}

/** Turns rows into records, loading their channel and schedule links in two queries for the whole batch. */
export function loadAlertRecords(db: Database, rows: AlertRow[]): AlertRecord[] {
  if (rows.length === 0) return [];
  const ids = JSON.stringify(rows.map((row) => row.id));
  const channels = groupLinks(
    db
      .prepare(
        `SELECT alert_id, channel_id AS ref FROM alert_channels
         WHERE alert_id IN (SELECT value FROM json_each(?)) ORDER BY alert_id, position`,
      )
      .all(ids) as { alert_id: string; ref: string }[],
  );
  const schedules = groupLinks(
    db
      .prepare(
        `SELECT alert_id, schedule_id AS ref FROM alert_schedules
         WHERE alert_id IN (SELECT value FROM json_each(?)) ORDER BY alert_id, position`,
      )
      .all(ids) as { alert_id: string; ref: string }[],
  );
  return rows.map((row) => alertFromRow(row, channels.get(row.id) ?? [], schedules.get(row.id) ?? []));
}

/** One alert row (as SQLite or PostgreSQL returns it) and its ordered links, as a record. */
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
    status: row.status,
    currentlyTriggeredMetrics: JSON.parse(row.currently_triggered_metrics) as string[],
    mutedUntil: row.muted_until,
    evalState: row.eval_state === null ? null : (JSON.parse(row.eval_state) as unknown),
    createdAt: row.created_at,
    escalation: JSON.parse(row.escalation ?? '[]') as AlertRecord['escalation'],
    acknowledgement: acknowledgementFromRow(row),
  };
}

function groupLinks(rows: { alert_id: string; ref: string }[]): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const row of rows) {
    const list = grouped.get(row.alert_id);
    if (list) list.push(row.ref);
    else grouped.set(row.alert_id, [row.ref]);
  }
  return grouped;
}

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
  ];
}

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
] as const;

/** Replaces an alert's channel and schedule links, keeping the given order. */
export function writeAlertLinks(db: Database, alertId: string, alert: AlertWrite): void {
  db.prepare('DELETE FROM alert_channels WHERE alert_id = ?').run(alertId);
  db.prepare('DELETE FROM alert_schedules WHERE alert_id = ?').run(alertId);
  const addChannel = db.prepare('INSERT INTO alert_channels (alert_id, channel_id, position) VALUES (?, ?, ?)');
  const addSchedule = db.prepare('INSERT INTO alert_schedules (alert_id, schedule_id, position) VALUES (?, ?, ?)');
  [...new Set(alert.notificationChannels)].forEach((id, position) => addChannel.run(alertId, id, position));
  [...new Set(alert.scheduledMutes)].forEach((id, position) => addSchedule.run(alertId, id, position));
}

/**
 * The SQL condition (on alias `a`) and parameters of a case-insensitive substring search over the alert's
 * name, metric, its additional criteria's metrics (as the public docs' search does) and channel descriptions.
 * instr() rather than LIKE, so `%` and `_` in the search are literal.
 */
export function alertSearchCondition(search: string): { sql: string; params: unknown[] } {
  const needle = search.toLowerCase();
  return {
    sql: `(instr(lower(a.name), ?) > 0 OR instr(lower(a.metric), ?) > 0 OR EXISTS (
            SELECT 1 FROM json_each(a.additional_criteria) extra
            WHERE instr(lower(json_extract(extra.value, '$.metric')), ?) > 0) OR EXISTS (
            SELECT 1 FROM alert_channels ac JOIN channels c ON c.id = ac.channel_id
            WHERE ac.alert_id = a.id AND instr(lower(c.description), ?) > 0))`,
    params: [needle, needle, needle, needle],
  };
}
