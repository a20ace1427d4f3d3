import type { HistoryQuery, HistoryRecord, NewHistoryEntry } from '../store.js';
import { HISTORY_COLUMNS, historyFromRow, type HistoryRow } from '../row-mappers.js';
import { PUBLIC_HISTORY_STATUSES } from '../console-store.js';
import type { PgDatabase, Queryable } from './pg-database.js';
import { SqlBuilder } from './sql.js';

/** HistoryStore.searchHistory on PostgreSQL: entries of the account's alerts, newest first, the public kinds only. */
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

/** HistoryStore.appendHistory on PostgreSQL (and the round's and an acknowledgement's entries): one INSERT; the account is the alert's, and entries of deleted alerts are dropped. */
export async function appendHistory(db: Queryable, entries: NewHistoryEntry[]): Promise<void> {
  if (entries.length === 0) return;
  // WITH ORDINALITY keeps the given order in seq, which breaks ties between entries of one second.
  await db.query(
    `INSERT INTO history (account_id, alert_id, status, value, time, metric, channel_id, reason, actor)
     SELECT a.account_id, e.alert_id, e.status, e.value, e.time, e.metric, e.channel_id, e.reason, e.actor
     FROM unnest($1::text[], $2::text[], $3::float8[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[]) WITH ORDINALITY
       AS e(alert_id, status, value, time, metric, channel_id, reason, actor, n)
     JOIN alerts a ON a.id = e.alert_id ORDER BY e.n`,
    [
      entries.map((entry) => entry.alertId),
      entries.map((entry) => entry.status),
      entries.map((entry) => entry.value),
      entries.map((entry) => entry.time),
      entries.map((entry) => entry.metric),
      entries.map((entry) => entry.channelId ?? null),
      entries.map((entry) => entry.reason ?? null),
      entries.map((entry) => entry.actor ?? null),
    ],
  );
}
