import { MAX_MUTE_MINUTES } from './defaults.js';
import { durationMs } from './duration.js';
import { checkGraphitePattern } from './graphite-target/glob.js';
import { isWindowTimezone, type MaintenanceWindowBody, type WindowMatch } from './maintenance-window.js';
import type { FieldProblem } from './schemas.js';
import { canonicalTimezone } from './timezone.js';
import { WEEKDAYS, type Weekday } from './types.js';

/**
 * A maintenance window's rules, written once: the server's API answers them as 400 details, `validate` at
 * file:line, in the same words. The schema (schemas/maintenance-window.schema.json) repeats the limits for editors
 * and Ajv; test/unit/model/window-rules.test.ts holds the two together.
 */

/** What one account may hold and one window may say; the longest window is a year, as the longest mute. */
export const WINDOW_LIMITS = {
  perAccount: 200,
  patternsPerKey: 20,
  patternLength: 200,
  nameLength: 200,
  reasonLength: 500,
  maxDuration: MAX_MUTE_MINUTES,
} as const;

/** The words of each rule, shared with the schema's messages (model/schemas.ts words a failed pattern the same). */
export const WINDOW_WORDS = {
  startTime: 'must look like 02:00 (a time of day, HH:MM, 24 h)',
  startsAt: 'must be an ISO 8601 time with its offset from UTC, e.g. 2026-12-24T22:00:00+01:00 or ...Z',
  timezone: 'must be UTC, an offset such as UTC+2 or UTC-5:30, or an IANA time zone such as Europe/Berlin',
  duration: `must be whole minutes from 1m to a year (${MAX_MUTE_MINUTES} minutes): 90 (minutes), 2h, 1h30m, 1d`,
  repeat: `must be a non-empty list of week days (${WEEKDAYS.join(', ')})`,
  bothForms: 'give either starts_at (a one-off window) or start_time with repeat (a weekly one), not both',
  noForm: 'needs starts_at (a one-off window) or start_time with repeat (a weekly one)',
  needsStartTime: 'a weekly window needs start_time with its repeat',
  needsRepeat: 'a weekly window needs repeat: the week days it starts on',
} as const;

/** ISO 8601 with a date, a time and an offset: a one-off window's start must say which instant it is. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * A window's `duration` in minutes: an integer is minutes (the API's unit); a string is the duration grammar, a bare
 * number minutes too (`90`, `2h`, `1h30m`). Undefined unless whole minutes from 1 to a year.
 */
export function windowDurationMinutes(value: unknown): number | undefined {
  const minutes = typeof value === 'number' ? value : typeof value === 'string' ? (durationMs(value, { bareUnit: 'm' }) ?? Number.NaN) / 60_000 : Number.NaN;
  return Number.isInteger(minutes) && minutes >= 1 && minutes <= WINDOW_LIMITS.maxDuration ? minutes : undefined;
}

/** A window whose `duration` may be written in the duration grammar (definitions); the API takes minutes. */
export type WindowWithDuration = Omit<Partial<MaintenanceWindowBody>, 'duration'> & { duration?: number | string };

/**
 * The rules a schema cannot say of a window, for definitions (after their schema) and for the API (after the
 * field types, checkWindowBody): exactly one of `starts_at` or `start_time` with `repeat`; a start with its offset;
 * a zone this runtime knows; a duration of whole minutes up to a year; metric globs that compile, and no `**`.
 */
