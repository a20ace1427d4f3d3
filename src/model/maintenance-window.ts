import { activeScheduleEnd } from './schedule-active.js';
import { formatTimezone, parseTimezoneOffset } from './timezone.js';
import { compileGraphitePattern } from './graphite-target/glob.js';
import { readTarget } from './graphite-target/target.js';
import { checkGraphitePattern } from './graphite-target/glob.js';
import type { FieldProblem } from './schemas.js';
import type { Weekday } from './types.js';

/**
 * Maintenance windows (/v2/maintenance_windows/, an alertform extension): mute every alert a pattern matches, once
 * or on a weekly rhythm, without naming the alerts one by one. The matcher and the clock are here, pure, for the
 * planner's "would mute N alerts" and the server's evaluator alike.
 */

/** What a window matches; an alert matches when it matches ANY pattern of EVERY key given. */
export interface WindowMatch {
  /** Globs on the alert's name: `*` any run of characters, `?` one. */
  alert_names?: string[];
  /** Graphite globs on the alert's queries (its metric and the additional criteria's). */
  metrics?: string[];
  /** Channel refs: names in definitions, ids in API reads. */
  channels?: string[];
}

/** A window's fields, as written to the API and in definitions (channels by name there). */
export interface MaintenanceWindowBody {
  name: string;
  reason?: string | null;
  match: WindowMatch;
  /** A one-off window: ISO 8601 with an offset. */
  starts_at?: string | null;
  /** A recurring window: HH:MM in `timezone`, on the `repeat` days. */
  start_time?: string | null;
  repeat?: Weekday[] | null;
  /** "UTC", "UTC+2" or an IANA zone such as "Europe/Berlin" (default UTC). */
  timezone?: string;
  /** Minutes. */
  duration: number;
}

export interface MaintenanceWindowRead extends MaintenanceWindowBody {
  id: string;
  created_by?: string;
  updated_by?: string;
}

/** What the matcher needs of an alert (an AlertRead, an AlertBody or a definition have it). */
export interface MatchableAlert {
  name: string;
  metric?: string;
  additional_criteria?: Readonly<Record<string, { metric: string }>>;
}

/**
 * Whether `window` matches `alert`. `channelNames` are the alert's channels in the same terms as the window's
 * `match.channels` (names for the planner, ids for the server). A window that gives no key matches nothing.
 */
export function windowMatches(window: { match: WindowMatch }, alert: MatchableAlert, channelNames: readonly string[]): boolean {
  const { alert_names: names, metrics, channels } = window.match;
  if (!names?.length && !metrics?.length && !channels?.length) return false;
  if (names?.length && !names.some((glob) => nameGlob(glob).test(alert.name))) return false;
  if (metrics?.length) {
    const queries = queriesOf(alert);
    if (!metrics.some((glob) => matchesQuery(glob, queries))) return false;
  }
  if (channels?.length && !channels.some((channel) => channelNames.includes(channel))) return false;
  return true;
}

/** When the window's occurrence that covers `now` ends (epoch ms), or null when it is not active at `now`. */
export function activeWindowEnd(window: Pick<MaintenanceWindowBody, 'starts_at' | 'start_time' | 'repeat' | 'timezone' | 'duration'>, now: Date | number): number | null {
  const at = typeof now === 'number' ? now : now.getTime();
  if (window.starts_at) {
    const start = Date.parse(window.starts_at);
    const end = start + window.duration * 60_000;
    return at >= start && at < end ? end : null;
  }
  if (!window.start_time || !window.repeat?.length) return null;
  return activeScheduleEnd(
    { startTime: window.start_time, duration: window.duration, timezone: offsetZone(window.timezone ?? 'UTC', at), repeat: window.repeat, anchor: at },
    at,
  );
}

/** Whether the window mutes what it matches at `now`. */
export function isWindowActiveAt(window: Pick<MaintenanceWindowBody, 'starts_at' | 'start_time' | 'repeat' | 'timezone' | 'duration'>, now: Date | number): boolean {
  return activeWindowEnd(window, now) !== null;
}

