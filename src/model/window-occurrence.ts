import { activeWindowEnd, offsetMinutesAt, type WindowTiming } from './maintenance-window.js';
import { WEEKDAYS_BY_UTC_DAY } from './types.js';

/** One occurrence of a window: when it starts and ends (epoch ms), and whether it covers `now`. */
export interface WindowOccurrence {
  start: number;
  end: number;
  active: boolean;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The occurrence of `window` that covers `now`, else its next one, else null (a one-off window that is over, or a
 * weekly one without days). What a plan and the console show beside a window ("next Sun 02:00 Europe/Berlin").
 * A weekly window starts at `start_time` on each `repeat` day by the clock of its `timezone`, daylight saving
 * followed; the search looks eight local days ahead, which always finds a day of a non-empty `repeat`.
 */
export function windowOccurrence(window: WindowTiming, now: number): WindowOccurrence | null {
  const length = window.duration * MINUTE;
  const activeEnd = activeWindowEnd(window, now);
  if (activeEnd !== null) return { start: activeEnd - length, end: activeEnd, active: true };
  if (window.starts_at) {
    const start = Date.parse(window.starts_at);
    return start > now ? { start, end: start + length, active: false } : null;
  }
  if (!window.start_time || !window.repeat?.length) return null;
  const zone = window.timezone || 'UTC';
  const [hours, minutes] = window.start_time.split(':').map(Number) as [number, number];
  // Today's date by the zone's clock, as a UTC midnight: its calendar fields are the local ones.
  const localToday = Math.floor((now + offsetMinutesAt(zone, now) * MINUTE) / DAY) * DAY;
  for (let day = 0; day <= 8; day += 1) {
    const localMidnight = localToday + day * DAY;
    if (!window.repeat.includes(WEEKDAYS_BY_UTC_DAY[new Date(localMidnight).getUTCDay()]!)) continue;
    const wall = localMidnight + (hours * 60 + minutes) * MINUTE;
    // The wall-clock time as an instant: its offset is the zone's at that instant (asked twice across a change).
    const guess = wall - offsetMinutesAt(zone, wall) * MINUTE;
    const start = wall - offsetMinutesAt(zone, guess) * MINUTE;
    if (start > now) return { start, end: start + length, active: false };
  }
  return null;
}

/**
 * An occurrence in words, by the window's own clock (and in UTC when that is another): `next Sun 2026-11-29 02:00
 * Europe/Berlin (01:00 UTC), for 90 minutes`, or `active now, until Sun 2026-11-29 03:30 Europe/Berlin (02:30 UTC)`.
 */
export function describeOccurrence(window: WindowTiming, occurrence: WindowOccurrence | null): string {
  if (!occurrence) return window.starts_at ? 'over: its one occurrence has passed' : 'never: no day to start on';
  const zone = window.timezone || 'UTC';
  const at = (instant: number) => {
    const local = new Date(instant + offsetMinutesAt(zone, instant) * MINUTE).toISOString();
    const clock = `${WEEKDAYS_BY_UTC_DAY[new Date(local).getUTCDay()]![0]!.toUpperCase()}${WEEKDAYS_BY_UTC_DAY[new Date(local).getUTCDay()]!.slice(1)} ${local.slice(0, 10)} ${local.slice(11, 16)} ${zone}`;
    return zone === 'UTC' ? clock : `${clock} (${new Date(instant).toISOString().slice(11, 16)} UTC)`;
  };
  if (occurrence.active) return `active now, until ${at(occurrence.end)}`;
  return `next ${at(occurrence.start)}, for ${window.duration} minute${window.duration === 1 ? '' : 's'}`;
}
