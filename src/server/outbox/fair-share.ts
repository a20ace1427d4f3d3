import type { ClaimCandidate, ClaimedDelivery } from '../store/outbox.js';

/**
 * How a worker's slots are shared. Within its share an account (a destination) is always served in its turn; past
 * it, it may borrow slots nobody else wants now, up to its cap, so a quarter of the slots always stays free for
 * other accounts' next notifications.
 */
export interface FairShareLimits {
  perAccount: number;
  perDestination: number;
  /** The most an account may hold, borrowing included. */
  accountCap: number;
  /** The most a destination may hold, borrowing included. */
  destinationCap: number;
}

/**
 * Default shares of a worker's `concurrency` slots: an account half of them, a destination a quarter; borrowing up
 * to three quarters and a half. One tenant's hanging endpoints then never hold more than three quarters of the
 * slots (each for at most 8 s: 3 s to connect, 5 s to answer), and a single-tenant install still sends many
 * notifications at once.
 */
export function defaultFairShare(concurrency: number): FairShareLimits {
  const part = (fraction: number) => Math.max(1, Math.floor(concurrency * fraction));
  return { perAccount: part(1 / 2), perDestination: part(1 / 4), accountCap: part(3 / 4), destinationCap: part(1 / 2) };
}

/**
 * The deliveries a worker has in flight, counted per account and per destination, and the claim filter that keeps
 * each within its share. Destinations are counted by their full text (a webhook URL, a routing key), never logged.
 */
export class FairShare {
  private readonly accounts = new Map<string, number>();
  private readonly destinations = new Map<string, number>();

  constructor(private readonly limits: FairShareLimits) {}

  /**
   * A filter for one claim: admits a due row while its account and destination are under their share (in the
   * `spare` pass: under their cap), counting the rows it admitted so far in this claim (the claim's rows are then
   * `add`ed once they are claimed).
   */
  admitter(): (candidate: ClaimCandidate, pass: 'share' | 'spare') => boolean {
    const accounts = new Map<string, number>();
    const destinations = new Map<string, number>();
    return ({ accountId, destination }, pass) => {
      const account = (this.accounts.get(accountId) ?? 0) + (accounts.get(accountId) ?? 0);
      const target = (this.destinations.get(destination) ?? 0) + (destinations.get(destination) ?? 0);
      const [accountLimit, destinationLimit] =
        pass === 'share' ? [this.limits.perAccount, this.limits.perDestination] : [this.limits.accountCap, this.limits.destinationCap];
      if (account >= accountLimit || target >= destinationLimit) return false;
      accounts.set(accountId, (accounts.get(accountId) ?? 0) + 1);
      destinations.set(destination, (destinations.get(destination) ?? 0) + 1);
      return true;
    };
  }

  /** The accounts and destinations at their cap: a claim need not even look at their rows. */
  saturated(): { accounts: string[]; destinations: string[] } {
    const full = (counts: Map<string, number>, cap: number) => [...counts].filter(([, count]) => count >= cap).map(([key]) => key);
    return { accounts: full(this.accounts, this.limits.accountCap), destinations: full(this.destinations, this.limits.destinationCap) };
  }

  add(delivery: ClaimedDelivery): void {
    bump(this.accounts, delivery.accountId, 1);
    bump(this.destinations, delivery.channel.destination, 1);
  }

  remove(delivery: ClaimedDelivery): void {
    bump(this.accounts, delivery.accountId, -1);
    bump(this.destinations, delivery.channel.destination, -1);
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const count = (counts.get(key) ?? 0) + by;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}