export function checkWindowRules(window: WindowWithDuration): FieldProblem[] {
  // Also run on windows the schema refused (validate says every problem in one run): no field's type is trusted.
  if (typeof window !== 'object' || window === null || Array.isArray(window)) return [];
  const problems: FieldProblem[] = [];
  const startsAt = window.starts_at ?? null;
  const startTime = window.start_time ?? null;
  const repeat = window.repeat ?? null;
  const recurring = startTime !== null || repeat !== null;
  if (startsAt !== null && recurring) problems.push({ path: 'starts_at', message: WINDOW_WORDS.bothForms });
  else if (startsAt === null && !recurring) problems.push({ path: 'starts_at', message: WINDOW_WORDS.noForm });
  else if (recurring && startTime === null) problems.push({ path: 'start_time', message: WINDOW_WORDS.needsStartTime });
  else if (recurring && !repeat?.length) problems.push({ path: 'repeat', message: WINDOW_WORDS.needsRepeat });
  if (startsAt !== null && (typeof startsAt !== 'string' || !INSTANT.test(startsAt) || Number.isNaN(Date.parse(startsAt)))) {
    problems.push({ path: 'starts_at', message: `${WINDOW_WORDS.startsAt} (got ${JSON.stringify(startsAt)})` });
  }
  if (startTime !== null && (typeof startTime !== 'string' || !CLOCK_TIME.test(startTime))) problems.push({ path: 'start_time', message: WINDOW_WORDS.startTime });
  if (repeat !== null && (!Array.isArray(repeat) || repeat.some((day) => !(WEEKDAYS as readonly unknown[]).includes(day)))) {
    problems.push({ path: 'repeat', message: WINDOW_WORDS.repeat });
  }
  const timezone = window.timezone ?? 'UTC';
  if (typeof timezone !== 'string' || !isWindowTimezone(timezone)) problems.push({ path: 'timezone', message: `${WINDOW_WORDS.timezone} (got ${JSON.stringify(timezone)})` });
  if (window.duration === undefined) problems.push({ path: 'duration', message: `is required: ${WINDOW_WORDS.duration}` });
  else if (windowDurationMinutes(window.duration) === undefined) problems.push({ path: 'duration', message: `${WINDOW_WORDS.duration} (got ${JSON.stringify(window.duration)})` });
  const metrics = window.match?.metrics;
  (Array.isArray(metrics) ? metrics : []).forEach((glob, i) => {
    const problem = typeof glob === 'string' ? metricGlobProblem(glob) : null;
    if (problem) problems.push({ path: `match.metrics.${i}`, message: problem });
  });
  return problems;
}

/**
 * Why a window's metric glob would not do what it says: it does not compile, or it writes `**`, which in a Graphite
 * glob is one `*` (a wildcard never crosses a dot): `web.*.**` would match web.a.b and never web.a.b.c.
 */
function metricGlobProblem(glob: string): string | null {
  const wrong = checkGraphitePattern(glob);
  if (wrong) return `is not a Graphite glob: ${wrong}`;
  if (glob.includes('**')) {
    return `uses **, which is not recursive in a Graphite glob (a wildcard never crosses a dot: ** is one *); write one * per path node, e.g. ${glob.replaceAll(/\*{2,}/g, '*')}, and a pattern per depth`;
  }
  return null;
}

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
  // The API counts a window in minutes: an integer (the duration grammar is for definitions).
  if (body.duration !== undefined && typeof body.duration !== 'number') problems.push({ path: 'duration', message: `${WINDOW_WORDS.duration} (got ${JSON.stringify(body.duration)})` });
  else problems.push(...checkWindowRules({ ...body, match: {} } as WindowWithDuration));
  if (problems.length > 0 || !match) return { ok: false, problems };
  const repeat = (body.repeat ?? null) as Weekday[] | null;
  return {
    ok: true,
    value: {
      name: name as string,
      reason: (reason as string | null) || null,
      match,
      startsAt: (body.starts_at ?? null) as string | null,
      startTime: (body.start_time ?? null) as string | null,
      // Week days once each, in the week's order, so equal windows read back equal.
      repeat: repeat === null ? null : WEEKDAYS.filter((day) => repeat.includes(day)),
      timezone: canonicalTimezone((body.timezone ?? 'UTC') as string),
      duration: body.duration as number,
    },
  };
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
        const wrong = metricGlobProblem(item);
        if (wrong) problems.push({ path: at, message: wrong });
      }
    });
    match[key] = [...new Set(list as string[])];
  }
  if (problems.length === before && Object.keys(match).length === 0) {
    problems.push({ path: 'match', message: 'must give at least one of alert_names, metrics, channels' });
  }
  return problems.length === before ? match : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
