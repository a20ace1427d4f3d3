import type { Weekday } from '../../model/types.js';
import type { Page } from './page.js';

/** An account's scheduled mutes. */
export interface ScheduleStore {
  createSchedule(accountId: string, schedule: ScheduleWrite): Promise<ScheduleRecord>;
  getSchedule(accountId: string, id: string): Promise<ScheduleRecord | null>;
  /** The account's schedules among `ids` (unknown ids are simply absent). */
  getSchedulesByIds(accountId: string, ids: string[]): Promise<ScheduleRecord[]>;
  updateSchedule(accountId: string, id: string, schedule: ScheduleWrite): Promise<ScheduleRecord | null>;
  /** Deletes the schedule and removes it from every alert's scheduled_mutes. */
  deleteSchedule(accountId: string, id: string): Promise<boolean>;
  searchSchedules(accountId: string, query: ScheduleQuery): Promise<Page<ScheduleRecord>>;
}

export interface ScheduleWrite {
  name: string;
  startTime: string;
  duration: number;
  timezone: string;
  repeat: Weekday[];
  /** Epoch ms from which a one-time schedule's next start_time is counted (its creation or last timing change). */
  anchor: number;
}

export interface ScheduleRecord extends ScheduleWrite {
  id: string;
  accountId: string;
  /** Ids of the alerts that reference it. */
  alerts: string[];
}

/** A schedule search: every criterion is OR-ed (the public docs' semantics); all empty lists every schedule. */
export interface ScheduleQuery {
  names: string[];
  ids: string[];
  /** Minutes. */
  durations: number[];
  /** "HH:MM". */
  startTimes: string[];
  /** Normalised spellings ("UTC", "UTC+2", "UTC-5:30"), as stored. */
  timezones: string[];
  /** Week days: schedules repeating on any of them. */
  repeat: string[];
  page: number;
  max: number;
}
