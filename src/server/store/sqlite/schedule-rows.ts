import type { Database } from 'better-sqlite3';
import { createId } from '../../ids.js';
import type { Page, ScheduleQuery, ScheduleRecord, ScheduleWrite } from '../store.js';
import { scheduleFromRows, scheduleValues, type ScheduleRow } from '../row-mappers.js';
import { json, unique } from './sql.js';

/** ScheduleStore.createSchedule on SQLite: UniqueViolation when the account has a schedule of that name. */
export function createSchedule(db: Database, accountId: string, schedule: ScheduleWrite): ScheduleRecord {
  const id = createId();
  unique('name', schedule.name, () =>
    db
      .prepare(
        `INSERT INTO schedules (id, account_id, name, start_time, duration, timezone, repeat_days, anchor)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, accountId, ...scheduleValues(schedule)),
  );
  return getSchedule(db, accountId, id)!;
}

export function getSchedule(db: Database, accountId: string, id: string): ScheduleRecord | null {
  return getSchedulesByIds(db, accountId, [id])[0] ?? null;
}

/** The account's schedules among `ids`, oldest first (unknown ids are simply absent). */
export function getSchedulesByIds(db: Database, accountId: string, ids: string[]): ScheduleRecord[] {
  const rows = db
    .prepare('SELECT * FROM schedules WHERE account_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY seq')
    .all(accountId, json(ids)) as ScheduleRow[];
  return schedulesWithAlerts(db, rows);
}

export function updateSchedule(db: Database, accountId: string, id: string, schedule: ScheduleWrite): ScheduleRecord | null {
  const result = unique('name', schedule.name, () =>
    db
      .prepare(
        `UPDATE schedules SET name = ?, start_time = ?, duration = ?, timezone = ?, repeat_days = ?, anchor = ?
         WHERE account_id = ? AND id = ?`,
      )
      .run(...scheduleValues(schedule), accountId, id),
  );
  return result.changes > 0 ? getSchedule(db, accountId, id) : null;
}

/** ScheduleStore.deleteSchedule: the alerts' links go with it (ON DELETE CASCADE). */
export function deleteSchedule(db: Database, accountId: string, id: string): boolean {
  return db.prepare('DELETE FROM schedules WHERE account_id = ? AND id = ?').run(accountId, id).changes > 0;
}

/** ScheduleStore.searchSchedules: every given criterion ORed (the public docs' semantics), oldest first, one page. */
export function searchSchedules(db: Database, accountId: string, query: ScheduleQuery): Page<ScheduleRecord> {
  const params: unknown[] = [accountId];
  const criteria: Array<[string, readonly (string | number)[]]> = [
    ['name IN (SELECT value FROM json_each(?))', query.names],
    ['id IN (SELECT value FROM json_each(?))', query.ids],
    ['duration IN (SELECT value FROM json_each(?))', query.durations],
    ['start_time IN (SELECT value FROM json_each(?))', query.startTimes],
    ['timezone IN (SELECT value FROM json_each(?))', query.timezones],
    ['EXISTS (SELECT 1 FROM json_each(repeat_days) d WHERE d.value IN (SELECT value FROM json_each(?)))', query.repeat],
  ];
  const given = criteria.filter(([, values]) => values.length > 0);
  let filter = '';
  if (given.length > 0) {
    filter = ` AND (${given.map(([sql]) => sql).join(' OR ')})`;
    params.push(...given.map(([, values]) => json(values)));
  }
  const rows = db
    .prepare(`SELECT * FROM schedules WHERE account_id = ?${filter} ORDER BY seq LIMIT ? OFFSET ?`)
    .all(...params, query.max + 1, (query.page - 1) * query.max) as ScheduleRow[];
  return { items: schedulesWithAlerts(db, rows.slice(0, query.max)), nextPage: rows.length > query.max };
}

/** Schedule rows as records, with the ids of the alerts that reference them (one query for the batch). */
export function schedulesWithAlerts(db: Database, rows: ScheduleRow[]): ScheduleRecord[] {
  if (rows.length === 0) return [];
  const links = db
    .prepare(
      `SELECT s.schedule_id, s.alert_id FROM alert_schedules s JOIN alerts a ON a.id = s.alert_id
       WHERE s.schedule_id IN (SELECT value FROM json_each(?)) ORDER BY a.seq`,
    )
    .all(json(rows.map((row) => row.id))) as { schedule_id: string; alert_id: string }[];
  return scheduleFromRows(rows, links);
}
