import type { ScheduleTiming } from '../../model/schedule-active.js';
import { timezoneOffsetMinutes } from '../../model/timezone.js';
import { WEEKDAYS_BY_UTC_DAY } from '../../model/types.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The schedule's current or next window (epoch ms): the occurrence that covers `now`, else the first one that
 * starts after it; null for a one-time schedule that has passed. Same calendar as activeScheduleEnd: start_time
 * on each repeat day of the schedule's timezone, or once, at the first start_time at or after its anchor.
 */
export function scheduleWindow(schedule: ScheduleTiming, now: number): { from: number; until: number } | null {
  const offset = timezoneOffsetMinutes(schedule.timezone) * MINUTE;
  const [hours, minutes] = schedule.startTime.split(':').map(Number) as [number, number];
  const startOfDay = (hours * 60 + minutes) * MINUTE;
  const duration = schedule.duration * MINUTE;
  const localMidnight = (instant: number) => Math.floor((instant + offset) / DAY) * DAY - offset;
  if (schedule.repeat.length === 0) {
    let start = localMidnight(schedule.anchor) + startOfDay;
    if (start < schedule.anchor) start += DAY;
    return start + duration > now ? { from: start, until: start + duration } : null;
  }
  // From the oldest day whose occurrence could still be running, up to a week ahead.
  const daysBack = Math.ceil(schedule.duration / 1440);
  for (let day = -daysBack; day <= 7; day += 1) {
    const midnight = localMidnight(now) + day * DAY;
    if (!schedule.repeat.includes(WEEKDAYS_BY_UTC_DAY[new Date(midnight + offset).getUTCDay()]!)) continue;
    const start = midnight + startOfDay;
    if (start + duration > now) return { from: start, until: start + duration };
  }
  return null;
}
