/**
 * `npm run bench:stream:judge`: what judging on the metric stream buys, on Debian's carbon-cache and graphite-web.
 *
 * 1. Detection latency: BENCH_LATENCY_ALERTS (default 200) alerts, one series each, judged on the stream; every
 *    series breaches in one 30 s bucket, written on time through a relay's tee (carbon and alertform); measured from
 *    the write of the point that completes the breaching bucket (its +20 s point) to each alert's webhook. Baseline in
 *    the same run: the same alerts polled from render with the default 60 s settle delay and a 30 s interval, from
 *    the same write to their webhooks.
 * 2. Render load: BENCH_ALERTS (default 10,000) alerts on as many series, fed every 10 s, for BENCH_MINUTES (default 1)
 *    of steady state after the first full cycle: render requests and graphite-web's CPU seconds per minute, polled
 *    (the baseline) and on the stream (goal: no request at steady state).
 *
 * Sections of `npm run bench:stream` (the receiver's rates are its own sections there).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { pino } from 'pino';
import { startServer, type RunningServer } from '../src/server/index.js';
import { startGraphite, graphiteAvailability, type Graphite, type GraphitePoint } from '../test/helpers/graphite.js';
import { startWebhookReceiver } from '../test/helpers/webhook-receiver.js';
import { carbonTee, freePort, type CarbonTee } from '../test/helpers/carbon-tee.js';
import { describeMachine, formatMs, printGoal, printTable } from './lib/report.js';

const LATENCY_ALERTS = Number(process.env.BENCH_LATENCY_ALERTS ?? 200);
const ALERTS = Number(process.env.BENCH_ALERTS ?? 10_000);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 1);
const KEY = 'bench-stream-judge-key-0123456789';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nowSeconds = () => Math.floor(Date.now() / 1000);
const percentile = (values: number[], p: number) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

async function clockAt(time: number): Promise<void> {
  const wait = time * 1000 - Date.now();
  if (wait > 0) await sleep(wait);
}

/** A proxy in front of graphite-web that counts render requests. */
async function countingProxy(target: string): Promise<{ url: string; renders: () => number; close: () => Promise<void> }> {
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
function graphiteWebCpuSeconds(graphite: Graphite): number {
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

async function serve(graphiteUrl: string, carbonPort: number | null, settle: number, interval: number): Promise<RunningServer> {
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

async function api(server: RunningServer, method: string, path: string, body?: unknown, tries = 3): Promise<any> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).catch(async (error: unknown) => {
    // A connection reset on a loaded machine: the create is asked again (a name already taken answers 4xx).
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
async function createAlerts(server: RunningServer, prefix: string, count: number, channel: string): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await api(server, 'POST', '/v2/alerts/', { name: `${prefix} ${i}`, metric: `${prefix}.h${i}.cpu`, alert_criteria: { type: 'above', above_value: 95 }, notification_channels: [channel] });
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

async function metricValue(server: RunningServer, name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`).catch(() => null))?.text() ?? '';
  return Number(new RegExp(`^${name.replace(/[{}"=]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

/** Section 1: latency from the completing write to the webhook, on the stream and polled. */
async function latency(graphite: Graphite): Promise<{ stream: number[]; poll: number[] }> {
  const results: { stream: number[]; poll: number[] } = { stream: [], poll: [] };
  for (const mode of ['stream', 'poll'] as const) {
    const arrivals: number[] = [];
    const hooks = await startWebhookReceiver((request) => {
      if (request.path === '/pager') arrivals.push(Date.now());
      return 200;
    });
    const carbonPort = await freePort();
    const server = await serve(graphite.url, mode === 'stream' ? carbonPort : null, 60, 30);
    const tee: CarbonTee | null = mode === 'stream' ? carbonTee(graphite, carbonPort) : null;
    const write = (points: GraphitePoint[]) => (tee ? tee.write(points) : graphite.writePoints(points));
    try {
      const prefix = `lat${mode}`;
      const paths = Array.from({ length: LATENCY_ALERTS }, (_, i) => `${prefix}.h${i}.cpu`);
      const start = Math.floor(nowSeconds() / 30) * 30;
      await write(paths.flatMap((path) => Array.from({ length: 18 }, (_, k) => ({ path, value: 1, time: start - 180 + 10 * k }))));
      const channel = (await api(server, 'POST', '/v2/notifications/', { type: 'webhook', description: 'pager', destination: `${hooks.url}/pager` })).id as string;
      await createAlerts(server, prefix, LATENCY_ALERTS, channel);
      // Fed on time until every alert is judged (warmed, on the stream), then the breach at the next bucket.
      let time = start;
      const feedUntil = async (end: number, value: (t: number) => number) => {
        for (; time < end; time += 10) {
          await clockAt(time);
          await write(paths.map((path) => ({ path, value: value(time), time })));
        }
      };
      await feedUntil(start + 60, () => 1);
      if (mode === 'stream') {
        while ((await metricValue(server, 'alertform_alerts_evaluated{mode="stream"}')) < LATENCY_ALERTS) await feedUntil(time + 10, () => 1);
      }
      const breach = Math.ceil((nowSeconds() + 1) / 30) * 30;
      await feedUntil(breach, () => 1);
      await feedUntil(breach + 20, () => 100);
      await clockAt(breach + 20);
      const completedAt = Date.now();
      await write(paths.map((path) => ({ path, value: 100, time: breach + 20 })));
      // Keep feeding while waiting: polling needs the clock to pass the bucket's end and the settle delay.
      const deadline = Date.now() + 150_000;
      let feeding = time + 10;
      while (arrivals.length < LATENCY_ALERTS && Date.now() < deadline) {
        if (nowSeconds() >= feeding) {
          await write(paths.map((path) => ({ path, value: 100, time: feeding })));
          feeding += 10;
        }
        await sleep(100);
      }
      results[mode] = arrivals.map((at) => at - completedAt);
      if (results[mode].length < LATENCY_ALERTS) console.log(`${mode}: only ${results[mode].length} of ${LATENCY_ALERTS} pages within the wait`);
    } finally {
      await tee?.close();
      await server.close();
      await hooks.close();
    }
  }
  return results;
}

/** Section 2: render requests and graphite-web CPU a minute, polled and on the stream. */
async function renderLoad(graphite: Graphite): Promise<Record<'poll' | 'stream', { requests: number; cpu: number }>> {
  const out = {} as Record<'poll' | 'stream', { requests: number; cpu: number }>;
  const paths = Array.from({ length: ALERTS }, (_, i) => `load.h${i}.cpu`);
  const start = nowSeconds();
  // Three minutes of history for every series (carbon creates the files once, before either mode is measured).
  for (let k = 0; k < 18; k += 1) await graphite.writePoints(paths.map((path) => ({ path, value: 1, time: start - 180 + 10 * k })));
  while ((await graphite.findMetrics('load.*.cpu').catch(() => [])).length < ALERTS) await sleep(2000);
  for (const mode of ['poll', 'stream'] as const) {
    const proxy = await countingProxy(graphite.url);
    const carbonPort = await freePort();
    const server = await serve(proxy.url, mode === 'stream' ? carbonPort : null, 60, 30);
    const tee: CarbonTee | null = mode === 'stream' ? carbonTee(graphite, carbonPort) : null;
    let feeding = true;
    const feeder = (async () => {
      while (feeding) {
        const time = Math.floor(nowSeconds() / 10) * 10;
        const points = paths.map((path) => ({ path, value: 1, time }));
        await (tee ? tee.write(points) : graphite.writePoints(points));
        await clockAt(time + 10);
      }
    })();
    try {
      const channel = (await api(server, 'POST', '/v2/notifications/', { type: 'webhook', description: 'pager', destination: 'http://127.0.0.1:9/pager' })).id as string;
      await createAlerts(server, 'load', ALERTS, channel);
      // Steady state: after a full cycle has judged (and, on the stream, warmed) every alert.
      const evaluated = mode === 'stream' ? 'alertform_alerts_evaluated{mode="stream"}' : null;
      await sleep(35_000);
      if (evaluated) while ((await metricValue(server, evaluated)) < ALERTS) await sleep(2000);
      await sleep(31_000);
      const requests0 = proxy.renders();
      const cpu0 = graphiteWebCpuSeconds(graphite);
      await sleep(MINUTES * 60_000);
      out[mode] = { requests: (proxy.renders() - requests0) / MINUTES, cpu: (graphiteWebCpuSeconds(graphite) - cpu0) / MINUTES };
    } finally {
      feeding = false;
      await feeder;
      await tee?.close();
      await server.close();
      await proxy.close();
    }
  }
  return out;
}

const availability = graphiteAvailability();
if (availability.skip) {
  console.log(`bench:stream:judge needs ${availability.reason}`);
  process.exit(1);
}
console.log(await describeMachine());
const graphite = await startGraphite({ retentions: '10s:6h' });
try {
  const sections = (process.env.BENCH_SECTIONS ?? 'latency,load').split(',');
  if (sections.includes('latency')) {
  const measured = await latency(graphite);
  printTable(
    `Detection latency, ${LATENCY_ALERTS} alerts: from the write of the point completing a breaching bucket to its webhook`,
    ['mode', 'pages', 'p50', 'p99'],
    (['stream', 'poll'] as const).map((mode) => [mode === 'poll' ? 'render polling (baseline: 60 s settle, 30 s interval)' : 'stream', measured[mode].length, formatMs(percentile(measured[mode], 50)), formatMs(percentile(measured[mode], 99))]),
  );
  const p99 = percentile(measured.stream, 99);
  printGoal('stream detection p99 under 2 s', formatMs(p99), measured.stream.length === LATENCY_ALERTS && p99 < 2000);
  }
  if (sections.includes('load')) {
  const load = await renderLoad(graphite);
  printTable(
    `Render load, ${ALERTS} alerts at steady state (per minute, ${MINUTES} min measured)`,
    ['mode', 'render requests / min', 'graphite-web CPU s / min'],
    (['poll', 'stream'] as const).map((mode) => [mode === 'poll' ? 'render polling (baseline)' : 'stream', load[mode].requests.toFixed(1), load[mode].cpu.toFixed(2)]),
  );
  printGoal('stream mode: 0 render requests at steady state', `${load.stream.requests} requests / min`, load.stream.requests === 0);
  }
} finally {
  await graphite.stop();
}
