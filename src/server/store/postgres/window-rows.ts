import { createId } from '../../ids.js';
import type { Page } from '../store.js';
import { WINDOW_COLUMNS, windowFromRow, windowValues, type WindowQuery, type WindowRecord, type WindowRow, type WindowStore, type WindowWrite } from '../window-store.js';
import { windowMuteEntry, type WindowMute } from '../window-mutes.js';
import { appendHistory } from './history-rows.js';
import type { PgDatabase, Queryable } from './pg-database.js';
import { unique } from './sql.js';

/** WindowStore.createWindow on PostgreSQL: UniqueViolation when the account has a window of that name. */
export async function createWindow(db: PgDatabase, accountId: string, window: WindowWrite): Promise<WindowRecord> {
  const id = createId();
  await unique('name', window.name, () =>
    db.query(
      `INSERT INTO maintenance_windows (id, account_id, name, reason, match, starts_at, start_time, repeat_days, timezone, duration,
         created_by, updated_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [id, accountId, window.name, ...windowValues(window), window.by, window.by, new Date().toISOString()],
    ),
  );
  return (await getWindow(db, accountId, id))!;
}

export async function getWindow(db: Queryable, accountId: string, id: string): Promise<WindowRecord | null> {
  const rows = await db.query<WindowRow>(`SELECT ${WINDOW_COLUMNS} FROM maintenance_windows WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return rows[0] ? windowFromRow(rows[0]) : null;
}

export async function updateWindow(db: PgDatabase, accountId: string, id: string, window: WindowWrite): Promise<WindowRecord | null> {
  const rows = await unique('name', window.name, () =>
    db.query(
      `UPDATE maintenance_windows SET name = $1, reason = $2, match = $3, starts_at = $4, start_time = $5, repeat_days = $6, timezone = $7,
         duration = $8, updated_by = $9 WHERE account_id = $10 AND id = $11 RETURNING id`,
      [window.name, ...windowValues(window), window.by, accountId, id],
    ),
  );
  return rows.length > 0 ? getWindow(db, accountId, id) : null;
}

export async function deleteWindow(db: PgDatabase, accountId: string, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM maintenance_windows WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id])).length > 0;
}

/** strpos() rather than LIKE, so `%` and `_` in the search are literal. */
export async function searchWindows(db: PgDatabase, accountId: string, query: WindowQuery): Promise<Page<WindowRecord>> {
  const filter = query.search ? ` AND (strpos(lower(name), $4) > 0 OR strpos(lower(coalesce(reason, '')), $4) > 0)` : '';
  const rows = await db.query<WindowRow>(
    `SELECT ${WINDOW_COLUMNS} FROM maintenance_windows WHERE account_id = $1${filter} ORDER BY seq LIMIT $2 OFFSET $3`,
    [accountId, query.max + 1, (query.page - 1) * query.max, ...(query.search ? [query.search.toLowerCase()] : [])],
  );
  return { items: rows.slice(0, query.max).map(windowFromRow), nextPage: rows.length > query.max };
}

export async function listWindows(db: PgDatabase, accountId: string): Promise<WindowRecord[]> {
  const rows = await db.query<WindowRow>(`SELECT ${WINDOW_COLUMNS} FROM maintenance_windows WHERE account_id = $1 ORDER BY seq`, [accountId]);
  return rows.map(windowFromRow);
}

/** Every account's windows, for the evaluator's listing (read in its snapshot). */
export async function listAllWindows(tx: Queryable): Promise<WindowRecord[]> {
  return (await tx.query<WindowRow>(`SELECT ${WINDOW_COLUMNS} FROM maintenance_windows ORDER BY seq`)).map(windowFromRow);
}

/**
 * Records the mutes of window episodes: each (window, alert) pair's episode once across replicas (the pair's row),
 * with its history entry (`muted_by_window`); pairs whose window or alert is gone are left out.
 */
export async function recordWindowMutes(db: PgDatabase, mutes: readonly WindowMute[]): Promise<void> {
  if (mutes.length === 0) return;
  await db.transaction(async (tx) => {
    const fresh = await tx.query<{ window_id: string; alert_id: string }>(
      `INSERT INTO window_mutes (window_id, alert_id, started_at)
       SELECT m.window_id, m.alert_id, m.started_at
       FROM unnest($1::text[], $2::text[], $3::bigint[]) AS m(window_id, alert_id, started_at)
       JOIN maintenance_windows w ON w.id = m.window_id JOIN alerts a ON a.id = m.alert_id
       ON CONFLICT (window_id, alert_id) DO UPDATE SET started_at = EXCLUDED.started_at WHERE window_mutes.started_at < EXCLUDED.started_at
       RETURNING window_id, alert_id`,
      [mutes.map((mute) => mute.id), mutes.map((mute) => mute.alertId), mutes.map((mute) => mute.startedAt)],
    );
    const recorded = new Set(fresh.map((row) => `${row.window_id} ${row.alert_id}`));
    await appendHistory(tx, mutes.filter((mute) => recorded.has(`${mute.id} ${mute.alertId}`)).map(windowMuteEntry));
  });
}

/** The `windows` concern on PostgreSQL. */
export function postgresWindowStore(db: PgDatabase): WindowStore {
  return {
    createWindow: (accountId, window) => createWindow(db, accountId, window),
    getWindow: (accountId, id) => getWindow(db, accountId, id),
    updateWindow: (accountId, id, window) => updateWindow(db, accountId, id, window),
    deleteWindow: (accountId, id) => deleteWindow(db, accountId, id),
    searchWindows: (accountId, query) => searchWindows(db, accountId, query),
    listWindows: (accountId) => listWindows(db, accountId),
  };
}
