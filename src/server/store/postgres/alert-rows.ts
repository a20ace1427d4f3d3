import { createId } from '../../ids.js';
import type { AlertQuery, AlertRecord, AlertSelector, AlertWrite, Page, SelectResult } from '../store.js';
import { ALERT_WRITE_COLUMNS, alertFromRow, alertWriteValues, type AlertRow } from '../row-mappers.js';
import { POSTGRES_SUMMARY_SQL, toAlertSummaries, toStateFactsGroups, type AlertSummary, type AlertSummaryRow, type StateFactsGroup } from '../alert-summary.js';
import type { PgDatabase, Queryable } from './pg-database.js';
import { SqlBuilder, unique } from './sql.js';
import { withoutParent, type DependsOnRow } from '../row-mappers.js';
import type { DependsOnItem } from '../../../model/types.js';

/** An alert row with its ordered channel and schedule links as two arrays: one round trip per read. */
export const ALERT_COLUMNS = `a.id, a.account_id, a.name, a.metric, a.alert_criteria, a.additional_criteria, a.expression,
  a.notification_type, a.info, a.on_query_failure, a.flap_guard, a.pagerduty_severity, a.opsgenie_priority, a.settle_seconds,
  a.status, a.currently_triggered_metrics, a.muted_until, a.eval_state, a.created_at, a.escalation, a.ack_by, a.ack_note, a.ack_at,
  a.notification_type, a.info, a.on_query_failure, a.flap_guard, a.pagerduty_severity, a.opsgenie_priority, a.on_no_data, a.depends_on, a.status,
  a.currently_triggered_metrics, a.muted_until, a.eval_state, a.created_at, a.escalation, a.ack_by, a.ack_note, a.ack_at,
  a.ack_until,
  ARRAY(SELECT channel_id FROM alert_channels WHERE alert_id = a.id ORDER BY position) AS channel_ids,
  ARRAY(SELECT schedule_id FROM alert_schedules WHERE alert_id = a.id ORDER BY position) AS schedule_ids`;

/** An alert row as ALERT_COLUMNS selects it. */
export type LinkedAlertRow = AlertRow & { channel_ids: string[]; schedule_ids: string[] };

/** Rows (with their link arrays) into records. */
function toAlertRecords(rows: LinkedAlertRow[]): AlertRecord[] {
  return rows.map((row) => alertFromRow(row, row.channel_ids, row.schedule_ids));
}

/** Store.createAlert: UniqueViolation on a name clash. */
export async function createAlert(db: PgDatabase, accountId: string, alert: AlertWrite): Promise<AlertRecord> {
  const id = createId();
  const values = [id, accountId, ...alertWriteValues(alert), new Date().toISOString()];
  const sql = new SqlBuilder([...values]);
  const channels = sql.param([...new Set(alert.notificationChannels)]);
  const schedules = sql.param([...new Set(alert.scheduledMutes)]);
  // One statement (atomic by itself): the alert and its ordered links, one round trip instead of a transaction's
  // five. The links' foreign keys are checked at the end of the statement, when the new alert is there.
  await unique('name', alert.name, () =>
    db.query(
      `WITH new_alert AS (
         INSERT INTO alerts (id, account_id, ${ALERT_WRITE_COLUMNS.join(', ')}, created_at)
         VALUES (${values.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING id
       ), linked_channels AS (
         INSERT INTO alert_channels (alert_id, channel_id, position)
         SELECT new_alert.id, ref, position - 1 FROM new_alert, unnest(${channels}::text[]) WITH ORDINALITY AS t(ref, position)
       ), linked_schedules AS (
         INSERT INTO alert_schedules (alert_id, schedule_id, position)
         SELECT new_alert.id, ref, position - 1 FROM new_alert, unnest(${schedules}::text[]) WITH ORDINALITY AS t(ref, position)
       )
       SELECT id FROM new_alert`,
      sql.params,
    ),
  );
  return (await getAlert(db, accountId, id))!;
}

