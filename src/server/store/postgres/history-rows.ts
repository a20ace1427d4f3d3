import type { HistoryQuery, HistoryRecord } from '../store.js';
import { HISTORY_COLUMNS, historyFromRow, type HistoryRow } from '../row-mappers.js';
import { PUBLIC_HISTORY_STATUSES } from '../console-store.js';
import type { PgDatabase } from './pg-database.js';
import { SqlBuilder } from './sql.js';

/** Store.searchHistory on PostgreSQL: entries of the account's alerts, newest first, the public kinds only. */
export async function searchHistory(db: PgDatabase, accountId: string, query: HistoryQuery): Promise<HistoryRecord[]> {
  const sql = new SqlBuilder([accountId, query.since]);
  // The console's kinds (mutes, notifications) stay out of the public answer.
  const where = ['account_id = $1', 'time >= $2', `status = ANY(${sql.param([...PUBLIC_HISTORY_STATUSES])})`];
  if (query.alertIds.length) where.push(`alert_id = ANY(${sql.param(query.alertIds)})`);
  if (query.status !== null) where.push(`status = ${sql.param(query.status)}`);
  if (query.value !== null) where.push(`value = ${sql.param(query.value)}`);
  const rows = await db.query<HistoryRow>(
    `SELECT ${HISTORY_COLUMNS} FROM history WHERE ${where.join(' AND ')} ORDER BY time DESC, seq DESC`,
    sql.params,
  );
  return rows.map(historyFromRow);
}
