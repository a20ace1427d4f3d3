import { isWindowTimezone, type WindowMatch } from '../../model/maintenance-window.js';
import { checkGraphitePattern } from '../../model/graphite-target/glob.js';
import type { FieldProblem } from '../../model/schemas.js';
import { canonicalTimezone } from '../../model/timezone.js';
import { WEEKDAYS, type Weekday } from '../../model/types.js';

/** What one account may hold and one window may say (the API refuses more with a 4xx). */
export const WINDOW_LIMITS = { perAccount: 200, patternsPerKey: 20, patternLength: 200, nameLength: 200, reasonLength: 500, maxDuration: 525_600 } as const;

/** A window as the API writes it, checked; `match.channels` are still the refs as sent (ids or names). */
export interface CheckedWindow {
  name: string;
  reason: string | null;
  match: WindowMatch;
  startsAt: string | null;
  startTime: string | null;
  repeat: Weekday[] | null;
  timezone: string;
  duration: number;
}

/** The fields of a window body; `id`, `created_by` and `updated_by` are read-only (dropped before the check). */
const FIELDS = new Set(['name', 'reason', 'match', 'starts_at', 'start_time', 'repeat', 'timezone', 'duration']);
const MATCH_KEYS = ['alert_names', 'metrics', 'channels'] as const;
/** ISO 8601 with a date, a time and an offset: a one-off window's start must say which instant it is. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

type Checked<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/** A whole window body (create, or a PUT merged over the stored window): every problem, each at its field. */
export function checkWindowBody(body: unknown): Checked<CheckedWindow> {
  if (!isObject(body)) return { ok: false, problems: [{ path: '', message: 'must be a JSON object' }] };
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) problems.push({ path: key, message: 'is not a field of a maintenance window' });

  const name = body.name;
  if (typeof name !== 'string' || name.trim() === '') problems.push({ path: 'name', message: 'is required: a non-empty string' });
  else if (name.length > WINDOW_LIMITS.nameLength) problems.push({ path: 'name', message: `must be at most ${WINDOW_LIMITS.nameLength} characters` });

  const reason = body.reason ?? null;
  if (reason !== null && typeof reason !== 'string') problems.push({ path: 'reason', message: 'must be a string or null' });
  else if (typeof reason === 'string' && reason.length > WINDOW_LIMITS.reasonLength) {
    problems.push({ path: 'reason', message: `must be at most ${WINDOW_LIMITS.reasonLength} characters` });
  }

  const match = checkWindowMatch(body.match, problems);
  const timing = checkTiming(body, problems);
  if (problems.length > 0 || !match || !timing) return { ok: false, problems };
  return { ok: true, value: { name: name as string, reason: (reason as string | null) || null, match, ...timing } };
}

/**
 * A window's `match`: an object with at least one of alert_names, metrics, channels, each a list of 1..20 patterns
 * of 1..200 characters (metrics: well-formed Graphite globs). Problems go to `problems`; null when there are any.
 */
export function checkWindowMatch(value: unknown, problems: FieldProblem[]): WindowMatch | null {
  const before = problems.length;
  if (!isObject(value)) {
    problems.push({ path: 'match', message: 'is required: an object with alert_names, metrics or channels' });
    return null;
  }
  const match: WindowMatch = {};
  for (const key of Object.keys(value)) {
    if (!(MATCH_KEYS as readonly string[]).includes(key)) problems.push({ path: `match.${key}`, message: 'is not a match key (alert_names, metrics, channels)' });
  }
  for (const key of MATCH_KEYS) {
    const list = value[key];
    if (list === undefined || list === null) continue;
    const path = `match.${key}`;
    if (!Array.isArray(list) || list.length === 0) {
      problems.push({ path, message: 'must be a non-empty list of strings' });
      continue;
    }
    if (list.length > WINDOW_LIMITS.patternsPerKey) {
      problems.push({ path, message: `must have at most ${WINDOW_LIMITS.patternsPerKey} items (got ${list.length})` });
      continue;
    }
    list.forEach((item: unknown, index) => {
      const at = `${path}[${index}]`;
      if (typeof item !== 'string' || item === '') problems.push({ path: at, message: 'must be a non-empty string' });
      else if (item.length > WINDOW_LIMITS.patternLength) problems.push({ path: at, message: `must be at most ${WINDOW_LIMITS.patternLength} characters` });
      else if (key === 'metrics') {
        const wrong = checkGraphitePattern(item);
        if (wrong) problems.push({ path: at, message: `is not a Graphite glob: ${wrong}` });
      }
    });
    match[key] = [...new Set(list as string[])];
  }
  if (problems.length === before && Object.keys(match).length === 0) {
    problems.push({ path: 'match', message: 'must give at least one of alert_names, metrics, channels' });
  }
  return problems.length === before ? match : null;
}

/** Exactly one of starts_at or start_time + repeat; timezone and duration. */
function checkTiming(body: Record<string, unknown>, problems: FieldProblem[]): Omit<CheckedWindow, 'name' | 'reason' | 'match'> | null {
  const before = problems.length;
  const startsAt = body.starts_at ?? null;
  const startTime = body.start_time ?? null;
  const repeat = body.repeat ?? null;
  if (startsAt !== null && (typeof startsAt !== 'string' || !INSTANT.test(startsAt) || Number.isNaN(Date.parse(startsAt)))) {
    problems.push({ path: 'starts_at', message: 'must be an ISO 8601 timestamp with an offset, e.g. 2026-12-01T22:00:00Z' });
  }
  if (startTime !== null && (typeof startTime !== 'string' || !CLOCK_TIME.test(startTime))) {
    problems.push({ path: 'start_time', message: 'must be a time of day as HH:MM (00:00 to 23:59)' });
  }
  if (repeat !== null) {
    if (!Array.isArray(repeat) || repeat.length === 0 || repeat.some((day) => !(WEEKDAYS as readonly unknown[]).includes(day))) {
      problems.push({ path: 'repeat', message: `must be a non-empty list of week days (${WEEKDAYS.join(', ')})` });
    }
  }
  const recurring = startTime !== null || repeat !== null;
  if (startsAt !== null && recurring) {
    problems.push({ path: 'starts_at', message: 'give either starts_at (a one-off window) or start_time and repeat (a recurring one), not both' });
  } else if (startsAt === null && !recurring) {
    problems.push({ path: 'starts_at', message: 'is required unless start_time and repeat are given' });
  } else if (recurring && (startTime === null || repeat === null)) {
    problems.push({ path: startTime === null ? 'start_time' : 'repeat', message: 'a recurring window needs both start_time and repeat' });
  }
  const timezone = body.timezone ?? 'UTC';
  if (typeof timezone !== 'string' || !isWindowTimezone(timezone)) {
    problems.push({ path: 'timezone', message: 'must be UTC, an offset such as UTC+2 or UTC-5:30, or an IANA time zone such as Europe/Berlin' });
  }
  const duration = body.duration;
  if (typeof duration !== 'number' || !Number.isInteger(duration) || duration < 1 || duration > WINDOW_LIMITS.maxDuration) {
    problems.push({ path: 'duration', message: `is required: whole minutes from 1 to ${WINDOW_LIMITS.maxDuration}` });
  }
  if (problems.length > before) return null;
  return {
    startsAt: startsAt as string | null,
    startTime: startTime as string | null,
    // Week days once each, in the week's order, so equal windows read back equal.
    repeat: repeat === null ? null : WEEKDAYS.filter((day) => (repeat as string[]).includes(day)),
    timezone: canonicalTimezone(timezone as string),
    duration: duration as number,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
