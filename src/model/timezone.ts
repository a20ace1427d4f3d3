import { DEFAULT_TIMEZONE } from './defaults.js';

/** The offset of a "UTC±H[:MM]" timezone in minutes east of UTC, or null when it is not written that way. */
export function parseTimezoneOffset(timezone: string): number | null {
  const match = /^UTC(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/.exec(timezone);
  if (!match) return null;
  if (!match[1]) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** The offset of a "UTC±H[:MM]" timezone, in minutes east of UTC; throws on any other text. */
export function timezoneOffsetMinutes(timezone: string): number {
  const offset = parseTimezoneOffset(timezone);
  if (offset === null) throw new Error(`invalid timezone ${timezone}`);
  return offset;
}

/** One spelling per offset: "UTC", "UTC+2", "UTC-5:30" (so "UTC+02:00" and "UTC+2" store and compare the same). */
export function formatTimezone(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'UTC';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const minutes = abs % 60;
  return `UTC${sign}${Math.floor(abs / 60)}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

/** The canonical spelling of a timezone (absent = UTC); text that is no offset stays as it is, to show as a diff. */
export function canonicalTimezone(zone: string | undefined | null): string {
  const text = zone || DEFAULT_TIMEZONE;
  const offset = parseTimezoneOffset(text);
  return offset === null ? text : formatTimezone(offset);
}
