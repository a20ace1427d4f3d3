import type { WindowMatch } from '../../model/maintenance-window.js';
import type { Weekday } from '../../model/types.js';
import type { Page } from './store.js';

/**
 * Maintenance windows (the store's `windows` concern): an account's windows, read and written by the API. The
 * evaluator reads every account's windows inside its own listing (evaluation-rows.ts), in the same snapshot.
 */
export interface WindowStore {
  /** Throws UniqueViolation when the account has a window of that name. */
  createWindow(accountId: string, window: WindowWrite): Promise<WindowRecord>;
  getWindow(accountId: string, id: string): Promise<WindowRecord | null>;
  /** Replaces every writable field; null when the window does not exist. Throws UniqueViolation on a rename clash. */
  updateWindow(accountId: string, id: string, window: WindowWrite): Promise<WindowRecord | null>;
  deleteWindow(accountId: string, id: string): Promise<boolean>;
  /** Oldest first, one page; `search`: a case-insensitive substring of the name or the reason. */
  searchWindows(accountId: string, query: WindowQuery): Promise<Page<WindowRecord>>;
  /** Every window of the account, oldest first (at most the per-account cap). */
  listWindows(accountId: string): Promise<WindowRecord[]>;
}

/** What the server writes for a window: validated, channel refs resolved to ids. */
export interface WindowWrite {
  name: string;
  reason: string | null;
  /** The model's keys (snake_case, as the API's); `channels` are ids. */
  match: WindowMatch;
  /** ISO 8601 with an offset (a one-off window), or null (a recurring one). */
  startsAt: string | null;
  startTime: string | null;
  repeat: Weekday[] | null;
  timezone: string;
  /** Minutes. */
  duration: number;
  /** Who writes it: the created_by of a new window, the updated_by of every write. */
  by: string;
}

export interface WindowRecord extends Omit<WindowWrite, 'by'> {
  id: string;
  accountId: string;
  createdBy: string;
  updatedBy: string;
}

export interface WindowQuery {
  search: string | null;
  page: number;
  max: number;
}

/** A window's row (both databases: JSON as text). */
export interface WindowRow {
  id: string;
  account_id: string;
  name: string;
  reason: string | null;
  match: string;
  starts_at: string | null;
  start_time: string | null;
  repeat_days: string | null;
  timezone: string;
  duration: number;
  created_by: string;
  updated_by: string;
}

export const WINDOW_COLUMNS = 'id, account_id, name, reason, match, starts_at, start_time, repeat_days, timezone, duration, created_by, updated_by';

export function windowFromRow(row: WindowRow): WindowRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    reason: row.reason,
    match: JSON.parse(row.match) as WindowMatch,
    startsAt: row.starts_at,
    startTime: row.start_time,
    repeat: row.repeat_days === null ? null : (JSON.parse(row.repeat_days) as Weekday[]),
    timezone: row.timezone,
    duration: Number(row.duration),
    createdBy: row.created_by,
    updatedBy: row.updated_by,
  };
}

/** The written columns after name, in order: reason, match, starts_at, start_time, repeat_days, timezone, duration. */
export function windowValues(window: WindowWrite): unknown[] {
  return [
    window.reason,
    JSON.stringify(window.match),
    window.startsAt,
    window.startTime,
    window.repeat === null ? null : JSON.stringify(window.repeat),
    window.timezone,
    window.duration,
  ];
}

/** A window that mutes an alert now, as the evaluator and the mute status name it. */
export interface MutingWindow {
  id: string;
  name: string;
  /** Epoch ms: the start of the occurrence (the episode) that mutes now, and its end. */
  startedAt: number;
  until: number;
}
