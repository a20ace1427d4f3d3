import { timezoneOffsetMinutes } from '../../model/schedule-active.js';
import { WEEKDAYS } from '../../model/types.js';
import type { ScheduleQuery } from '../store/store.js';
import type { QueryReader } from './query.js';
import { normaliseTimezone } from './schedule-rules.js';

export type ScheduleFilters = Pick<ScheduleQuery, 'durations' | 'startTimes' | 'timezones' | 'repeat'>;

/** The public docs' extra search criteria (duration, start_time, timezone, repeat), checked and normalised. */
export function readScheduleFilters(query: QueryReader): ScheduleFilters {
  const bad = (path: string, message: string) => query.problems.push({ path, message });
  const durations = query.list('duration').flatMap((value) => {
    if (/^\d+$/.test(value)) return [Number(value)];
    bad('duration', 'must be a whole number of minutes');
    return [];
  });
  const startTimes = query.list('start_time').filter((value) => {
    const ok = /^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(value);
    if (!ok) bad('start_time', 'must be HH:MM (24 h)');
    return ok;
  });
  const timezones = query.list('timezone').flatMap((value) => {
    // An unencoded `+` in a query string arrives as a space (`?timezone=UTC+2`); no timezone contains a space.
    const spelled = value.replace(/ /g, '+');
    try {
      return [normaliseTimezone(timezoneOffsetMinutes(spelled))];
    } catch {
      bad('timezone', 'must be UTC or an offset such as UTC+2 or UTC-5:30');
      return [];
    }
  });
  const repeat = query.list('repeat').map((value) => value.toLowerCase());
  if (repeat.some((day) => !(WEEKDAYS as readonly string[]).includes(day))) {
    bad('repeat', `must be one of ${WEEKDAYS.join(', ')}`);
  }
  return { durations, startTimes, timezones, repeat };
}
