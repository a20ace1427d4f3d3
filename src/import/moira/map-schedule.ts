import type { Weekday } from '../../model/types.js';
import type { ImportedSchedule } from '../import-types.js';
import type { MoiraSchedule } from './read-moira.js';

const DAY_NAMES: Record<string, Weekday> = { mon: 'mon', tue: 'tue', wed: 'wed', thu: 'thu', fri: 'fri', sat: 'sat', sun: 'sun' };
const MINUTES_A_DAY = 1440;

/**
 * Moira's `sched` says when a trigger is checked (enabled days, from startOffset to endOffset minutes into the
 * day, inclusive, at tzOffset minutes behind UTC as JavaScript counts it). alertform says the opposite, when an
 * alert is muted: so the quiet hours of the enabled days become one scheduled mute, and the disabled days another.
 * A schedule that checks all day every day needs none. Names say what they mute, so triggers with the same
 * schedule share them.
 */
export function mapMoiraSchedule(sched: MoiraSchedule): { schedules: ImportedSchedule[] } | { why: string } {
  const start = sched.startOffset ?? 0;
  const end = sched.endOffset ?? MINUTES_A_DAY - 1;
  const offset = sched.tzOffset ?? 0;
  if (![start, end, offset].every(Number.isInteger) || start < 0 || end < 0 || start >= MINUTES_A_DAY || end >= MINUTES_A_DAY) {
    return { why: 'startOffset and endOffset must be whole minutes of a day' };
  }
  if (offset % 15 !== 0 || offset < -14 * 60 || offset > 12 * 60) return { why: `tzOffset ${offset} is not an offset alertform's schedules take (UTC-12 to UTC+14)` };
  const timezone = zoneOf(-offset);
  const days = sched.days ?? [];
  const enabled: Weekday[] = [];
  const disabled: Weekday[] = [];
  for (const day of days) {
    const weekday = DAY_NAMES[String(day.name ?? '').slice(0, 3).toLowerCase()];
    if (!weekday) return { why: `unknown day "${String(day.name)}"` };
    (day.enabled === false ? disabled : enabled).push(weekday);
  }
  // No days listed: Moira checks every day.
  const checked = days.length === 0 ? (Object.values(DAY_NAMES) as Weekday[]) : enabled;
  const schedules: ImportedSchedule[] = [];
  const activeMinutes = end >= start ? end - start + 1 : MINUTES_A_DAY - start + end + 1;
  const tz = timezone === 'UTC' ? {} : { timezone };
  if (activeMinutes < MINUTES_A_DAY && checked.length > 0) {
    const quietStart = (end + 1) % MINUTES_A_DAY;
    const quiet = MINUTES_A_DAY - activeMinutes;
    schedules.push({
      name: `Moira: quiet ${clock(quietStart)} for ${quiet} min on ${checked.join(', ')}${timezone === 'UTC' ? '' : ` (${timezone})`}`,
      start_time: clock(quietStart),
      duration: quiet,
      ...tz,
      repeat: checked,
    });
  }
  if (disabled.length > 0) {
    schedules.push({
      name: `Moira: not checked on ${disabled.join(', ')}${timezone === 'UTC' ? '' : ` (${timezone})`}`,
      start_time: '00:00',
      duration: MINUTES_A_DAY,
      ...tz,
      repeat: disabled,
    });
  }
  return { schedules };
}

function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** `UTC`, `UTC+3`, `UTC-4:30` from minutes east of UTC. */
function zoneOf(minutesEast: number): string {
  if (minutesEast === 0) return 'UTC';
  const sign = minutesEast > 0 ? '+' : '-';
  const abs = Math.abs(minutesEast);
  return `UTC${sign}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, '0')}` : ''}`;
}
