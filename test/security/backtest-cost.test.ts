import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedHealthWhile } from '../helpers/event-loop-lag.js';
import { callServe, spawnServe, type ServeProcess } from '../helpers/server-process.js';

// Before: GET /v2/alerts/{id}/backtest/?window=14d over a wildcard of 200 series parsed the whole render answer and
// replayed every series in synchronous steps of seconds, and any number of backtests of one account ran at once:
// four at once held /healthz 12-29 s. After: at most 50 series per criterion are replayed (the graph's cap), the
// answer is parsed and the replay run in slices that give the event loop back, and an account runs at most 2
// backtests at a time (429 with Retry-After beyond).

const SERIES = 200;
const STEP = 60;
const KEY = 'backtest-cost-tenant-key-0123456789';
const OTHER_KEY = 'backtest-cost-other-key-0123456789';

let render: { url: string; close: () => Promise<void>; requests: number };
let server: ServeProcess;
let alertId: string;
let otherAlertId: string;

/**
 * A render endpoint answering every request with the same prepared body: 200 series of a little over 14 days of
 * one-minute points (about 69 MB of JSON), made once so that this process never holds its own loop while the server
 * is measured.
 */
async function startBigRender() {
  const end = Math.floor(Date.now() / 1000 / STEP) * STEP;
  const points = Math.ceil((15 * 86_400) / STEP);
  const parts: string[] = [];
  for (let s = 0; s < SERIES; s += 1) {
    const datapoints: string[] = new Array(points);
    for (let i = 0; i < points; i += 1) datapoints[i] = `[${(i + s) % 97 === 0 ? 95 : 10},${end - (points - 1 - i) * STEP}]`;
    parts.push(`{"target":"fleet.host${s}.cpu","datapoints":[${datapoints.join(',')}]}`);
  }
  const body = Buffer.from(`[${parts.join(',')}]`);
  const state = { requests: 0 };
  const http: Server = createServer((request, response) => {
    let form = '';
    request.on('data', (chunk: Buffer) => (form += chunk.toString('latin1')));
    request.on('end', () => {
      // The evaluator's own reads (minutes back) get no points: only the backtests' (days back) are measured.
      const minutes = Number(/(?:^|&)from=-(\d+)min/.exec(form)?.[1] ?? 0);
      if (minutes > 1440) state.requests += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(minutes > 1440 ? body : '[]');
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}

const backtest = (key = KEY, id = alertId) =>
  fetch(`${server.url}/v2/alerts/${id}/backtest/?window=14d`, { headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` } }).then(
    async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any }),
  );

beforeAll(async () => {
  render = await startBigRender();
  const dir = mkdtempSync(join(tmpdir(), 'backtest-cost-'));
  // Evaluation is left to a far interval: only the backtests read Graphite here.
  server = await spawnServe({
    db: join(dir, 'alertform.db'),
    key: KEY,
    extraArgs: ['--api-key', OTHER_KEY, '--graphite-url', render.url, '--eval-interval', '3600'],
  });
  const created = await callServe(server, 'POST', '/v2/alerts/', {
    name: 'fleet cpu',
    metric: 'fleet.*.cpu',
    alert_criteria: { type: 'above', above_value: 90 },
    notification_type: ['state_change'],
  });
  expect(created.status).toBe(201);
  alertId = created.body.id;
  const other = await fetch(`${server.url}/v2/alerts/`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${OTHER_KEY}:`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'other', metric: 'fleet.host1.cpu', alert_criteria: { type: 'above', above_value: 90 } }),
  });
  expect(other.status).toBe(201);
  otherAlertId = ((await other.json()) as { id: string }).id;
  // Warm up: the first backtest loads its modules (compiled from the sources here); an hour back reads no points.
  expect((await callServe(server, 'GET', `/v2/alerts/${alertId}/backtest/?window=1h`)).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await render?.close();
});

describe('the backtest of an alert over a wide wildcard', () => {
  it('replays at most 50 series, says so, and keeps /healthz answering', async () => {
    const { result, slowestCpuMs, cpuMs, failures } = await servedHealthWhile(server, backtest, 10);
    expect(result.status).toBe(200);
    expect(result.body.error).toBeNull();
    expect(result.body.note).toBe(`alert_criteria: replayed 50 of ${SERIES} series`);
    expect(result.body.fired).toBeGreaterThan(0);
    // The answer (69 MB) is read and replayed in slices: /healthz waits for a slice, never for the whole backtest.
    // In the server's main-thread CPU (event-loop-lag.ts says why not the clock).
    expect(failures).toBe(0);
    expect(slowestCpuMs).toBeLessThan(cpuMs / 4);
  }, 120_000);

  it('runs at most 2 backtests of an account at a time: the third is 429 with Retry-After, another account is not held up', async () => {
    const { result, slowestCpuMs, cpuMs, failures } = await servedHealthWhile(server, () => Promise.all([backtest(), backtest(), backtest(), backtest(OTHER_KEY, otherAlertId)]), 10);
    const statuses = result.map((answer) => answer.status);
    expect(statuses.slice(0, 3).sort()).toEqual([200, 200, 429]);
    const refused = result.find((answer) => answer.status === 429)!;
    expect(refused.retryAfter).toMatch(/^\d+$/);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.error.message).toContain('2 backtests');
    // The other account's backtest is not refused: the limit is per account.
    expect(result[3]!.status).toBe(200);
    // Before: /healthz waited 12-29 s, nearly the whole time the backtests took (on 2 busy cores, load 18).
    // After: at most 0.3-0.9 s of the server's CPU during one /healthz, of 4.4-6 s it spent in all (quiet or loaded).
    expect(failures).toBe(0);
    expect(slowestCpuMs).toBeLessThan(Math.min(5_000, cpuMs / 3));
  }, 180_000);
});
