import { HttpError } from '../errors.js';

/**
 * Backtests one account may run at once. A backtest reads a window (up to 14 days) of every series its criteria
 * match and replays it step by step: seconds of CPU and tens of MB each, so an account gets two, not as many as
 * it can send. Counted per process (each replica has its own).
 */
export const MAX_BACKTESTS_PER_ACCOUNT = 2;

/** What a refused backtest is told to wait, seconds: about what one backtest of a wide wildcard takes. */
const RETRY_AFTER_SECONDS = 10;

/** The backtests running per account. */
export class BacktestSlots {
  readonly #running = new Map<string, number>();

  /**
   * Takes one of the account's slots for `work`, or refuses with 429 rate_limited (`retryAfter` is for the
   * Retry-After header) when the account already runs MAX_BACKTESTS_PER_ACCOUNT.
   */
  async run<T>(accountId: string, work: () => Promise<T>): Promise<T> {
    const running = this.#running.get(accountId) ?? 0;
    if (running >= MAX_BACKTESTS_PER_ACCOUNT) {
      throw new HttpError('rate_limited', `the account already runs ${MAX_BACKTESTS_PER_ACCOUNT} backtests, its limit; retry when one has finished`, {
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    }
    this.#running.set(accountId, running + 1);
    try {
      return await work();
    } finally {
      const left = this.#running.get(accountId)! - 1;
      if (left === 0) this.#running.delete(accountId);
      else this.#running.set(accountId, left);
    }
  }
}
