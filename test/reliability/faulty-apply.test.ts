import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/run.js';
import { AlertformClient } from '../../src/client/api.js';
import { planAgainstServer } from '../../src/plan/make-plan.js';
import { loadProject } from '../../src/definitions/source.js';
import { writeDefinitionsDir } from '../helpers/definitions-dir.js';
import { startFaultyProxy, type FaultyProxy } from '../helpers/faulty-proxy.js';
import { startTestServer } from '../helpers/server.js';

const RUNS = Number(process.env.FAULTY_RUNS ?? 20);
const ALERTS = 16;
const CHANNELS = 4;

const dir = mkdtempSync(join(tmpdir(), 'alertform-faulty-'));
let proxy: FaultyProxy;
beforeAll(async () => {
  // Seeded: a failure names its run, and FAULTY_RUNS / the seed replay it.
  proxy = await startFaultyProxy('http://127.0.0.1:9', { failureRate: 0.2, seed: 7, maxDelayMs: 1_200 });
});
afterAll(async () => {
  await proxy.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A client whose per-attempt timeout (800 ms) is shorter than a third of the delays (120..1200 ms), so those
 * become lost answers; long enough that a loaded CI machine does not time out answers that were not delayed.
 * Retries do not wait.
 */
function clientFor(server: string, key: string, timeoutMs?: number): AlertformClient {
  return new AlertformClient({
    server,
    apiKey: key,
    ...(timeoutMs ? { timeoutMs } : {}),
    retry: { retries: 8, sleep: async () => {} },
  });
}

async function planAndApply(definitionsDir: string, client: AlertformClient) {
  const loaded = await loadProject(definitionsDir, { env: {} });
  expect(loaded.problems).toEqual([]);
  const { plan, actual } = await planAgainstServer(loaded.definitions, client, { prune: loaded.config.prune });
  expect(plan.problems).toEqual([]);
  const result = await applyPlan(plan, actual, client);
  return { plan, result, definitions: loaded.definitions, prune: loaded.config.prune };
}

describe('apply through a proxy that fails 20% of requests (503, resets, lost answers, delays)', () => {
  it(`converges with no duplicates and no failed step, ${RUNS} runs in a row`, async () => {
    for (let run = 0; run < RUNS; run++) {
      const server = await startTestServer();
      proxy.retarget(server.url);
      const flaky = clientFor(proxy.url, server.key, 800);
      const direct = clientFor(server.url, server.key);
      const repo = join(dir, `run-${run}`);
      try {
        // First apply: everything is a create.
        writeDefinitionsDir(repo, { alerts: ALERTS, channels: CHANNELS, schedules: 2 });
        const first = await planAndApply(repo, flaky);
        expect(first.plan.summary.create, `run ${run}`).toBe(ALERTS + CHANNELS + 2);
        expect(first.result.failed.map((f) => `run ${run} ${f.change.id}: ${f.error.message}`)).toEqual([]);
        expect(first.result.skipped, `run ${run}`).toEqual([]);

        // Second apply: updates, deletes (prune) and creates, again through the faults.
        writeDefinitionsDir(repo, { alerts: ALERTS + 4, channels: CHANNELS, schedules: 2, changeEvery: 3, dropFirst: 4 });
        const second = await planAndApply(repo, flaky);
        expect(second.plan.summary, `run ${run}`).toMatchObject({ create: 4, delete: 4 });
        expect(second.result.failed.map((f) => `run ${run} ${f.change.id}: ${f.error.message}`)).toEqual([]);

        // Straight to the server: each object exactly once, and nothing left to do.
        const alerts = await direct.listAlerts();
        expect(alerts, `run ${run}`).toHaveLength(ALERTS);
        expect(new Set(alerts.map((alert) => alert.name)).size).toBe(ALERTS);
        const channels = await direct.listChannels();
        expect(channels.filter((channel) => channel.description.startsWith('gen-'))).toHaveLength(CHANNELS);
        const again = await planAgainstServer(second.definitions, direct, { prune: second.prune });
        expect(again.plan.changes.map((change) => change.id), `run ${run}`).toEqual([]);
      } finally {
        await server.close();
      }
    }
    // The faults really happened, creates among the lost answers included.
    const faults = new Map<string, number>();
    for (const entry of proxy.log) faults.set(entry.fault, (faults.get(entry.fault) ?? 0) + 1);
    const failed = proxy.log.length - (faults.get('pass') ?? 0);
    expect(failed / proxy.log.length).toBeGreaterThan(0.15);
    for (const fault of ['unavailable', 'reset-before', 'lost-answer', 'delay']) expect(faults.get(fault) ?? 0).toBeGreaterThan(RUNS);
    expect(proxy.log.some((entry) => entry.method === 'POST' && entry.fault === 'lost-answer')).toBe(true);
  }, 120_000);
});