/** Whether a time zone is one a window takes: "UTC", "UTC±H[:MM]", or an IANA name this runtime knows. */
export function isWindowTimezone(zone: string): boolean {
  if (parseTimezoneOffset(zone) !== null) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Formatters by zone: making one costs a millisecond or more, and the evaluator asks every cycle. */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The zone as the schedule code reads it ("UTC±H:MM"): an IANA zone at its offset at `at`. Taken at `now` rather
 * than at the occurrence's start, so in the hours after a daylight-saving change an occurrence that began before
 * it is placed by the new offset: an hour off at most, once or twice a year, where a 30-line calendar walk would
 * be exact.
 */
function offsetZone(zone: string, at: number): string {
  if (parseTimezoneOffset(zone) !== null) return zone;
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormats.set(zone, format);
  }
  const part = format
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  // "GMT+02:00", or "GMT" for zero.
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(part ?? '');
  if (!match?.[1]) return 'UTC';
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return formatTimezone(match[1] === '-' ? -minutes : minutes);
}

const nameGlobs = new Map<string, RegExp>();

/** `*` and `?` of a name glob as a regular expression; everything else is literal. */
function nameGlob(glob: string): RegExp {
  let regex = nameGlobs.get(glob);
  if (!regex) {
    const source = [...glob].map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&'))).join('');
    regex = new RegExp(`^${source}$`, 's');
    nameGlobs.set(glob, regex);
  }
  return regex;
}

/** The alert's queries, and the metric paths inside them (`servers.*.cpu` of `sumSeries(servers.*.cpu)`). */
function queriesOf(alert: MatchableAlert): string[] {
  const targets = [alert.metric ?? '', ...Object.values(alert.additional_criteria ?? {}).map((c) => c.metric)].filter(Boolean);
  const out = new Set(targets);
  for (const target of targets) {
    try {
      for (const path of readTarget(target).paths) out.add(path);
    } catch {
      // A target graphite-web would refuse is matched by its text alone.
    }
  }
  return [...out];
}

/** A Graphite glob against queries; one that does not compile matches nothing (the rules report it). */
function matchesQuery(glob: string, queries: readonly string[]): boolean {
  try {
    const matcher = compileGraphitePattern(glob);
    return queries.some((query) => matcher.test(query));
  } catch {
    return false;
  }
}

/**
 * The rules a schema cannot say of a window (the API answers them as 400 details, definitions at file:line): exactly
 * one of `starts_at` or `start_time` with `repeat`; a start with an explicit offset; a zone this runtime knows; metric
 * globs that compile.
 */
export function checkWindowRules(window: Partial<MaintenanceWindowBody>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const oneOff = window.starts_at !== undefined && window.starts_at !== null;
  const recurring = (window.start_time ?? null) !== null || (window.repeat ?? null) !== null;
  if (oneOff && recurring) problems.push({ path: 'starts_at', message: 'give starts_at (a one-off window) or start_time with repeat (a weekly one), not both' });
  else if (!oneOff && !recurring) problems.push({ path: '', message: 'needs starts_at (a one-off window) or start_time with repeat (a weekly one)' });
  else if (recurring && !window.start_time) problems.push({ path: 'start_time', message: 'a weekly window needs start_time with its repeat' });
  else if (recurring && !window.repeat?.length) problems.push({ path: 'repeat', message: 'a weekly window needs repeat: the week days it starts on' });
  if (oneOff && !/(Z|[+-]\d{2}:?\d{2})$/i.test(window.starts_at!)) problems.push({ path: 'starts_at', message: `must say its offset from UTC, e.g. 2026-12-24T22:00:00+01:00 or ...Z (got ${JSON.stringify(window.starts_at)})` });
  if (window.timezone !== undefined && !isWindowTimezone(window.timezone)) problems.push({ path: 'timezone', message: `unknown time zone ${JSON.stringify(window.timezone)}: use UTC, an offset such as UTC+2, or an IANA zone such as Europe/Berlin` });
  (window.match?.metrics ?? []).forEach((glob, i) => {
    const problem = checkGraphitePattern(glob);
    if (problem) problems.push({ path: `match.metrics.${i}`, message: problem });
  });
  return problems;
}