export async function getAlert(db: Queryable, accountId: string, id: string): Promise<AlertRecord | null> {
  const rows = await db.query<LinkedAlertRow>(`SELECT ${ALERT_COLUMNS} FROM alerts a WHERE a.account_id = $1 AND a.id = $2`, [accountId, id]);
  return toAlertRecords(rows)[0] ?? null;
}

/** Store.updateAlert: every writable field and the links in one transaction; null when the alert does not exist. */
export async function updateAlert(db: PgDatabase, accountId: string, id: string, alert: AlertWrite): Promise<AlertRecord | null> {
  const values = alertWriteValues(alert);
  const changed = await unique('name', alert.name, () =>
    db.transaction(async (tx) => {
      const updated = await tx.query(
        `UPDATE alerts SET ${ALERT_WRITE_COLUMNS.map((column, index) => `${column} = $${index + 1}`).join(', ')}
         WHERE account_id = $${values.length + 1} AND id = $${values.length + 2} RETURNING id`,
        [...values, accountId, id],
      );
      if (updated.length === 0) return false;
      await writeAlertLinks(tx, id, alert);
      return true;
    }),
  );
  return changed ? getAlert(db, accountId, id) : null;
}

/** Store.deleteAlert: the alert leaves the depends_on of its children (as a deleted channel leaves its alerts). */
export async function deleteAlert(db: PgDatabase, accountId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    if ((await tx.query('DELETE FROM alerts WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id])).length === 0) return false;
    const children = await tx.query<DependsOnRow>('SELECT id, depends_on FROM alerts WHERE account_id = $1 AND strpos(depends_on, $2) > 0 FOR UPDATE', [accountId, id]);
    for (const child of children) await tx.query('UPDATE alerts SET depends_on = $1 WHERE id = $2', [withoutParent(child.depends_on, id), child.id]);
    return true;
  });
}

/** Store.listDependencies: the account's alerts that have parents. */
export async function listDependencies(db: PgDatabase, accountId: string): Promise<{ id: string; dependsOn: DependsOnItem[] }[]> {
  const rows = await db.query<DependsOnRow>('SELECT id, depends_on FROM alerts WHERE account_id = $1 AND depends_on IS NOT NULL', [accountId]);
  return rows.map((row) => ({ id: row.id, dependsOn: JSON.parse(row.depends_on) as DependsOnItem[] }));
}

/** Store.searchAlerts: (names OR ids) AND search, oldest first, one page (max + 1 rows tell whether more follow). */
export async function searchAlerts(db: PgDatabase, accountId: string, query: AlertQuery): Promise<Page<AlertRecord>> {
  const sql = new SqlBuilder([accountId]);
  const where = ['a.account_id = $1'];
  if (query.names.length > 0 || query.ids.length > 0) {
    where.push(`(a.name = ANY(${sql.param(query.names)}) OR a.id = ANY(${sql.param(query.ids)}))`);
  }
  if (query.search) where.push(alertSearchCondition(sql, query.search));
  const rows = await db.query<LinkedAlertRow>(
    `SELECT ${ALERT_COLUMNS} FROM alerts a WHERE ${where.join(' AND ')} ORDER BY a.seq
     LIMIT ${sql.param(query.max + 1)} OFFSET ${sql.param((query.page - 1) * query.max)}`,
    sql.params,
  );
  return { items: toAlertRecords(rows.slice(0, query.max)), nextPage: rows.length > query.max };
}

/** Store.setMutedUntil: in one transaction; nothing changes when a listed id is unknown. */
export async function setMutedUntil(db: PgDatabase, accountId: string, selector: AlertSelector, mutedUntil: number | null): Promise<SelectResult> {
  return db.transaction(async (tx) => {
    const selected = await selectAlerts(tx, accountId, selector);
    if (selected.missing.length > 0) return selected;
    await tx.query('UPDATE alerts SET muted_until = $1 WHERE account_id = $2 AND id = ANY($3)', [mutedUntil, accountId, selected.ids]);
    return selected;
  });
}

/** Union of the listed ids and the search matches, oldest first; both empty selects every alert. */
async function selectAlerts(db: Queryable, accountId: string, selector: AlertSelector): Promise<SelectResult> {
  const listed = [...new Set(selector.ids)];
  const known = new Set(
    (await db.query<{ id: string }>('SELECT id FROM alerts WHERE account_id = $1 AND id = ANY($2)', [accountId, listed])).map((row) => row.id),
  );
  const missing = listed.filter((id) => !known.has(id));
  const sql = new SqlBuilder([accountId]);
  const conditions: string[] = [];
  if (listed.length > 0 || selector.search) {
    conditions.push(`a.id = ANY(${sql.param(listed)})`);
    if (selector.search) conditions.push(alertSearchCondition(sql, selector.search));
  }
  const rows = await db.query<{ id: string }>(
    `SELECT a.id FROM alerts a WHERE a.account_id = $1${conditions.length ? ` AND (${conditions.join(' OR ')})` : ''} ORDER BY a.seq`,
    sql.params,
  );
  return { ids: rows.map((row) => row.id), missing };
}

/**
 * A case-insensitive substring search over the alert's name, metric, its additional criteria's metrics and channel
 * descriptions (alias `a`). strpos() rather than LIKE, so `%` and `_` in the search are literal, as instr() on SQLite.
 */
function alertSearchCondition(sql: SqlBuilder, search: string): string {
  const needle = sql.param(search.toLowerCase());
  return `(strpos(lower(a.name), ${needle}) > 0 OR strpos(lower(a.metric), ${needle}) > 0 OR EXISTS (
            SELECT 1 FROM json_each(a.additional_criteria::json) extra
            WHERE strpos(lower(extra.value ->> 'metric'), ${needle}) > 0) OR EXISTS (
            SELECT 1 FROM alert_channels ac JOIN channels c ON c.id = ac.channel_id
            WHERE ac.alert_id = a.id AND strpos(lower(c.description), ${needle}) > 0))`;
}

/** Replaces an alert's channel and schedule links, keeping the given order (duplicates dropped, first wins). */
async function writeAlertLinks(tx: Queryable, alertId: string, alert: AlertWrite): Promise<void> {
  await tx.query('DELETE FROM alert_channels WHERE alert_id = $1', [alertId]);
  await tx.query('DELETE FROM alert_schedules WHERE alert_id = $1', [alertId]);
  const channels = [...new Set(alert.notificationChannels)];
  const schedules = [...new Set(alert.scheduledMutes)];
  if (channels.length > 0) {
    await tx.query(
      `INSERT INTO alert_channels (alert_id, channel_id, position)
       SELECT $1, ref, position - 1 FROM unnest($2::text[]) WITH ORDINALITY AS t(ref, position)`,
      [alertId, channels],
    );
  }
  if (schedules.length > 0) {
    await tx.query(
      `INSERT INTO alert_schedules (alert_id, schedule_id, position)
       SELECT $1, ref, position - 1 FROM unnest($2::text[]) WITH ORDINALITY AS t(ref, position)`,
      [alertId, schedules],
    );
  }
}

export async function listAlertSummaries(db: PgDatabase, accountId: string): Promise<AlertSummary[]> {
  const [rows, links] = await Promise.all([
    db.query<AlertSummaryRow>(POSTGRES_SUMMARY_SQL.alerts, [accountId]),
    db.query<{ alert_id: string; schedule_id: string }>(POSTGRES_SUMMARY_SQL.links, [accountId]),
  ]);
  return toAlertSummaries(rows, links);
}

export async function countAlertStateFacts(db: PgDatabase): Promise<StateFactsGroup[]> {
  return toStateFactsGroups(await db.query<AlertSummaryRow & { count: number }>(POSTGRES_SUMMARY_SQL.stateFacts));
}

export async function countAlertsByStatus(db: PgDatabase): Promise<Record<string, number>> {
  const rows = await db.query<{ status: string; count: number }>('SELECT status, count(*)::int AS count FROM alerts GROUP BY status');
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}
