import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startEvaluator } from '../../../../src/server/evaluator/evaluator.js';
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

  it('counts a cycle whose lease ran out as given up, not failed: told as given up, a warning naming the partitions', async () => {
    const slow = slowLeaseStore(60);
    const lines: { level: string; msg: string; partitions?: number[] }[] = [];
    let logged!: () => void;
    const warned = new Promise<void>((resolve) => (logged = resolve));
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        logged();
        done();
      },
    });
    const logger = pino({ level: 'warn', formatters: { level: (label) => ({ level: label }) } }, sink);
    const failed: Error[] = [];
    const givenUp: number[][] = [];
    const evaluator = startEvaluator({
      store: slow.store,
      leases: replicaLeases(slow.store, { replica: 'r1', ttlMs: 50 }),
      graphiteUrl: 'http://127.0.0.1:9',
      intervalSeconds: 3600,
      logger,
      onCycleFailed: (error) => failed.push(error),
      onCycleGivenUp: (error) => givenUp.push(error.partitions),
    });
    await warned;
    await evaluator.stop();
    expect(failed).toEqual([]);
    expect(givenUp).toEqual([[0, 1]]);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', partitions: [0, 1], msg: expect.stringContaining('its lease ran out') })]);
    expect(slow.listed()).toBe(1);
  });
});
