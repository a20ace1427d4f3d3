import { activeWindowEnd, windowMatcher, type MaintenanceWindow, type Matcher, type WindowAlert } from '../../model/maintenance-window.js';
import type { NewHistoryEntry } from './store.js';
import type { MutingWindow, WindowRecord } from './window-store.js';

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

/** The windows of a listing's accounts, matched against that listing's alerts. */
export class AccountWindows {
  private readonly byAccount = new Map<string, { window: MatchedWindow; matches: Matcher }[]>();

  constructor(records: readonly WindowRecord[]) {
    for (const record of records) {
      const list = this.byAccount.get(record.accountId) ?? [];
      const window = modelWindow(record);
      list.push({ window, matches: windowMatcher(window) });
      this.byAccount.set(record.accountId, list);
    }
  }

  /** Whether no account has a window (most servers): nothing to match. */
  get empty(): boolean {
    return this.byAccount.size === 0;
  }

  /** The windows of the alert's account that match it (channels as ids: windows store channel ids). */
  matching(accountId: string, alert: WindowAlert): readonly MatchedWindow[] {
    const windows = this.byAccount.get(accountId);
    if (!windows) return NONE;
    let matched: MatchedWindow[] | null = null;
    for (const { window, matches } of windows) if (matches(alert, NO_NAMES)) (matched ??= []).push(window);
    return matched ?? NONE;
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
