import { createId } from '../../ids.js';
import type { Page, ScheduleQuery, ScheduleRecord, ScheduleWrite } from '../store.js';
import { scheduleFromRows, scheduleValues, type ScheduleRow } from '../row-mappers.js';
import type { PgDatabase, Queryable } from './pg-database.js';
import { SqlBuilder, unique } from './sql.js';

/** The columns of a ScheduleRow. */
export const SCHEDULE_COLUMNS = 'id, account_id, name, start_time, duration, timezone, repeat_days, anchor';

/** ScheduleStore.createSchedule on PostgreSQL: UniqueViolation when the account has a schedule of that name. */
export async function createSchedule(db: PgDatabase, accountId: string, schedule: ScheduleWrite): Promise<ScheduleRecord> {
  const id = createId();
  await unique('name', schedule.name, () =>
    db.query(
      `INSERT INTO schedules (id, account_id, name, start_time, duration, timezone, repeat_days, anchor)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, accountId, ...scheduleValues(schedule)],
    ),
  );
  return (await getSchedule(db, accountId, id))!;
}

export async function getSchedule(db: PgDatabase, accountId: string, id: string): Promise<ScheduleRecord | null> {
  return (await getSchedulesByIds(db, accountId, [id]))[0] ?? null;
}

/** The account's schedules among `ids`, oldest first (unknown ids are simply absent). */
export async function getSchedulesByIds(db: PgDatabase, accountId: string, ids: string[]): Promise<ScheduleRecord[]> {
  const rows = await db.query<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE account_id = $1 AND id = ANY($2) ORDER BY seq`, [
    accountId,
    ids,
  ]);
  return schedulesWithAlerts(db, rows);
}

export async function updateSchedule(db: PgDatabase, accountId: string, id: string, schedule: ScheduleWrite): Promise<ScheduleRecord | null> {
  const updated = await unique('name', schedule.name, () =>
    db.query(
      `UPDATE schedules SET name = $1, start_time = $2, duration = $3, timezone = $4, repeat_days = $5, anchor = $6
       WHERE account_id = $7 AND id = $8 RETURNING id`,
      [...scheduleValues(schedule), accountId, id],
    ),
  );
  return updated.length > 0 ? getSchedule(db, accountId, id) : null;
}

/** ScheduleStore.deleteSchedule: the alerts' links go with it (ON DELETE CASCADE). */
export async function deleteSchedule(db: PgDatabase, accountId: string, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM schedules WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id])).length > 0;
}

/** ScheduleStore.searchSchedules: every given criterion ORed (the public docs' semantics), oldest first, one page. */
export async function searchSchedules(db: PgDatabase, accountId: string, query: ScheduleQuery): Promise<Page<ScheduleRecord>> {
  const sql = new SqlBuilder([accountId]);
  // The given filters are ORed, as on SQLite; repeat matches a schedule repeating on any of the days.
  const criteria: Array<[(param: string) => string, readonly (string | number)[], string]> = [
    [(param) => `name = ANY(${param})`, query.names, 'text'],
    [(param) => `id = ANY(${param})`, query.ids, 'text'],
    [(param) => `duration = ANY(${param})`, query.durations, 'int'],
    [(param) => `start_time = ANY(${param})`, query.startTimes, 'text'],
    [(param) => `timezone = ANY(${param})`, query.timezones, 'text'],
    [(param) => `EXISTS (SELECT 1 FROM json_array_elements_text(repeat_days::json) d WHERE d = ANY(${param}))`, query.repeat, 'text'],
  ];
  const given = criteria.filter(([, values]) => values.length > 0);
  const filter = given.length
    ? ` AND (${given.map(([condition, values, type]) => condition(`${sql.param(values)}::${type}[]`)).join(' OR ')})`
    : '';
  const rows = await db.query<ScheduleRow>(
    `SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE account_id = $1${filter} ORDER BY seq
     LIMIT ${sql.param(query.max + 1)} OFFSET ${sql.param((query.page - 1) * query.max)}`,
    sql.params,
  );
  return { items: await schedulesWithAlerts(db, rows.slice(0, query.max)), nextPage: rows.length > query.max };
}

/** Schedule rows as records, with the ids of the alerts that reference them (one query for the batch). */
async function schedulesWithAlerts(db: Queryable, rows: ScheduleRow[]): Promise<ScheduleRecord[]> {
  if (rows.length === 0) return [];
  const links = await db.query<{ schedule_id: string; alert_id: string }>(
    `SELECT s.schedule_id, s.alert_id FROM alert_schedules s JOIN alerts a ON a.id = s.alert_id
     WHERE s.schedule_id = ANY($1) ORDER BY a.seq`,
    [rows.map((row) => row.id)],
  );
  return scheduleFromRows(rows, links);
}
