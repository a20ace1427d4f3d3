import { WEEKDAYS_BY_UTC_DAY, type Weekday } from './types.js';
import { timezoneOffsetMinutes } from './timezone.js';

/** What isScheduleActive needs of a schedule (a ScheduleRecord has it all). */
export interface ScheduleTiming {
  /** HH:MM in `timezone`. */
  startTime: string;
  /** Minutes. */
  duration: number;
  /** "UTC", "UTC+2", "UTC-5:30"... */
  timezone: string;
  /** Days it starts on; empty = once, at the first start_time at or after `anchor`. */
  repeat: readonly Weekday[];
  /** Epoch ms: creation (or last timing change) of a one-time schedule. */
  anchor: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * When the occurrence of the schedule that covers `now` ends (epoch ms), or null when the schedule is not
 * active at `now`. Repeating schedules start at start_time on each listed week day of their timezone; an
 * occurrence may run past midnight and into the next days (duration up to a week).
 */
export function activeScheduleEnd(schedule: ScheduleTiming, now: Date | number): number | null {
  const at = typeof now === 'number' ? now : now.getTime();
  const offset = timezoneOffsetMinutes(schedule.timezone) * MINUTE;
  const [hours, minutes] = schedule.startTime.split(':').map(Number) as [number, number];
  const startOfDay = (hours * 60 + minutes) * MINUTE;
  const durationMs = schedule.duration * MINUTE;
  // Local midnight (expressed as a UTC instant) of the local day containing `instant`.
  const localMidnight = (instant: number) => Math.floor((instant + offset) / DAY) * DAY - offset;

  if (schedule.repeat.length === 0) {
    let start = localMidnight(schedule.anchor) + startOfDay;
    if (start < schedule.anchor) start += DAY;
    return at >= start && at < start + durationMs ? start + durationMs : null;
  }
  // Occurrences that started on today or any of the days a long duration can reach back to.
  const daysBack = Math.ceil(schedule.duration / 1440);
  let end: number | null = null;
  for (let back = 0; back <= daysBack; back += 1) {
    const midnight = localMidnight(at) - back * DAY;
    const weekday = WEEKDAYS_BY_UTC_DAY[new Date(midnight + offset).getUTCDay()]!;
    if (!schedule.repeat.includes(weekday)) continue;
    const start = midnight + startOfDay;
    if (at >= start && at < start + durationMs) end = Math.max(end ?? 0, start + durationMs);
  }
  return end;
}

/** Whether the schedule mutes its alerts at `now`. */
export function isScheduleActive(schedule: ScheduleTiming, now: Date | number): boolean {
  return activeScheduleEnd(schedule, now) !== null;
}
