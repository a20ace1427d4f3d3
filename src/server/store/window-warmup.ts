import type { AccountWindows, WindowAlertOf } from './window-mutes.js';

/**
 * The first matching of an account's windows against its alerts, kept off everyone else's evaluation.
 *
 * Window answers are kept per process (window-match-cache.ts), so after a start, or on a replica that did not serve
 * a window's write, the evaluator's listing meets every (window, alert) pair unanswered. For a hostile tenant at the
 * quotas (10,000 alerts, 200 windows of 20 patterns) that is a minute or more of CPU: matched inline, it would hold
 * that listing, and so every other tenant's first cycle, for as long. Instead each account may spend a bounded share
 * of a listing (LISTING_BUDGET_MS) on its unanswered pairs; its alerts still unanswered after that are left out of
 * the cycle (the evaluator judges them at a later one) and matched here, in the background, a slice at a time and
 * account by account in turn. Only the account whose matching is expensive waits for it.
 */

/** What one listing may spend matching one account's unanswered pairs (ms): a benign account's whole first matching. */
export const LISTING_BUDGET_MS = 100;

/** How long background matching holds the event loop before it yields (ms). */
const SLICE_MS = 10;

/** Accounts whose alerts a listing put off, matched in the background in turns. */
export class WindowWarmup {
  private readonly queue = new Map<string, { windows: AccountWindows; alerts: readonly WindowAlertOf[]; next: number }>();
  private running: Promise<void> | null = null;

  /** Matches `alerts` of one account in the background, replacing what was queued for it (a later listing knows better). */
  enqueue(accountId: string, windows: AccountWindows, alerts: readonly WindowAlertOf[]): void {
    this.queue.set(accountId, { windows, alerts, next: 0 });
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
  }

  /** Alerts still waiting to be matched. */
  get waiting(): number {
    let count = 0;
    for (const entry of this.queue.values()) count += entry.alerts.length - entry.next;
    return count;
  }

  /** Resolves once nothing is queued. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    // Not within the caller's turn (a listing that is ending).
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.size > 0) {
      for (const accountId of [...this.queue.keys()]) {
        const entry = this.queue.get(accountId);
        if (!entry) continue;
        const sliceStart = performance.now();
        while (entry.next < entry.alerts.length && performance.now() - sliceStart < SLICE_MS) {
          const { alertId, alert } = entry.alerts[entry.next++]!;
          entry.windows.matching(accountId, alertId, alert);
        }
        if (entry.next >= entry.alerts.length && this.queue.get(accountId) === entry) this.queue.delete(accountId);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
}

/** The process's background matching (module-level, as the answers it fills are). */
export const windowWarmup = new WindowWarmup();

/**
 * One evaluator listing's window matching, account by account: the time each account spent on unanswered pairs,
 * and the alerts put off once it used its share (AccountWindows.prepare).
 */
export class ListingMatching {
  private readonly spentMs = new Map<string, number>();
  private readonly later = new Map<string, WindowAlertOf[]>();
  /** The ids of the alerts left out of this listing. */
  readonly deferred = new Set<string>();
  /** Those left out since takeDeferred last answered. */
  private fresh: string[] = [];

  constructor(
    private readonly warmup: WindowWarmup = windowWarmup,
    private readonly budgetMs: number = LISTING_BUDGET_MS,
  ) {}

  /** Whether the account has used its share of this listing (each account has at least one alert matched). */
  exhausted(accountId: string): boolean {
    const spent = this.spentMs.get(accountId);
    return spent !== undefined && spent >= this.budgetMs;
  }

  /** Counts `ms` of matching against the account's share. */
  charge(accountId: string, ms: number): void {
    this.spentMs.set(accountId, (this.spentMs.get(accountId) ?? 0) + ms);
  }

  /** Leaves the alert out of this listing; `finish` hands it to the background. */
  defer(one: WindowAlertOf): void {
    this.deferred.add(one.alertId);
    this.fresh.push(one.alertId);
    const list = this.later.get(one.accountId);
    if (list) list.push(one);
    else this.later.set(one.accountId, [one]);
  }

  /** The alerts left out since the last call (a page's, for EvaluationPaging.onDeferred). */
  takeDeferred(): string[] {
    const taken = this.fresh;
    this.fresh = [];
    return taken;
  }

  /** After the listing's pages: the alerts left out are matched in the background, each account in turn. */
  finish(windows: AccountWindows): void {
    for (const [accountId, alerts] of this.later) this.warmup.enqueue(accountId, windows, alerts);
    this.later.clear();
  }
}
