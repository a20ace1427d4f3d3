import type { Database } from 'better-sqlite3';
import type { AlertRecord, AlertWrite } from '../store.js';
import { alertFromRow, type AlertRow } from '../row-mappers.js';

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

function groupLinks(rows: { alert_id: string; ref: string }[]): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const row of rows) {
    const list = grouped.get(row.alert_id);
    if (list) list.push(row.ref);
    else grouped.set(row.alert_id, [row.ref]);
  }
  return grouped;
}

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
