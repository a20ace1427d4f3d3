import { activeScheduleEnd } from './schedule-active.js';
import { formatTimezone, parseTimezoneOffset } from './timezone.js';
import { compileGraphitePattern, type GraphiteMatcher } from './graphite-target/glob.js';
import { readTarget } from './graphite-target/target.js';
import { compileNameGlob } from './name-glob.js';
import type { Weekday } from './types.js';

/**
 * Maintenance windows (an alertform extension of the /v2 API): which alerts a window mutes, and when. Pure: the
 * server's API, its evaluator and the definitions' plan decide with these same functions.
 */

/** What a window matches: an alert matches when it matches any pattern of every key given (at least one key). */
export interface WindowMatch {
  /** Globs on the alert's name: `*` any run of characters, `?` one character. */
  alert_names?: string[];
  /** Graphite globs (`*`, `?`, `[...]`, `{a,b}`; a wildcard never crosses a dot) on the metric paths the alert reads. */
  metrics?: string[];
  /** Channel refs: ids, or names (a channel's description). */
  channels?: string[];
}

/** A window's timing: once from `starts_at`, or from `start_time` on each day of `repeat`, for `duration` minutes. */
export interface WindowTiming {
  /** ISO 8601 with an offset: a one-off window. */
  starts_at?: string | null;
  /** "HH:MM" in `timezone`, with `repeat`: a recurring window. */
  start_time?: string | null;
  repeat?: readonly Weekday[] | null;
  /** "UTC", "UTC+2", "UTC-5:30" or an IANA name ("Europe/Berlin"); absent: UTC. */
  timezone?: string | null;
  /** Minutes. */
  duration: number;
}

export interface MaintenanceWindow extends WindowTiming {
  name: string;
  reason?: string | null;
  match: WindowMatch;
}

/** A window's fields as written to the API and in definitions (channels by name there, by id in API reads). */
export type MaintenanceWindowBody = MaintenanceWindow;

export interface MaintenanceWindowRead extends MaintenanceWindowBody {
  id: string;
  created_by?: string;
  updated_by?: string;
}

/** What matching reads of an alert (the API's and the definitions' field names). */
export interface WindowAlert {
  name: string;
  metric: string;
  additional_criteria?: Readonly<Record<string, { metric?: string }>> | null;
  /** Channel ids or names, as the alert refers to them. */
  notification_channels?: readonly string[];
}

/**
 * Whether `window` matches `alert`, whatever the time. `channelNames` maps a channel id to its name, so a window
 * that names a channel matches an alert that refers to it by id (and the other way round).
 */
export function windowMatches(window: Pick<MaintenanceWindow, 'match'>, alert: WindowAlert, channelNames: ReadonlyMap<string, string> = NO_NAMES): boolean {
  return windowMatcher(window)(alert, channelNames);
}

/** windowMatches for one window, compiled once: for matching many alerts against the same windows. */
export function windowMatcher(window: Pick<MaintenanceWindow, 'match'>): Matcher {
  let matcher = matchers.get(window.match);
  if (!matcher) matchers.set(window.match, (matcher = compileMatch(window.match)));
  return matcher;
}

export type Matcher = (alert: WindowAlert, channelNames: ReadonlyMap<string, string>) => boolean;

/** Each match compiled once (a listing asks it of every alert of the account). */
const matchers = new WeakMap<WindowMatch, Matcher>();

function compileMatch(match: WindowMatch): Matcher {
  const names = (match.alert_names ?? []).map(nameGlob);
  const metrics = (match.metrics ?? []).map(metricGlob);
  const channels = new Set(match.channels ?? []);
  if (names.length === 0 && metrics.length === 0 && channels.size === 0) return () => false;
  return (alert, channelNames) => {
    if (names.length > 0 && !anyTest(names, alert.name)) return false;
    if (channels.size > 0 && !(alert.notification_channels ?? []).some((channel) => channels.has(channel) || channels.has(channelNames.get(channel) ?? ''))) {
      return false;
    }
    if (metrics.length > 0 && !alertPaths(alert).some((path) => anyTest(metrics, path))) return false;
    return true;
  };
}

function anyTest(matchers: readonly GraphiteMatcher[], text: string): boolean {
  for (const matcher of matchers) if (matcher.test(text)) return true;
  return false;
}

