import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { applyPlan } from '../../../src/apply/run.js';
import { copyExamples, fastClient, planDir } from './helpers.js';

type Fault = 'unavailable' | 'rate-limited' | 'reset-before' | 'lost-answer' | 'slow' | 'pass';

/**
 * A proxy in front of the real server that misbehaves like a bad network: the first attempt of every distinct
 * request gets the next fault of the cycle (503, 429, a reset before forwarding, a reset after the server did the
 * work, a slow answer), later attempts pass. Faults are bounded, so a correct client always converges.
 */
async function startFaultyProxy(upstream: string) {
  const seen = new Set<string>();
  const cycle: Fault[] = ['unavailable', 'lost-answer', 'rate-limited', 'pass', 'reset-before', 'slow', 'pass'];
  const log: { fault: Fault; method: string; url: string }[] = [];
  let next = 0;
  let slowLeft = 2;
  const target = new URL(upstream);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const signature = `${req.method} ${req.url} ${body.toString()}`;
      let fault: Fault = 'pass';
      if (!seen.has(signature)) {
        seen.add(signature);
        fault = cycle[next++ % cycle.length]!;
        if (fault === 'slow' && slowLeft-- <= 0) fault = 'pass';
      }
      log.push({ fault, method: req.method!, url: req.url! });
      if (fault === 'unavailable') return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"internal","message":"upstream busy"}}');
      if (fault === 'rate-limited') return void res.writeHead(429, { 'retry-after': '1' }).end();
      if (fault === 'reset-before') return void req.socket.destroy();
      const forward = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (upstreamRes) => {
          const answer: Buffer[] = [];
          upstreamRes.on('data', (c: Buffer) => answer.push(c));
          upstreamRes.on('end', () => {
            // The server has done the work by now; only the answer is lost or late.
            if (fault === 'lost-answer') return void req.socket.destroy();
            const send = () => {
              if (res.destroyed) return;
              res.writeHead(upstreamRes.statusCode!, upstreamRes.headers).end(Buffer.concat(answer));
            };
            if (fault === 'slow') setTimeout(send, 3000);
            else send();
          });
        },
      );
      forward.on('error', () => req.socket.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

let server: TestServer;
let proxy: Awaited<ReturnType<typeof startFaultyProxy>>;
beforeAll(async () => {
  server = await startTestServer();
  proxy = await startFaultyProxy(server.url);
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

describe('apply through a faulty network', { timeout: 120_000 }, () => {
  it('converges with no duplicates despite 503s, 429s, resets, lost answers and slow answers', async () => {
    const dir = copyExamples();
    const sleeps: number[] = [];
    const flaky = fastClient(proxy.url.replace('http://', `http://${server.key}@`), { timeoutMs: 2000, sleeps, retries: 10 });
    const { plan, actual } = await planDir(dir, flaky);
    expect(plan.summary.create).toBe(20);
    const result = await applyPlan(plan, actual, flaky);
    expect(result.failed.map((f) => `${f.change.id}: ${f.error.message}`)).toEqual([]);
    expect(result.done).toHaveLength(20);

    const faults = new Set(proxy.log.map((l) => l.fault));
    for (const fault of ['unavailable', 'rate-limited', 'reset-before', 'lost-answer', 'slow'] as const) expect(faults).toContain(fault);
    expect(proxy.log.some((l) => l.method === 'POST' && l.fault === 'lost-answer')).toBe(true);
    expect(sleeps).toContain(1000);

    // Straight to the server: everything is there exactly once and the plan is clean.
    const direct = fastClient(server.authUrl);
    const alerts = await direct.listAlerts();
    const channels = await direct.listChannels();
    expect(alerts).toHaveLength(12);
    expect(new Set(alerts.map((a) => a.name)).size).toBe(12);
    expect(channels).toHaveLength(7);
    expect((await planDir(dir, direct)).plan.changes).toEqual([]);
  });
});
