import type { ClaimCandidate, ClaimedDelivery } from '../store/outbox.js';

/** The most of a worker's slots one account, and one destination, may hold at once. */
export interface FairShareLimits {
  perAccount: number;
  perDestination: number;
}

/**
 * Default shares of a worker's `concurrency` slots: an account half of them, a destination a quarter. One tenant's
 * hanging endpoints then hold at most half the slots until their attempts time out, and the other half stays free
 * for every other account; a single-tenant install still sends several notifications at once.
 */
export function defaultFairShare(concurrency: number): FairShareLimits {
  return { perAccount: Math.max(1, Math.floor(concurrency / 2)), perDestination: Math.max(1, Math.floor(concurrency / 4)) };
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
   * A filter for one claim: admits a due row while its account and destination are under their share, counting
   * the rows it admitted so far in this claim (the claim's rows are then `add`ed once they are claimed).
   */
  admitter(): (candidate: ClaimCandidate) => boolean {
    const accounts = new Map<string, number>();
    const destinations = new Map<string, number>();
    return ({ accountId, destination }) => {
      const account = (this.accounts.get(accountId) ?? 0) + (accounts.get(accountId) ?? 0);
      const target = (this.destinations.get(destination) ?? 0) + (destinations.get(destination) ?? 0);
      if (account >= this.limits.perAccount || target >= this.limits.perDestination) return false;
      accounts.set(accountId, (accounts.get(accountId) ?? 0) + 1);
      destinations.set(destination, (destinations.get(destination) ?? 0) + 1);
      return true;
    };
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
