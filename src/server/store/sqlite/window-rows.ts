import type { Database } from 'better-sqlite3';
import { createId } from '../../ids.js';
import type { Page } from '../store.js';
import { WINDOW_COLUMNS, windowFromRow, windowValues, type WindowQuery, type WindowRecord, type WindowRow, type WindowStore, type WindowWrite } from '../window-store.js';
import { windowMuteEntry, type WindowMute } from '../window-mutes.js';
import { appendHistory } from './history-rows.js';
import { unique } from './sql.js';

/** WindowStore.createWindow on SQLite: UniqueViolation when the account has a window of that name. */
export function createWindow(db: Database, accountId: string, window: WindowWrite): WindowRecord {
  const id = createId();
  unique('name', window.name, () =>
    db
      .prepare(
        `INSERT INTO maintenance_windows (id, account_id, name, reason, match, starts_at, start_time, repeat_days, timezone, duration,
           created_by, updated_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, accountId, window.name, ...windowValues(window), window.by, window.by, new Date().toISOString()),
  );
  return getWindow(db, accountId, id)!;
}

export function getWindow(db: Database, accountId: string, id: string): WindowRecord | null {
  const row = db.prepare(`SELECT ${WINDOW_COLUMNS} FROM maintenance_windows WHERE account_id = ? AND id = ?`).get(accountId, id) as WindowRow | undefined;
  return row ? windowFromRow(row) : null;
}

export function updateWindow(db: Database, accountId: string, id: string, window: WindowWrite): WindowRecord | null {
  const result = unique('name', window.name, () =>
    db
      .prepare(
        `UPDATE maintenance_windows SET name = ?, reason = ?, match = ?, starts_at = ?, start_time = ?, repeat_days = ?, timezone = ?,
           duration = ?, updated_by = ? WHERE account_id = ? AND id = ?`,
      )
      .run(window.name, ...windowValues(window), window.by, accountId, id),
  );
  return result.changes > 0 ? getWindow(db, accountId, id) : null;
}

export function deleteWindow(db: Database, accountId: string, id: string): boolean {
  return db.prepare('DELETE FROM maintenance_windows WHERE account_id = ? AND id = ?').run(accountId, id).changes > 0;
}

/** instr() rather than LIKE, so `%` and `_` in the search are literal. */
export function searchWindows(db: Database, accountId: string, query: WindowQuery): Page<WindowRecord> {
  const filter = query.search ? ` AND (instr(lower(name), ?) > 0 OR instr(lower(coalesce(reason, '')), ?) > 0)` : '';
  const needle = query.search?.toLowerCase();
  const rows = db
    .prepare(`SELECT ${WINDOW_COLUMNS} FROM maintenance_windows WHERE account_id = ?${filter} ORDER BY seq LIMIT ? OFFSET ?`)
    .all(accountId, ...(needle ? [needle, needle] : []), query.max + 1, (query.page - 1) * query.max) as WindowRow[];
  return { items: rows.slice(0, query.max).map(windowFromRow), nextPage: rows.length > query.max };
}

export function listWindows(db: Database, accountId: string): WindowRecord[] {
  const rows = db.prepare(`SELECT ${WINDOW_COLUMNS} FROM maintenance_windows WHERE account_id = ? ORDER BY seq`).all(accountId) as WindowRow[];
  return rows.map(windowFromRow);
}

/** Every account's windows, for the evaluator's listing (read in its snapshot). */
export function listAllWindows(db: Database): WindowRecord[] {
  return (db.prepare(`SELECT ${WINDOW_COLUMNS} FROM maintenance_windows ORDER BY seq`).all() as WindowRow[]).map(windowFromRow);
}

/**
 * Records the mutes of window episodes: each (window, alert) pair's episode once, with its history entry
 * (`muted_by_window`); a pair already recorded for that episode (or a later one), or whose window or alert is gone,
 * is left alone.
 */
export function recordWindowMutes(db: Database, mutes: readonly WindowMute[]): void {
  const upsert = db.prepare(
    `INSERT INTO window_mutes (window_id, alert_id, started_at)
     SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM maintenance_windows WHERE id = ?) AND EXISTS (SELECT 1 FROM alerts WHERE id = ?)
     ON CONFLICT (window_id, alert_id) DO UPDATE SET started_at = excluded.started_at WHERE started_at < excluded.started_at`,
  );
  db.transaction(() => {
    const fresh = mutes.filter((mute) => upsert.run(mute.id, mute.alertId, mute.startedAt, mute.id, mute.alertId).changes > 0);
    appendHistory(db, fresh.map(windowMuteEntry));
  })();
}

/** The `windows` concern on SQLite. */
export function sqliteWindowStore(db: Database): WindowStore {
  return {
    createWindow: async (accountId, window) => createWindow(db, accountId, window),
    getWindow: async (accountId, id) => getWindow(db, accountId, id),
    updateWindow: async (accountId, id, window) => updateWindow(db, accountId, id, window),
    deleteWindow: async (accountId, id) => deleteWindow(db, accountId, id),
    searchWindows: async (accountId, query) => searchWindows(db, accountId, query),
    listWindows: async (accountId) => listWindows(db, accountId),
  };
}
