import type { WindowAlert } from '../../model/maintenance-window.js';

/**
 * Which stored window matches which alert, kept per process until the alert or the window changes: matching is pure
 * and does not depend on the clock, so the evaluator's listings, the overviews and the mute status ask the matcher
 * once per (window version, alert version) and look the answer up afterwards. A tenant at its quotas (10,000 alerts,
 * 200 windows of 20 patterns a key) then pays its matching once, when it writes, not on every listing of everyone.
 *
 * Compact: an account's alerts are numbered (a changed alert takes a new number), and each window version keeps one
 * byte per number. Forgetting is harmless (the next question asks the matcher again): an account that has numbered
 * far more alerts than it holds starts over, and a listing of every window drops the windows and accounts it did
 * not see.
 */

const UNKNOWN = 0;
const NO = 1;
const YES = 2;

/** Numbers an account may hand out before it starts over (four times the default alert quota). */
const MAX_NUMBERS = 40_000;

/** What matching reads of an alert, as one text: another text is another alert version. */
export function alertVersion(alert: WindowAlert): string {
  const criteria = alert.additional_criteria ? Object.values(alert.additional_criteria).map((one) => one.metric ?? '').join('\u0001') : '';
  return `${alert.name}\u0000${alert.metric}\u0000${criteria}\u0000${(alert.notification_channels ?? []).join('\u0001')}`;
}

/** One window version's answers for its account's alerts, by their numbers (WindowMatchCache.numberOf). */
export class WindowAnswers {
  private results: Uint8Array;

  constructor(
    /** The window's match as text: another text is another window version. */
    readonly version: string,
    size: number,
  ) {
    this.results = new Uint8Array(Math.max(64, size));
  }

  /** Whether the window matches alert `number`: true or false when kept, undefined when not asked yet. */
  get(number: number): boolean | undefined {
    const known = number < this.results.length ? this.results[number]! : UNKNOWN;
    return known === UNKNOWN ? undefined : known === YES;
  }

  /** Keeps the answer for alert `number`. */
  set(number: number, matched: boolean): void {
    if (number >= this.results.length) {
      const grown = new Uint8Array(Math.max(number + 1, this.results.length * 2));
      grown.set(this.results);
      this.results = grown;
    }
    this.results[number] = matched ? YES : NO;
  }
}

interface AccountEntry {
  /** Alert id to its current version (what matching reads of it) and number. */
  alerts: Map<string, { key: string; number: number }>;
  next: number;
  windows: Map<string, WindowAnswers>;
}

/** The process's window matches (module-level: every store and route of the process shares it). */
export class WindowMatchCache {
  private readonly accounts = new Map<string, AccountEntry>();

  /**
   * The answers kept for a window version (new ones when the window changed). Asked once per window per listing or
   * request, before its alerts are numbered: an account that has numbered too many alerts starts over here.
   */
  answersOf(accountId: string, windowId: string, version: string): WindowAnswers {
    let account = this.accounts.get(accountId);
    if (!account || account.next >= MAX_NUMBERS) this.accounts.set(accountId, (account = { alerts: new Map(), next: 0, windows: new Map() }));
    let answers = account.windows.get(windowId);
    if (!answers || answers.version !== version) account.windows.set(windowId, (answers = new WindowAnswers(version, account.next)));
    return answers;
  }

  /** The number of the alert's current version in its account (a new one when it changed). */
  numberOf(accountId: string, alertId: string, key: string): number {
    let account = this.accounts.get(accountId);
    if (!account) this.accounts.set(accountId, (account = { alerts: new Map(), next: 0, windows: new Map() }));
    const known = account.alerts.get(alertId);
    if (known && known.key === key) return known.number;
    const number = account.next++;
    account.alerts.set(alertId, { key, number });
    return number;
  }

  /** After a listing of every account's windows: forgets the windows (and accounts) it did not see. */
  retain(windowIdsByAccount: ReadonlyMap<string, ReadonlySet<string>>): void {
    for (const [accountId, account] of this.accounts) {
      const seen = windowIdsByAccount.get(accountId);
      if (!seen) {
        this.accounts.delete(accountId);
        continue;
      }
      for (const windowId of account.windows.keys()) if (!seen.has(windowId)) account.windows.delete(windowId);
    }
  }
}

/** The process's cache. */
export const windowMatches = new WindowMatchCache();
