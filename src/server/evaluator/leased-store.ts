import type { EvaluationLease, Store } from '../store/store.js';

/** Who evaluates and for how long a lease holds. */
export interface LeaseOptions {
  /** This process's name in the lease table; unique per running replica. */
  replica: string;
  /** How long a lease lasts without renewal; renewed at the start of every cycle. */
  ttlMs: number;
}

/**
 * The store as one replica's evaluator sees it: each round starts by renewing and taking leases
 * (acquireEvaluationLeases), lists only the alerts of the partitions held, and saves fenced by that lease, so a
 * round that lost a partition midway writes (and, with the outbox, notifies) nothing for it. On SQLite the lease
 * is on everything and nothing changes.
 */
export function withEvaluationLeases(store: Store, options: LeaseOptions): Store {
  let lease: EvaluationLease | undefined;
  // The other methods are the store's own; Object.create keeps them bound to the same connection or pool.
  const leased = Object.create(store) as Store;
  leased.listAlertsForEvaluation = async () => {
    lease = await store.acquireEvaluationLeases(options.replica, options.ttlMs);
    return store.listAlertsForEvaluation(lease);
  };
  leased.saveEvaluations = (results) => store.saveEvaluations(results, lease);
  return leased;
}
