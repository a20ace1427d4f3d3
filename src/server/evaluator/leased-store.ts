import { LeaseLost, type EvaluationLease, type Store } from '../store/store.js';

/** Who evaluates and for how long a lease holds. */
export interface LeaseOptions {
  /** This process's name in the lease table; unique per running replica. */
  replica: string;
  /** How long a lease lasts without renewal; renewed at the start of every round and at every heartbeat. */
  ttlMs: number;
}

/** One replica's evaluation leases: the store as its evaluator sees it, and the heartbeat between rounds. */
export interface ReplicaLeases {
  /**
   * The store for the evaluator: each round starts by renewing and taking leases (acquireEvaluationLeases), lists
   * only the alerts of the partitions held, and saves fenced by that lease, so a round that lost a partition midway
   * writes (and, with the outbox, notifies) nothing for it. On SQLite the lease is on everything.
   */
  store: Store;
  /**
   * Renews the leases held and takes free partitions up to the fair share (renewEvaluationLeases). Answers whether
   * it took partitions this replica did not hold: their alerts wait for a round, so the caller should run one.
   */
  heartbeat(): Promise<boolean>;
  /** Whether leases mean anything here: false on a single-node store, which needs no heartbeat. */
  shared(): boolean;
}

export function withEvaluationLeases(store: Store, options: LeaseOptions): ReplicaLeases {
  // The lease of the round in flight: its save is fenced by the tokens its list was read under, never by a newer
  // lease a heartbeat took meanwhile (a partition lost and taken back would carry a state read before).
  let roundLease: EvaluationLease | undefined;
  let held = new Set<number>();
  let single = false;
  const remember = (lease: EvaluationLease): Set<number> => {
    const before = held;
    single = lease.tokens === null;
    held = new Set(lease.tokens?.keys() ?? []);
    return before;
  };
  // The other methods are the store's own; Object.create keeps them bound to the same connection or pool.
  const leased = Object.create(store) as Store;
  leased.listAlertsForEvaluation = async () => {
    const askedAt = performance.now();
    roundLease = await store.acquireEvaluationLeases(options.replica, options.ttlMs);
    remember(roundLease);
    const alerts = await store.listAlertsForEvaluation(roundLease);
    // The database granted the lease until ttl after it received the request, which was no earlier than askedAt:
    // past askedAt + ttl on this process's monotonic clock (immune to wall-clock jumps), the partitions may be
    // another replica's already. An answer that slow (a stalled or partitioned link) is not evaluated at all.
    if (roundLease.tokens !== null && performance.now() - askedAt >= options.ttlMs) {
      throw new LeaseLost([...roundLease.tokens.keys()]);
    }
    return alerts;
  };
  leased.saveEvaluations = (results) => store.saveEvaluations(results, roundLease);
  return {
    store: leased,
    async heartbeat() {
      const lease = await store.renewEvaluationLeases(options.replica, options.ttlMs);
      const before = remember(lease);
      return [...held].some((partition) => !before.has(partition));
    },
    shared: () => !single,
  };
}
