import type { Database } from 'better-sqlite3';
import { createId } from '../../ids.js';
import type { AlertQuery, AlertRecord, AlertSelector, AlertWrite, Page, SelectResult } from '../store.js';
import { ALERT_WRITE_COLUMNS, alertFromRow, alertWriteValues, type AlertRow } from '../row-mappers.js';
import { SQLITE_SUMMARY_SQL, toAlertSummaries, toStateFactsGroups, type AlertSummary, type AlertSummaryRow, type StateFactsGroup } from '../alert-summary.js';
import { json, unique } from './sql.js';
import { withoutParent, type DependsOnRow } from '../row-mappers.js';
import type { DependsOnItem } from '../../../model/types.js';

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

/** A row of alert_channels or alert_schedules, its channel or schedule id as `ref`. */
export type LinkRow = { alert_id: string; ref: string };

/** Link rows, in their order, grouped by alert. */
export function groupLinks(rows: LinkRow[]): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const row of rows) {
    const list = grouped.get(row.alert_id);
    if (list) list.push(row.ref);
    else grouped.set(row.alert_id, [row.ref]);
  }
  return grouped;
}

/** Replaces an alert's channel and schedule links, keeping the given order. */
function writeAlertLinks(db: Database, alertId: string, alert: AlertWrite): void {
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
function alertSearchCondition(search: string): { sql: string; params: unknown[] } {
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

// The Store's alert methods on SQLite ---------------------------------------------------------------------------------

/** Store.createAlert: the alert and its ordered links in one transaction; UniqueViolation on a name clash. */
export function createAlert(db: Database, accountId: string, alert: AlertWrite): AlertRecord {
  const id = createId();
  unique('name', alert.name, () =>
    db.transaction(() => {
      db.prepare(
        `INSERT INTO alerts (id, account_id, ${ALERT_WRITE_COLUMNS.join(', ')}, created_at)
         VALUES (?, ?, ${ALERT_WRITE_COLUMNS.map(() => '?').join(', ')}, ?)`,
      ).run(id, accountId, ...alertWriteValues(alert), new Date().toISOString());
      writeAlertLinks(db, id, alert);
    })(),
  );
  return getAlert(db, accountId, id)!;
}

export function getAlert(db: Database, accountId: string, id: string): AlertRecord | null {
  // One statement for the alert and its ordered links (the read of one alert is the API's most frequent call).
  const row = db.prepare(`SELECT ${WITH_LINKS} FROM alerts a WHERE a.account_id = ? AND a.id = ?`).get(accountId, id) as LinkedRow | undefined;
  return row ? fromLinkedRow(row) : null;
}

/**
 * An alert row with its ordered links as JSON arrays: one statement instead of the row(s) and loadAlertRecords'
 * two json_each queries (bench:server: 19 -> 11 us for one alert read in process).
 */
const WITH_LINKS = `a.*,
  (SELECT json_group_array(channel_id ORDER BY position) FROM alert_channels WHERE alert_id = a.id) AS linked_channels,
  (SELECT json_group_array(schedule_id ORDER BY position) FROM alert_schedules WHERE alert_id = a.id) AS linked_schedules`;
type LinkedRow = AlertRow & { linked_channels: string; linked_schedules: string };
const fromLinkedRow = (row: LinkedRow) =>
  alertFromRow(row, JSON.parse(row.linked_channels) as string[], JSON.parse(row.linked_schedules) as string[]);

/** Store.updateAlert: every writable field and the links; null when the alert does not exist. */
export function updateAlert(db: Database, accountId: string, id: string, alert: AlertWrite): AlertRecord | null {
  const changed = unique('name', alert.name, () =>
    db.transaction(() => {
      const result = db
        .prepare(`UPDATE alerts SET ${ALERT_WRITE_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE account_id = ? AND id = ?`)
        .run(...alertWriteValues(alert), accountId, id);
      if (result.changes === 0) return false;
      writeAlertLinks(db, id, alert);
      return true;
    })(),
  );
  return changed ? getAlert(db, accountId, id) : null;
}

/** Store.deleteAlert: the alert leaves the depends_on of its children (as a deleted channel leaves its alerts). */
export function deleteAlert(db: Database, accountId: string, id: string): boolean {
  return db.transaction(() => {
    if (db.prepare('DELETE FROM alerts WHERE account_id = ? AND id = ?').run(accountId, id).changes === 0) return false;
    const children = db.prepare('SELECT id, depends_on FROM alerts WHERE account_id = ? AND instr(depends_on, ?) > 0').all(accountId, id) as DependsOnRow[];
    const write = db.prepare('UPDATE alerts SET depends_on = ? WHERE id = ?');
    for (const child of children) write.run(withoutParent(child.depends_on, id), child.id);
    return true;
  })();
}

/** Store.listDependencies: the account's alerts that have parents. */
export function listDependencies(db: Database, accountId: string): { id: string; dependsOn: DependsOnItem[] }[] {
  const rows = db.prepare('SELECT id, depends_on FROM alerts WHERE account_id = ? AND depends_on IS NOT NULL').all(accountId) as DependsOnRow[];
  return rows.map((row) => ({ id: row.id, dependsOn: JSON.parse(row.depends_on) as DependsOnItem[] }));
}

/** Store.searchAlerts: (names OR ids) AND search, oldest first, one page (max + 1 rows tell whether more follow). */
export function searchAlerts(db: Database, accountId: string, query: AlertQuery): Page<AlertRecord> {
  const where = ['a.account_id = ?'];
  const params: unknown[] = [accountId];
  if (query.names.length > 0 || query.ids.length > 0) {
    where.push('(a.name IN (SELECT value FROM json_each(?)) OR a.id IN (SELECT value FROM json_each(?)))');
    params.push(json(query.names), json(query.ids));
  }
  if (query.search) {
    const condition = alertSearchCondition(query.search);
    where.push(condition.sql);
    params.push(...condition.params);
  }
  const rows = db
    .prepare(`SELECT ${WITH_LINKS} FROM alerts a WHERE ${where.join(' AND ')} ORDER BY a.seq LIMIT ? OFFSET ?`)
    .all(...params, query.max + 1, (query.page - 1) * query.max) as LinkedRow[];
  return { items: rows.slice(0, query.max).map(fromLinkedRow), nextPage: rows.length > query.max };
}

/** Store.setMutedUntil: in one transaction; nothing changes when a listed id is unknown. */
export function setMutedUntil(db: Database, accountId: string, selector: AlertSelector, mutedUntil: number | null): SelectResult {
  return db.transaction(() => {
    const selected = selectAlerts(db, accountId, selector);
    if (selected.missing.length > 0) return selected;
    db.prepare('UPDATE alerts SET muted_until = ? WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))').run(
      mutedUntil,
      accountId,
      json(selected.ids),
    );
    return selected;
  })();
}

/** Union of the listed ids and the search matches, oldest first; both empty selects every alert. */
function selectAlerts(db: Database, accountId: string, selector: AlertSelector): SelectResult {
  const listed = [...new Set(selector.ids)];
  const known = new Set(
    db.prepare('SELECT id FROM alerts WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))').pluck().all(accountId, json(listed)) as string[],
  );
  const missing = listed.filter((id) => !known.has(id));
  const everything = listed.length === 0 && !selector.search;
  const conditions: string[] = [];
  const params: unknown[] = [accountId];
  if (!everything) {
    conditions.push('a.id IN (SELECT value FROM json_each(?))');
    params.push(json(listed));
    if (selector.search) {
      const condition = alertSearchCondition(selector.search);
      conditions.push(condition.sql);
      params.push(...condition.params);
    }
  }
  const ids = db
    .prepare(`SELECT a.id FROM alerts a WHERE a.account_id = ?${conditions.length ? ` AND (${conditions.join(' OR ')})` : ''} ORDER BY a.seq`)
    .pluck()
    .all(...params) as string[];
  return { ids, missing };
}

export function listAlertSummaries(db: Database, accountId: string): AlertSummary[] {
  const rows = db.prepare(SQLITE_SUMMARY_SQL.alerts).all(accountId) as AlertSummaryRow[];
  const links = db.prepare(SQLITE_SUMMARY_SQL.links).all(accountId) as { alert_id: string; schedule_id: string }[];
  return toAlertSummaries(rows, links);
}

export function countAlertStateFacts(db: Database): StateFactsGroup[] {
  return toStateFactsGroups(db.prepare(SQLITE_SUMMARY_SQL.stateFacts).all() as (AlertSummaryRow & { count: number })[]);
}

export function countAlertsByStatus(db: Database): Record<string, number> {
  const rows = db.prepare('SELECT status, COUNT(*) AS count FROM alerts GROUP BY status').all() as { status: string; count: number }[];
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}
