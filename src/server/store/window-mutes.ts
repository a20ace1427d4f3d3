import { activeWindowEnd, windowMatcher, type MaintenanceWindow, type Matcher, type WindowAlert } from '../../model/maintenance-window.js';
import type { NewHistoryEntry } from './store.js';
import { alertVersion, windowMatches, type WindowAnswers, type WindowMatchCache } from './window-match-cache.js';
import type { MutingWindow, WindowRecord } from './window-store.js';
import type { ListingMatching } from './window-warmup.js';

/**
 * Which windows mute which alerts, for the evaluator's listing (both backends) and the API's mute status. Matching
 * is done once per listing (a pair's match does not depend on the clock); each cycle then only asks whether the
 * alert's few matched windows are active (activeMutingWindow).
 */

/** A window as the model's functions read it (the API's read form without id and authors). */
export function modelWindow(record: WindowRecord): MaintenanceWindow & { id: string } {
  return {
    id: record.id,
    name: record.name,
    reason: record.reason,
    match: record.match,
    starts_at: record.startsAt,
    start_time: record.startTime,
    repeat: record.repeat,
    timezone: record.timezone,
    duration: record.duration,
  };
}

export type MatchedWindow = MaintenanceWindow & { id: string };

const NONE: readonly MatchedWindow[] = [];
/** Windows store channel ids, and the evaluator's alerts carry ids: no names to look up. */
const NO_NAMES: ReadonlyMap<string, string> = new Map();

/** One alert as window matching reads it, with its id and account. */
export interface WindowAlertOf {
  accountId: string;
  alertId: string;
  alert: WindowAlert;
}

/** How long matching may hold the event loop before it yields (a tenant's first matching at its quotas takes seconds). */
const SLICE_MS = 10;

/**
 * The windows of some accounts, matched against their alerts through the process's cache (window-match-cache.ts):
 * a (window, alert) pair is asked of the matcher once per version of each.
 */
export class AccountWindows {
  private readonly byAccount = new Map<string, { window: MatchedWindow; answers: WindowAnswers; matches: Matcher }[]>();

  /**
   * `everything`: the records are every window of every account (the evaluator's listing), so the cache may forget
   * the windows and accounts not among them.
   */
  constructor(records: readonly WindowRecord[], options: { everything?: boolean; cache?: WindowMatchCache } = {}) {
    this.cache = options.cache ?? windowMatches;
    if (options.everything) {
      const seen = new Map<string, Set<string>>();
      for (const record of records) seen.set(record.accountId, (seen.get(record.accountId) ?? new Set()).add(record.id));
      this.cache.retain(seen);
    }
    for (const record of records) {
      const list = this.byAccount.get(record.accountId) ?? [];
      const window = modelWindow(record);
      const answers = this.cache.answersOf(record.accountId, record.id, JSON.stringify(record.match));
      list.push({ window, answers, matches: windowMatcher(window) });
      this.byAccount.set(record.accountId, list);
    }
  }

  private readonly cache: WindowMatchCache;

  /** Whether no account has a window (most servers): nothing to match. */
  get empty(): boolean {
    return this.byAccount.size === 0;
  }

  /** The windows of the alert's account that match it (channels as ids: windows store channel ids). */
  matching(accountId: string, alertId: string, alert: WindowAlert): readonly MatchedWindow[] {
    const windows = this.byAccount.get(accountId);
    if (!windows) return NONE;
    const number = this.cache.numberOf(accountId, alertId, alertVersion(alert));
    let matched: MatchedWindow[] | null = null;
    for (const { window, answers, matches } of windows) {
      let yes = answers.get(number);
      if (yes === undefined) answers.set(number, (yes = matches(alert, NO_NAMES)));
      if (yes) (matched ??= []).push(window);
    }
    return matched ?? NONE;
  }

  /** Whether every window of the alert's account has its answer for the alert kept (nothing to match). */
  answered(accountId: string, alertId: string, alert: WindowAlert): boolean {
    const windows = this.byAccount.get(accountId);
    if (!windows) return true;
    const number = this.cache.numberOf(accountId, alertId, alertVersion(alert));
    for (const { answers } of windows) if (answers.get(number) === undefined) return false;
    return true;
  }

  /**
   * Matches `alerts` now, yielding to the event loop every few milliseconds, so that `matching` then only looks the
   * answers up: a listing or an overview calls it before its synchronous loop. With `listing` (the evaluator's), an
   * account that has used its share of the listing has its unanswered alerts put off instead (window-warmup.ts).
   */
  async prepare(alerts: Iterable<WindowAlertOf>, listing?: ListingMatching): Promise<void> {
    if (this.empty) return;
    let sliceStart = performance.now();
    for (const one of alerts) {
      const { accountId, alertId, alert } = one;
      if (!this.byAccount.has(accountId)) continue;
      if (!listing) this.matching(accountId, alertId, alert);
      else if (listing.exhausted(accountId)) {
        if (!this.answered(accountId, alertId, alert)) listing.defer(one);
      } else {
        const started = performance.now();
        this.matching(accountId, alertId, alert);
        listing.charge(accountId, performance.now() - started);
      }
      if (performance.now() - sliceStart >= SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }
}

/** The matched window that mutes at `now` (the one that lasts longest), or null. */
export function activeMutingWindow(windows: readonly MatchedWindow[], now: number): MutingWindow | null {
  let found: MutingWindow | null = null;
  for (const window of windows) {
    const until = activeWindowEnd(window, now);
    if (until !== null && (found === null || until > found.until)) {
      found = { id: window.id, name: window.name, startedAt: until - window.duration * 60_000, until };
    }
  }
  return found;
}

/** One alert muted by one window episode, to be recorded once (`muted_by_window` in its history). */
export interface WindowMute extends MutingWindow {
  alertId: string;
  /** Unix seconds: the cycle that saw it muted (a window made during its occurrence mutes from then). */
  time: number;
}

/** The history entry of a window episode's mute. */
export function windowMuteEntry(mute: WindowMute): NewHistoryEntry {
  return {
    alertId: mute.alertId,
    status: 'muted_by_window',
    value: null,
    metric: '',
    time: mute.time,
    reason: `muted by maintenance window "${mute.name}" until ${new Date(mute.until).toISOString()}`,
  };
}
