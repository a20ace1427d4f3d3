/**
 * `npm run bench:evaluate`: evaluation cycles of 10,000 alerts (SQLite store, the real evaluator and Graphite
 * client) against a local render endpoint that answers every request in 50 ms. Prints the time of each cycle,
 * the heap after each one (to see it stay flat), and the ratio of a steady cycle to a baseline measured in the
 * same run: the bare time of the very same render requests, replayed with the same concurrency and no
 * evaluation. Goal: a cycle under 10 s.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runEvaluationCycle } from '../src/server/evaluator/run-cycle.js';
import { adaptStore } from '../src/server/evaluator/store-adapter.js';
import { createGraphiteClient } from '../src/graphite/render-client.js';
import { createLimiter } from '../src/graphite/limiter.js';
import { createDeliveryQueue } from '../src/server/notifiers/delivery-queue.js';
import { sendNotification } from '../src/server/notifiers/send.js';
import { parseDestinationPolicy } from '../src/server/net/destination-policy.js';
import { DEFAULT_NOTIFIER_SETTINGS } from '../src/server/notifiers/types.js';
import { SqliteStore } from '../src/server/store/sqlite/sqlite-store.js';
import type { AlertWrite } from '../src/server/store/store.js';

const ALERTS = Number(process.env.BENCH_ALERTS ?? 10_000);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 6);
const DELAY_MS = 50;
const CONCURRENCY = 8;

/** Series for a target: `bench.h<i>.cpu` (1 in 100 above 90), `bench.h<i>.beat` (1 in 100 silent for 10 min). */
function seriesJson(target: string, fromMinutes: number, maxDataPoints: number | null, now: number): string {
  const match = /^bench\.h(\d+)\.(cpu|beat|mem)$/.exec(target);
  if (!match) return '';
  const index = Number(match[1]);
  // 10 s points for 6 h, 60 s beyond (as a typical retention); maxDataPoints consolidates as graphite-web does.
  let step = fromMinutes > 360 ? 60 : 10;
  if (maxDataPoints) step = Math.max(step, Math.ceil((fromMinutes * 60) / maxDataPoints / step) * step);
  const count = Math.floor((fromMinutes * 60) / step);
  const end = Math.floor(now / step) * step;
  const points: string[] = [];
  for (let k = count - 1; k >= 0; k -= 1) {
    const time = end - k * step;
    let value: number | null;
    if (match[2] === 'beat') value = index % 100 === 0 && time > now - 600 ? null : 1;
    else if (match[2] === 'cpu') value = index % 100 === 0 ? 95 : 50;
    else value = 30;
    points.push(`[${value === null ? 'null' : value}, ${time}]`);
  }
  return `{"target": "${target}", "datapoints": [${points.join(', ')}]}`;
}

/** Runs the fake render endpoint in a child process, so generating its answers does not slow the evaluator. */
async function startRender() {
  const child = fork(fileURLToPath(import.meta.url), ['--render-server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const urls: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (message: { url?: string; request?: string }) => {
      if (message.url) resolve(message.url);
      if (message.request) urls.push(message.request);
    });
    child.once('exit', (code) => reject(new Error(`render server exited ${code}`)));
  });
  return { url, urls, close: () => child.kill() };
}

