import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphiteClient } from '../../src/graphite/render-client.js';
import { runEvaluationCycle } from '../../src/server/evaluator/run-cycle.js';
import { healthWhile } from '../helpers/event-loop-lag.js';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { MemoryEvaluationStore } from '../helpers/memory-evaluation-store.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 19, item 2. Matching is linear per (pattern, name) pair but costs the pattern's length times the name's:
// before, 4 KB patterns batched against 4 KB names held the event loop (and /healthz) for seconds. After, long
// patterns and names are never matched here (Graphite expands such wildcards alone), matching yields every few ms,
// and a batch or cycle that runs over its matching budget asks Graphite for its wildcards alone.
const NOW = 1_700_000_010;
// Bounds in the thread's CPU time (event-loop-lag.ts), loose enough for parsing the long answers; before the fix
// the same runs held the loop for many seconds (/healthz timed out).

/** A pattern of `length` characters, `*a*a…*b`: every `*` stays a live state against a run of a's. */
const hostilePattern = (length: number) => `${'*a'.repeat(Math.floor((length - 2) / 2))}*b`;
/** A name the hostile patterns match (a's, then a b), and names they almost match (a's only). */
const matchingName = (length: number) => `${'a'.repeat(length - 1)}b`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/**
 * A render endpoint: a shared request (several targets) gets `count` series of names `nameLength` long (only
 * a's, which no hostile pattern matches); a target asked alone gets the one series Graphite would expand it to.
 */
async function startLongSeriesRender(count: number, nameLength: number) {
  const names = Array.from({ length: count }, (_, i) => `${String(i).padStart(6, '0')}${'a'.repeat(nameLength - 6)}`);
  return startFakeRender((request) =>
    request.targets.length > 1
      ? { series: names.map((name) => makeSeries(name, [5, 5], NOW, 30)) }
      : { series: [makeSeries(matchingName(nameLength), [5, 5], NOW, 30)] },
  );
}

async function evaluateHostile(patternLength: number, nameLength: number, series: number, alerts: number) {
  const fake = await startLongSeriesRender(series, nameLength);
  try {
    const store = new MemoryEvaluationStore();
    for (let i = 0; i < alerts; i += 1) {
      // Each pattern distinct, all matching the one long name.
      store.addAlert({ id: `hostile-${i}`, metric: `*{a,z${i}}${hostilePattern(patternLength - 8)}`, alertCriteria: { type: 'above', above_value: 1 } });
    }
    const graphite = createGraphiteClient({ baseUrl: fake.url, maxBodyBytes: 1_000_000 });
    const run = await healthWhile(server.url, () => runEvaluationCycle({ store, graphite, now: () => NOW * 1000 }));
    // Every alert was judged on the series its own pattern expands to, whichever way it was asked.
    for (const alert of store.alerts.values()) expect(alert.currentlyTriggeredMetrics, alert.id).toEqual([matchingName(nameLength)]);
    return { run, requests: fake.requests };
  } finally {
    await fake.close();
  }
}

describe('matching series to wildcard patterns keeps the server answering', () => {
  it('answers /healthz promptly while 4 KB patterns meet 300 series of 4 KB names', async () => {
    const { run, requests } = await evaluateHostile(4_096, 4_096, 300, 20);
    expect(run.answers).toBeGreaterThan(0);
    expect(run.slowestCpuMs).toBeLessThan(1_000);
    expect(run.maxHoldMs).toBeLessThan(750);
    // No shared request for patterns this long: Graphite expanded each.
    expect(requests.every((request) => request.targets.length === 1)).toBe(true);
  }, 60_000);

  it('asks Graphite again, alone, for the wildcards of a batch whose names are too long to match here', async () => {
    const { run, requests } = await evaluateHostile(400, 4_096, 300, 20);
    expect(requests[0]!.targets).toHaveLength(20);
    expect(requests.filter((request) => request.targets.length === 1)).toHaveLength(20);
    expect(run.slowestCpuMs).toBeLessThan(1_000);
    expect(run.maxHoldMs).toBeLessThan(750);
  }, 60_000);

  it('bounds the matching work of a batch and yields while doing it', async () => {
    // 100 patterns of 500 characters against 2,000 names of 1,000: minutes of matching, were it all done.
    const { run, requests } = await evaluateHostile(500, 1_000, 2_000, 100);
    expect(requests.filter((request) => request.targets.length === 1)).toHaveLength(100);
    expect(run.slowestCpuMs).toBeLessThan(1_000);
    expect(run.maxHoldMs).toBeLessThan(750);
    expect(run.cpuMs).toBeLessThan(20_000);
  }, 60_000);
});
