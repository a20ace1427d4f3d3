import { LeaseLost, type EvaluationLease } from '../store/evaluation-store.js';
import type { EvaluationAlert, EvaluationPaging, EvaluationStore } from '../store/evaluation-store.js';

/** Who evaluates and for how long a lease holds. */
export interface LeaseOptions {
  /** This process's name in the lease table; unique per running replica. */
  replica: string;
  /** How long a lease lasts without renewal; renewed at the start of every round and at every heartbeat. */
  ttlMs: number;
}

/** One round's alerts and the lease they were listed under: its save is fenced by it (absent: not fenced). */
export interface Round {
  alerts: EvaluationAlert[];
  lease?: EvaluationLease;
}

/** This replica's evaluation leases: taken at each round, renewed by a heartbeat between rounds, released at the end. */
export interface ReplicaLeases {
  readonly options: LeaseOptions;
  /** Renews and takes the replica's fair share of the partitions for a round (acquireEvaluationLeases). */
  acquire(): Promise<EvaluationLease>;
  /**
   * Renews the leases held and takes free partitions up to the fair share (renewEvaluationLeases). Answers whether
   * it took partitions this replica did not hold: their alerts wait for a round, so the caller should run one.
   */
  heartbeat(): Promise<boolean>;
  /** Whether leases mean anything here: false on a single-node store, which needs no heartbeat. */
  shared(): boolean;
  /** Hands the partitions over now (a clean shutdown) rather than when the lease expires. */
  release(): Promise<void>;
}

/** The lease bookkeeping of one replica over its store (the partitions it holds, whether they are shared at all). */
export function replicaLeases(store: EvaluationStore, options: LeaseOptions): ReplicaLeases {
  let held = new Set<number>();
  // Until the first lease says otherwise, assume sharing: the heartbeat stops by itself on a single node.
  let single = false;
  const remember = (lease: EvaluationLease): Set<number> => {
    const before = held;
    single = lease.tokens === null;
    held = new Set(lease.tokens?.keys() ?? []);
    return before;
  };
  return {
    options,
    async acquire() {
      const lease = await store.acquireEvaluationLeases(options.replica, options.ttlMs);
      remember(lease);
      return lease;
    },
    async heartbeat() {
      const before = remember(await store.renewEvaluationLeases(options.replica, options.ttlMs));
      return [...held].some((partition) => !before.has(partition));
    },
    shared: () => !single,
    release: () => store.releaseEvaluationLeases(options.replica),
  };
}

/**
 * Lists one round's alerts. With leases: takes the round's lease first and lists only the alerts of its partitions;
 * the round's save is then fenced by that lease (the one its list was read under, never a newer one a heartbeat
 * took meanwhile: a partition lost and taken back would carry a state read before), so a round that lost a
 * partition midway writes (and notifies) nothing for it. Without leases (tests, tools): every alert, not fenced.
 * With `paging`, the alerts go to `paging.onPage` a page at a time as they are read (and `alerts` is empty).
 */
export async function listRound(store: EvaluationStore, now: number, leases?: ReplicaLeases, paging?: EvaluationPaging): Promise<Round> {
  if (!leases) return { alerts: await store.listAlertsForEvaluation(now, undefined, paging) };
  const askedAt = performance.now();
  const lease = await leases.acquire();
  const alerts = await store.listAlertsForEvaluation(now, lease, paging);
  // The database granted the lease until ttl after it received the request, which was no earlier than askedAt:
  // past askedAt + ttl on this process's monotonic clock (immune to wall-clock jumps), the partitions may be
  // another replica's already. An answer that slow (a stalled or partitioned link) is not evaluated at all.
  if (lease.tokens && performance.now() - askedAt >= leases.options.ttlMs) throw new LeaseLost([...lease.tokens.keys()]);
  return { alerts, lease };
}
