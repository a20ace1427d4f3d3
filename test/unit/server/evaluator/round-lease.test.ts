import { describe, expect, it } from 'vitest';
import { listRound, replicaLeases } from '../../../../src/server/evaluator/round-lease.js';
import type { EvaluationStore } from '../../../../src/server/store/evaluation-store.js';
import { LeaseLost, type EvaluationLease } from '../../../../src/server/store/evaluation-store.js';

/** A store whose lease answer takes `delayMs` to come back (a stalled link), holding partitions 0 and 1. */
function slowLeaseStore(delayMs: number): { store: EvaluationStore; listed: () => number } {
  let listed = 0;
  const lease: EvaluationLease = { replica: 'r1', tokens: new Map([[0, 1], [1, 1]]), partitionCount: 2 };
  const store = {
    acquireEvaluationLeases: async () => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return lease;
    },
    listAlertsForEvaluation: async () => {
      listed += 1;
      return [];
    },
  } as unknown as EvaluationStore;
  return { store, listed: () => listed };
}

describe('evaluation leases as a replica sees them', () => {
  it('refuses to evaluate a round whose lease answer came back later than the lease lasts (LeaseLost)', async () => {
    const slow = slowLeaseStore(120);
    const leases = replicaLeases(slow.store, { replica: 'r1', ttlMs: 100 });
    await expect(listRound(slow.store, Date.now(), leases)).rejects.toBeInstanceOf(LeaseLost);
  });

  it('evaluates a round whose lease answer came back in time', async () => {
    const quick = slowLeaseStore(0);
    const leases = replicaLeases(quick.store, { replica: 'r1', ttlMs: 1_000 });
    await expect(listRound(quick.store, Date.now(), leases)).resolves.toMatchObject({ alerts: [] });
    expect(quick.listed()).toBe(1);
  });
});
