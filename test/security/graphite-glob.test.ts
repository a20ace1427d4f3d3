import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../src/definitions/load.js';
import { formatProblem } from '../../src/definitions/problems.js';
import { createGraphiteClient } from '../../src/graphite/render-client.js';
import { runEvaluationCycle } from '../../src/server/evaluator/run-cycle.js';
import { measureLag } from '../helpers/event-loop-lag.js';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { MemoryEvaluationStore } from '../helpers/memory-evaluation-store.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 12, item 2. Before: the pattern below compiled to ^[^.]*a[^.]*a…[^.]*b$ and one test against the 50-letter
// name backtracked for seconds (15.7 s for a 60-letter name here), freezing the API; after: about a millisecond.
const HOSTILE = `${'*a'.repeat(6)}*b`;
const LONG_NAME = 'a'.repeat(50);
const NOW = 1_700_000_010;

describe('Graphite pattern matching runs in linear time', () => {
  it('evaluates a hostile pattern batched with a long series name without holding the event loop', async () => {
    const fake = await startFakeRender(() => ({ series: [makeSeries(LONG_NAME, [5, 5], NOW, 30)] }));
    try {
      const store = new MemoryEvaluationStore();
      store.addAlert({ id: 'hostile', metric: HOSTILE, alertCriteria: { type: 'above', above_value: 1 } });
      store.addAlert({ id: 'long', metric: LONG_NAME, alertCriteria: { type: 'above', above_value: 1 } });
      const graphite = createGraphiteClient({ baseUrl: fake.url });
      const run = await measureLag(() => runEvaluationCycle({ store, graphite, now: () => NOW * 1000 }));
      // One shared request: the hostile pattern really was matched against the long name here, not by Graphite.
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]!.targets.sort()).toEqual([HOSTILE, LONG_NAME].sort());
      expect(store.alerts.get('long')!.status).toBe('alerting');
      expect(store.alerts.get('hostile')!.currentlyTriggeredMetrics).toEqual([]);
      expect(run.maxHoldMs).toBeLessThan(500);
      expect(run.cpuMs).toBeLessThan(1_500);
    } finally {
      await fake.close();
    }
  });
});

describe('malformed patterns are refused at create time', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const create = (metric: string, additional?: Record<string, unknown>) =>
    server.request('POST', '/v2/alerts', {
      name: `alert ${metric}`,
      metric,
      alert_criteria: { type: 'above', above_value: 1 },
      ...(additional ? { additional_criteria: additional, expression: 'a && b' } : {}),
    });

  it.each([
    ['servers.[z-a].cpu', 'range "z-a" is reversed (at character 10)'],
    ['servers.[ab.cpu', '"[" is never closed (at character 9)'],
    ['servers.{web,db.cpu', '"{" is never closed (at character 9)'],
    ['servers.web}.cpu', '"}" without a matching "{" (at character 12)'],
  ])('%s is a 400 naming the metric', async (metric, reason) => {
    const response = await create(metric);
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ path: 'metric', message: `has a malformed pattern: ${reason}` }]);
  });

  it('finds a malformed pattern inside a function call and in additional criteria', async () => {
    const inCall = await create('sumSeries(servers.[z-a].cpu, other.x)');
    expect(inCall.status).toBe(400);
    expect(inCall.body.error.details[0]).toMatchObject({ path: 'metric', message: expect.stringContaining('in "servers.[z-a].cpu"') });
    const additional = await create('servers.x', { b: { metric: 'a.{b', type: 'above', above_value: 1 } });
    expect(additional.status).toBe(400);
    expect(additional.body.error.details[0]).toMatchObject({ path: 'additional_criteria.b.metric' });
  });

  it('accepts well-formed wildcards, hostile or not', async () => {
    for (const metric of ['servers.{web,db}[0-9].cpu.*', HOSTILE, 'sumSeries(a.{b,c}.d, "x")', 'seriesByTag("name=cpu")']) {
      expect((await create(metric)).status, metric).toBe(201);
    }
  });
});

describe('malformed patterns are a problem at file:line in validate', () => {
  it('points at the metric', () => {
    const text = 'alerts:\n  - name: cpu\n    metric: servers.[z-a].cpu\n    alert_criteria: {type: above, above_value: 1}\n';
    const result = loadDefinitions([{ path: 'alerts.yaml', text }], { env: {} });
    expect(result.problems.map(formatProblem)).toEqual([
      'alerts.yaml:3:13  alerts.0.metric  has a malformed pattern: range "z-a" is reversed (at character 10)',
    ]);
  });
});