/** Whether the window mutes at `now` (epoch ms or a Date). */
export function isWindowActiveAt(window: WindowTiming, now: Date | number): boolean {
  return activeWindowEnd(window, now) !== null;
}

/**
 * When the window's occurrence that covers `now` ends (epoch ms), or null when none does. Its start (the
 * occurrence, an episode) is that end minus the duration.
 */
export function activeWindowEnd(window: WindowTiming, now: Date | number): number | null {
  const at = typeof now === 'number' ? now : now.getTime();
  const durationMs = window.duration * 60_000;
  if (window.starts_at) {
    const start = Date.parse(window.starts_at);
    return at >= start && at < start + durationMs ? start + durationMs : null;
  }
  if (!window.start_time || !window.repeat?.length) return null;
  // An IANA zone is taken at its offset of `now` (recurrence is by local days, as schedules do with fixed offsets).
  const timezone = formatTimezone(offsetMinutesAt(window.timezone || 'UTC', at));
  return activeScheduleEnd({ startTime: window.start_time, duration: window.duration, timezone, repeat: window.repeat, anchor: 0 }, at);
}

/** Whether `timezone` is one a window takes: a "UTC±H[:MM]" offset or an IANA name this runtime knows. */
export function isWindowTimezone(timezone: string): boolean {
  return parseTimezoneOffset(timezone) !== null || zoneFormat(timezone) !== null;
}

/** The offset of `timezone` east of UTC at `at`, in minutes (fixed offsets as they are, IANA names by their rules). */
export function offsetMinutesAt(timezone: string, at: number): number {
  const fixed = parseTimezoneOffset(timezone);
  if (fixed !== null) return fixed;
  const format = zoneFormat(timezone);
  if (!format) throw new Error(`invalid timezone ${timezone}`);
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, Number(part.value)]));
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((local - Math.floor(at / 1000) * 1000) / 60_000);
}

const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

function zoneFormat(timezone: string): Intl.DateTimeFormat | null {
  if (!zoneFormats.has(timezone)) {
    let format: Intl.DateTimeFormat | null = null;
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      format = null;
    }
    if (zoneFormats.size > 1000) zoneFormats.clear();
    zoneFormats.set(timezone, format);
  }
  return zoneFormats.get(timezone)!;
}

const NO_NAMES: ReadonlyMap<string, string> = new Map();

// Compiled patterns and an alert's paths, by their text: a listing matches thousands of alerts against the same
// few hundred patterns. Bounded: a full cache starts over.
const MAX_CACHED = 20_000;

function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, (value = make()));
  }
  return value;
}

const nameGlobs = new Map<string, GraphiteMatcher>();
const metricGlobs = new Map<string, GraphiteMatcher>();
const targetPaths = new Map<string, readonly string[]>();

/** A name glob (name-glob.ts: linear in the name, whatever the pattern). */
function nameGlob(pattern: string): GraphiteMatcher {
  return cached(nameGlobs, pattern, () => compileNameGlob(pattern));
}

/** A Graphite glob; a malformed one (the API refuses those) matches nothing. */
function metricGlob(pattern: string): GraphiteMatcher {
  return cached(metricGlobs, pattern, () => {
    try {
      const automaton = compileGraphitePattern(pattern);
      // The literal start (up to the first wildcard) must begin the path: a cheap refusal for most paths.
      const prefix = pattern.slice(0, pattern.search(/[*?[{]|$/));
      return { test: (path) => path.startsWith(prefix) && automaton.test(path) };
    } catch {
      return { test: () => false };
    }
  });
}

/** The metric paths an alert reads, by the alert (matched against every window of its account in turn). */
const pathsOfAlert = new WeakMap<WindowAlert, string[]>();

/** The metric paths an alert reads (its metric's and its additional criteria's); a target that does not parse is its own path. */
function alertPaths(alert: WindowAlert): string[] {
  let paths = pathsOfAlert.get(alert);
  if (!paths) pathsOfAlert.set(alert, (paths = readPaths(alert)));
  return paths;
}

function readPaths(alert: WindowAlert): string[] {
  const targets = [alert.metric, ...Object.values(alert.additional_criteria ?? {}).map((criterion) => criterion.metric ?? '')];
  return targets.filter(Boolean).flatMap((target) =>
    cached(targetPaths, target, () => {
      try {
        const paths = readTarget(target).paths;
        return paths.length > 0 ? paths : [target];
      } catch {
        return [target];
      }
    }),
  );
}


