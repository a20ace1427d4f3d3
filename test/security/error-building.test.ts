import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../src/definitions/load.js';
import { measureLag, threadCpuMs } from '../helpers/event-loop-lag.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Before: 40,000 bad ids held the event loop 4-8 s (6.8 s here) and answered 1.9 MB;
// 200,000 bad channels 270 s and 17.9 MB. Bounds are in the thread's CPU time (event-loop-lag.ts),
// which a busy machine does not stretch, and far below "before".
const FAST_MS = 1_500;
const SMALL_BODY = 64 * 1024;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Sends `body` and, while the server works on it, asks /healthz: the work it costs and the longest hold of the loop. */
async function hostile(method: string, path: string, body: unknown) {
  const measure = await measureLag(async () => {
    const answer = server.request(method, path, body);
    const health = server.request('GET', '/healthz');
    return { answer: await answer, health: await health };
  });
  return { ...measure.result, cpuMs: measure.cpuMs, maxHoldMs: measure.maxHoldMs };
}

describe('error reporting is linear and bounded (server)', () => {
  it('answers a bulk mute of 40,000 invalid ids at once, refusing their number', async () => {
    const run = await hostile('POST', '/v2/alerts/muted', { duration: 5, ids: Array.from({ length: 40_000 }, (_, i) => i) });
    expect(run.answer.status).toBe(400);
    expect(run.answer.body.error.message).toBe('body has more than 20000 values');
    expect(run.health.status).toBe(200);
    expect(run.cpuMs).toBeLessThan(FAST_MS / 2);
    expect(run.maxHoldMs).toBeLessThan(FAST_MS / 2);
  });

  it('answers a bulk mute of 15,000 invalid ids fast, with 100 details and the count', async () => {
    const run = await hostile('POST', '/v2/alerts/muted', { duration: 5, ids: Array.from({ length: 15_000 }, (_, i) => i) });
    expect(run.answer.status).toBe(400);
    expect(run.answer.body.error.details).toHaveLength(100);
    expect(run.answer.body.error.details_total).toBe(15_000);
    expect(run.answer.text.length).toBeLessThan(SMALL_BODY);
    expect(run.health.status).toBe(200);
    expect(run.cpuMs).toBeLessThan(FAST_MS);
    expect(run.maxHoldMs).toBeLessThan(FAST_MS);
  });

  it('answers 15,000 invalid notification_channels fast and small', async () => {
    const body = {
      name: 'x',
      metric: 'a.b',
      alert_criteria: { type: 'above', above_value: 1 },
      notification_channels: Array.from({ length: 15_000 }, (_, i) => i),
    };
    const run = await hostile('POST', '/v2/alerts', body);
    expect(run.answer.status).toBe(400);
    // Each entry that is not a channel name, and the list's length over the per-alert cap (MAX_ALERT_CHANNELS).
    expect(run.answer.body.error.details_total).toBe(15_001);
    expect(run.answer.text.length).toBeLessThan(SMALL_BODY);
    expect(run.cpuMs).toBeLessThan(FAST_MS);
    expect(run.maxHoldMs).toBeLessThan(FAST_MS);
  });

  it('refuses a 1 MiB body of bad items in milliseconds, before validating them one by one', async () => {
    const ids = Array.from({ length: 250_000 }, () => 1);
    const text = JSON.stringify({ duration: 5, ids });
    expect(text.length).toBeGreaterThan(500_000);
    expect(text.length).toBeLessThan(1024 * 1024);
    const run = await hostile('POST', '/v2/alerts/muted', text);
    expect(run.answer.status).toBe(400);
    expect(run.answer.body.error).toMatchObject({ code: 'invalid_body', message: 'body has more than 20000 values' });
    expect(run.answer.text.length).toBeLessThan(1024);
    expect(run.cpuMs).toBeLessThan(FAST_MS / 2);
    expect(run.maxHoldMs).toBeLessThan(FAST_MS / 2);
  });

  it('answers 15,000 unknown fields with a bounded body', async () => {
    const body: Record<string, unknown> = { duration: 5 };
    for (let i = 0; i < 15_000; i += 1) body[`f${i}`] = i;
    const run = await hostile('POST', '/v2/alerts/muted', body);
    expect(run.answer.status).toBe(400);
    expect(run.answer.body.error.details).toHaveLength(100);
    expect(run.answer.body.error.details_total).toBe(15_000);
    expect(run.cpuMs).toBeLessThan(FAST_MS);
  });

  it('names a few missing ids in the message, not 40,000 of them', async () => {
    const ids = Array.from({ length: 15_000 }, (_, i) => `missing-${i}`);
    const run = await hostile('POST', '/v2/alerts/muted', { duration: 5, ids });
    expect(run.answer.status).toBe(404);
    expect(run.answer.body.error.message).toBe(
      'alert "missing-0", "missing-1", "missing-2" and 14997 more does not exist; nothing was changed',
    );
    expect(run.answer.body.error.details).toHaveLength(100);
    expect(run.answer.text.length).toBeLessThan(SMALL_BODY);
  });

  it('echoes at most 200 characters of a value it complains about', async () => {
    const long = 'c'.repeat(100_000);
    const body = { name: 'x', metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 }, notification_channels: [long] };
    const response = await server.request('POST', '/v2/alerts', body);
    expect(response.status).toBe(400);
    expect(response.body.error.details[0].message).toBe(`no channel with id or description "${'c'.repeat(200)}…"`);
    expect(response.text.length).toBeLessThan(2_000);
  });
});

describe('error reporting is linear (CLI validator)', () => {
  // Before: describeAjvErrors scanned every error for each error (and Ajv concatenated the error list per failing
  // $ref): 40,000 bad entries took 15.7 s and 60,000 about 35 s on a loaded 2-core box, quadratic. Measured in the
  // thread's CPU time and as a ratio in one run: eight times the entries costs about eight times as much when linear,
  // sixty-four times when quadratic.
  it('reports 40,000 bad entries of one alert in linear time, each at file:line', { timeout: 120_000 }, () => {
    const validate = (entries: number) => {
      const text = `alerts:\n  - name: a\n    metric: m\n    alert_criteria: {type: above, above_value: 1}\n    notification_channels: [${Array(entries).fill('1').join(',')}]\n`;
      const started = threadCpuMs();
      const result = loadDefinitions([{ path: 'many.yaml', text }], { env: {} });
      return { result, ms: threadCpuMs() - started };
    };
    validate(1_000);
    const small = validate(5_000);
    const large = validate(40_000);
    // Each entry that is not a channel name, and the list's length over the per-alert cap (the schema's maxItems).
    expect(large.result.problems).toHaveLength(40_001);
    expect(large.result.problems.find((problem) => problem.path === 'alerts.0.notification_channels.0')).toMatchObject({ location: { file: 'many.yaml', line: 5 } });
    expect(small.result.problems).toHaveLength(5_001);
    expect(large.ms / small.ms).toBeLessThan(24);
  });
});
