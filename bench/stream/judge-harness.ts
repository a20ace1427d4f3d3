/**
 * What the sections on Debian's carbon-cache and graphite-web share: a server polled or on the stream, the API
 * calls that set it up, a proxy that counts render requests, graphite-web's CPU, the event loop's delay.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { graphiteAvailability, startGraphite, type Graphite } from '../../test/helpers/graphite.js';

export const LATENCY_ALERTS = Number(process.env.BENCH_LATENCY_ALERTS ?? 200);
export const ALERTS = Number(process.env.BENCH_ALERTS ?? 10_000);
export const MINUTES = Number(process.env.BENCH_MINUTES ?? 1);
const KEY = 'bench-stream-judge-key-0123456789';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const nowSeconds = () => Math.floor(Date.now() / 1000);
export const percentile = (values: number[], p: number) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

export async function clockAt(time: number): Promise<void> {
  const wait = time * 1000 - Date.now();
  if (wait > 0) await sleep(wait);
}

/** A proxy in front of graphite-web that counts render requests. */
export async function countingProxy(target: string): Promise<{ url: string; renders: () => number; close: () => Promise<void> }> {
  const upstream = new URL(target);
  let renders = 0;
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/render')) renders += 1;
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as import('node:net').AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, renders: () => renders, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** graphite-web's CPU seconds so far: the runserver process listening on its port (and its children). */
export function graphiteWebCpuSeconds(graphite: Graphite): number {
  const port = new URL(graphite.url).port;
  const ticks = 100;
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes('runserver') || !cmdline.includes(`:${port}`)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / ticks;
    } catch {
      // A process that ended meanwhile.
    }
  }
  return total;
}

export async function serve(graphiteUrl: string, carbonPort: number | null, settle: number, interval: number): Promise<RunningServer> {
  return startServer({
    logger: pino({ level: process.env.ALERTFORM_BENCH_LOG ?? 'silent' }),
    host: '127.0.0.1',
    port: 0,
    db: ':memory:',
    apiKeys: [KEY],
    graphiteUrl,
    evalIntervalSeconds: interval,
    settleDelaySeconds: settle,
    allowPrivateDestinations: true,
    quotas: { alerts: Math.max(ALERTS, LATENCY_ALERTS) + 10 },
    ...(carbonPort !== null ? { carbon: { plaintext: `127.0.0.1:${carbonPort}` } } : {}),
  });
}

export async function api(server: RunningServer, method: string, path: string, body?: unknown, tries = 3): Promise<any> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).catch(async (error: unknown) => {
    // Counted and printed, never silent: a reset here means a socket was closed under a request (see renderLoad).
    resets.push(`${method} ${path.split('?')[0]}: ${describeError(error)} (event loop ${loopLag.current()} ms late at most, this run)`);
    if (tries <= 1) throw error;
    await sleep(500);
    return null;
  });
  if (response === null) return api(server, method, path, body, tries - 1);
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Creates `count` alerts on `prefix.h<i>.cpu` (above 95), 16 requests at a time. */
export async function createAlerts(server: RunningServer, prefix: string, count: number, channel: string): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await api(server, 'POST', '/v2/alerts/', { name: `${prefix} ${i}`, metric: `${prefix}.h${i}.cpu`, alert_criteria: { type: 'above', above_value: 95 }, notification_channels: [channel] });
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

export async function metricValue(server: RunningServer, name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`).catch(() => null))?.text() ?? '';
  return Number(new RegExp(`^${name.replace(/[{}"=]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}


/** Requests that failed on a reset connection and were asked again: printed by the section that made them. */
export const resets: string[] = [];

function describeError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? String(error);
}

/** The event loop's worst delay (ms) since the last reset: the server and this client share it. */
export const loopLag = (() => {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  return {
    current: () => Math.round(histogram.max / 1e6),
    reset: () => histogram.reset(),
  };
})();

/** Runs `work` with Debian's carbon-cache and graphite-web, or says why it cannot. */
export async function withGraphite(work: (graphite: Graphite) => Promise<void>): Promise<void> {
  const availability = graphiteAvailability();
  if (availability.skip) {
    process.stdout.write(`skipped: needs ${availability.reason}\n`);
    return;
  }
  const graphite = await startGraphite({ retentions: '10s:6h' });
  try {
    await work(graphite);
  } finally {
    await graphite.stop();
  }
}