async function serveRender() {
  const server = createServer((req, res) => {
    process.send!({ request: req.url ?? '' });
    const url = new URL(req.url ?? '/', 'http://x');
    const from = Number(/^-(\d+)min$/.exec(url.searchParams.get('from') ?? '')?.[1] ?? 10);
    const maxDataPoints = Number(url.searchParams.get('maxDataPoints')) || null;
    const now = Math.floor(Date.now() / 1000);
    const body = `[${url.searchParams
      .getAll('target')
      .map((t) => seriesJson(t, from, maxDataPoints, now))
      .filter(Boolean)
      .join(', ')}]`;
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(body), DELAY_MS);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

async function startReceiver() {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, count: () => count };
}

/** 80 % threshold alerts, 10 % missing-data alerts (window + 24 h query), 10 % composite (cpu above && mem below). */
function alertFor(index: number, channelId: string): AlertWrite {
  const base = {
    name: `alert ${index}`,
    additionalCriteria: {},
    expression: 'a',
    notificationChannels: [channelId],
    notificationType: ['every', 60] as ['every', number],
    scheduledMutes: [],
    info: null,
    onQueryFailure: null,
  };
  if (index % 10 === 8) return { ...base, metric: `bench.h${index}.beat`, alertCriteria: { type: 'missing', time_period: 5 } };
  if (index % 10 === 9) {
    return {
      ...base,
      metric: `bench.h${index}.cpu`,
      alertCriteria: { type: 'above', above_value: 90, time_period: 2 },
      additionalCriteria: { b: { type: 'below', below_value: 40, metric: `bench.h${index}.mem` } },
      expression: 'a && b',
    };
  }
  return { ...base, metric: `bench.h${index}.cpu`, alertCriteria: { type: 'above', above_value: 90, time_period: 2 } };
}

/** The baseline: the same render URLs, fetched with the same concurrency, bodies read, nothing evaluated. */
async function replay(base: string, urls: string[]): Promise<number> {
  const limit = createLimiter(CONCURRENCY);
  const started = performance.now();
  await Promise.all(urls.map((path) => limit(async () => (await fetch(`${base}${path}`)).text())));
  return performance.now() - started;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const gc = (globalThis as { gc?: () => void }).gc;
  // On tmpfs when there is one: setting up 10,000 alerts one durable insert at a time is not what is measured.
  const dir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'alertform-bench-'));
  const store = SqliteStore.open(join(dir, 'bench.db'));
  const render = await startRender();
  const receiver = await startReceiver();
  try {
    const account = await store.createAccount('bench@example.com');
    const channel = await store.createChannel(account.id, { type: 'webhook', description: 'bench hook', destination: `${receiver.url}/hook`, autoResolve: false });
    for (let i = 0; i < ALERTS; i += 1) await store.createAlert(account.id, alertFor(i, channel.id));

    const graphite = createGraphiteClient({ baseUrl: render.url, concurrency: CONCURRENCY });
    const deliveries = createDeliveryQueue({
      // The receiver listens on 127.0.0.1, which only an opted-in install may reach.
      send: (ch, n, signal) => sendNotification(ch, n, { ...DEFAULT_NOTIFIER_SETTINGS, destinations: parseDestinationPolicy(true) }, signal),
    });
    const evaluationStore = adaptStore(store);
    console.log(`evaluate: ${ALERTS} alerts, render answering in ${DELAY_MS} ms, ${CONCURRENCY} requests in flight`);
    const times: number[] = [];
    let lastUrls: string[] = [];
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      render.urls.length = 0;
      const report = await runEvaluationCycle({ store: evaluationStore, graphite, deliveries });
      await deliveries.idle();
      // Request logs travel over IPC: let them arrive.
      await new Promise((resolve) => setTimeout(resolve, 100));
      lastUrls = [...render.urls];
      gc?.();
      gc?.();
      const memory = process.memoryUsage();
      times.push(report.durationMs);
      console.log(
        `  cycle ${cycle}: ${(report.durationMs / 1000).toFixed(2)} s  requests ${render.urls.length}  queries ${report.queries}` +
          `  saved ${report.saved}  alerting transitions ${report.transitions}  heap ${mb(memory.heapUsed)}  rss ${mb(memory.rss)}`,
      );
    }
    const baselineMs = await replay(render.url, lastUrls);
    const steady = times.slice(1);
    const median = [...steady].sort((x, y) => x - y)[Math.floor(steady.length / 2)] ?? times[0]!;
    console.log(`  notifications delivered: ${receiver.count()}`);
    console.log(`baseline (the same ${lastUrls.length} render requests, bare): ${(baselineMs / 1000).toFixed(2)} s`);
    console.log(`steady cycle (median of cycles 2..${CYCLES}): ${(median / 1000).toFixed(2)} s  ratio to baseline ${(median / baselineMs).toFixed(2)}x`);
    console.log(`first cycle (writes every alert's initial state): ${(times[0]! / 1000).toFixed(2)} s`);
    console.log(`goal < 10 s: ${Math.max(...times) < 10_000 ? 'met' : 'NOT met'}${gc ? '' : '  (run with --expose-gc for exact heap figures)'}`);
  } finally {
    render.close();
    receiver.server.closeAllConnections();
    receiver.server.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--render-server')) await serveRender();
else await main();
