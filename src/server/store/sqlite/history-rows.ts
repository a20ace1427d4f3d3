import type { Database } from 'better-sqlite3';
import type { HistoryQuery, HistoryRecord, NewHistoryEntry } from '../store.js';
import { HISTORY_COLUMNS, historyFromRow, type HistoryRow } from '../row-mappers.js';
import { PUBLIC_HISTORY_STATUSES } from '../console-store.js';
import { json } from './sql.js';

/** HistoryStore.searchHistory on SQLite: entries of the account's alerts, newest first, the public kinds only. */
export function searchHistory(db: Database, accountId: string, query: HistoryQuery): HistoryRecord[] {
  // The console's kinds (mutes, notifications) stay out of the public answer.
  const where = ['account_id = ?', 'time >= ?', `status IN (${PUBLIC_HISTORY_STATUSES.map((s) => `'${s}'`).join(', ')})`];
  const params: unknown[] = [accountId, query.since];
  if (query.alertIds.length) {
    where.push('alert_id IN (SELECT value FROM json_each(?))');
    params.push(json(query.alertIds));
  }
  if (query.status !== null) {
    where.push('status = ?');
    params.push(query.status);
  }
  if (query.value !== null) {
    where.push('value = ?');
    params.push(query.value);
  }
  const rows = db
    .prepare(`SELECT ${HISTORY_COLUMNS} FROM history WHERE ${where.join(' AND ')} ORDER BY time DESC, seq DESC`)
    .all(...params) as HistoryRow[];
  return rows.map(historyFromRow);
}

const INSERT_HISTORY = `INSERT INTO history (account_id, alert_id, status, value, time, metric, channel_id, reason, actor)
  SELECT account_id, id, ?, ?, ?, ?, ?, ?, ? FROM alerts WHERE id = ?`;

/**
 * HistoryStore.appendHistory on SQLite (and the round's and an acknowledgement's entries): the account is the alert's, and
 * entries of deleted alerts are dropped. Called inside the caller's transaction when there is one.
 */
export function appendHistory(db: Database, entries: readonly NewHistoryEntry[]): void {
  const insert = db.prepare(INSERT_HISTORY);
  for (const entry of entries) {
    insert.run(entry.status, entry.value, entry.time, entry.metric, entry.channelId ?? null, entry.reason ?? null, entry.actor ?? null, entry.alertId);
  }
}
