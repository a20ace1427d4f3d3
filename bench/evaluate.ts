/**
 * `npm run bench:evaluate`: evaluation cycles of 10,000 alerts (SQLite store, the real evaluator and Graphite
 * client) against a local render endpoint that answers every request in 50 ms. Prints the time of each cycle,
 * the heap after each one (to see it stay flat), and the ratio of a steady cycle to a baseline measured in the
 * same run: the bare time of the very same render requests, replayed with the same concurrency and no
 * evaluation. Goal: a cycle under 10 s.
 *
 * BENCH_STORE=postgres: the same on a real PostgreSQL (a cluster started in a temp dir, as the tests do), with
 * three replicas in this process, each with its own pool, evaluation leases and delivery worker, cycling
 * together; a cycle's time is the wall time until all three finished, and the baseline replays the union of
 * their requests with three times the concurrency. Memory is this process's, i.e. of all three. 10 cycles.
 * BENCH_ALERTS scales the alert count (the issue's goal is 100,000).
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
import { startDeliveryWorker } from '../src/server/outbox/delivery-worker.js';
import { sendNotification } from '../src/server/notifiers/send.js';
import { parseDestinationPolicy } from '../src/server/net/destination-policy.js';
import { DEFAULT_NOTIFIER_SETTINGS } from '../src/server/notifiers/types.js';
import { SqliteStore } from '../src/server/store/sqlite/sqlite-store.js';
import { openStore } from '../src/server/store/open-store.js';
import { withEvaluationLeases } from '../src/server/evaluator/leased-store.js';
import type { AlertWrite, Store } from '../src/server/store/store.js';
import { startPostgres } from '../test/helpers/postgres.js';

const ALERTS = Number(process.env.BENCH_ALERTS ?? 10_000);
const POSTGRES = process.env.BENCH_STORE === 'postgres';
const REPLICAS = POSTGRES ? 3 : 1;
const CYCLES = Number(process.env.BENCH_CYCLES ?? (POSTGRES ? 10 : 6));
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
  const limit = createLimiter(CONCURRENCY * REPLICAS);
  const started = performance.now();
  await Promise.all(urls.map((path) => limit(async () => (await fetch(`${base}${path}`)).text())));
  return performance.now() - started;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const gc = (globalThis as { gc?: () => void }).gc;
  // On tmpfs when there is one: setting up 10,000 alerts one durable insert at a time is not what is measured.
  const dir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'alertform-bench-'));
  const postgres = POSTGRES ? await startPostgres() : undefined;
  const dbUrl = postgres ? await postgres.createDatabase() : undefined;
  // One store (connection or pool) per replica, as separate processes would have.
  const stores: Store[] = dbUrl
    ? await Promise.all(Array.from({ length: REPLICAS }, () => openStore(dbUrl)))
    : [SqliteStore.open(join(dir, 'bench.db'))];
  const store = stores[0]!;
  const render = await startRender();
  const receiver = await startReceiver();
  try {
    const account = await store.createAccount('bench@example.com');
    const channel = await store.createChannel(account.id, { type: 'webhook', description: 'bench hook', destination: `${receiver.url}/hook`, autoResolve: false });
    const setupStarted = performance.now();
    // 50 inserts in flight: PostgreSQL's round trips, not what is measured, would otherwise dominate the setup.
    for (let i = 0; i < ALERTS; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, ALERTS - i) }, (_, k) => store.createAlert(account.id, alertFor(i + k, channel.id))));
    }
    console.log(`setup: ${ALERTS} alerts created in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);

    const replicas = stores.map((replicaStore, index) => ({
      graphite: createGraphiteClient({ baseUrl: render.url, concurrency: CONCURRENCY }),
      deliveries: startDeliveryWorker({
        store: replicaStore,
        // The receiver listens on 127.0.0.1, which only an opted-in install may reach.
        send: (ch, n, signal) => sendNotification(ch, n, { ...DEFAULT_NOTIFIER_SETTINGS, destinations: parseDestinationPolicy(true) }, signal),
      }),
      // Cycles run back to back here: a lease of an hour never expires mid-run, fair sharing still moves partitions.
      evaluationStore: adaptStore(POSTGRES ? withEvaluationLeases(replicaStore, { replica: `bench-${index}`, ttlMs: 3_600_000 }) : replicaStore),
    }));
    if (POSTGRES) {
      // Settle the shares before timing: the first replica to come takes all 64 partitions and sheds its surplus
      // only at its next round, when the others take it (in service, about one interval after a replica joins).
      const ttlMs = 3_600_000;
      for (let round = 0; round < 2; round += 1) {
        for (const [index, replicaStore] of stores.entries()) await replicaStore.acquireEvaluationLeases(`bench-${index}`, ttlMs);
      }
    }
    console.log(
      `evaluate: ${ALERTS} alerts on ${POSTGRES ? `PostgreSQL, ${REPLICAS} replicas` : 'SQLite'}, render answering in ${DELAY_MS} ms, ` +
        `${CONCURRENCY} requests in flight per replica`,
    );
    const times: number[] = [];
    let lastUrls: string[] = [];
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      render.urls.length = 0;
      const started = performance.now();
      const reports = await Promise.all(
        replicas.map((replica) => runEvaluationCycle({ store: replica.evaluationStore, graphite: replica.graphite, onDeliveriesWritten: () => replica.deliveries.wake() })),
      );
      const durationMs = performance.now() - started;
      await Promise.all(replicas.map((replica) => replica.deliveries.idle()));
      const sum = (field: 'queries' | 'saved' | 'transitions') => reports.reduce((total, r) => total + r[field], 0);
      const report = { durationMs, queries: sum('queries'), saved: sum('saved'), transitions: sum('transitions') };
      const shares = POSTGRES ? `  alerts per replica ${reports.map((r) => r.alerts).join('/')}` : '';
      // Request logs travel over IPC: let them arrive.
      await new Promise((resolve) => setTimeout(resolve, 100));
      lastUrls = [...render.urls];
      gc?.();
      gc?.();
      const memory = process.memoryUsage();
      times.push(report.durationMs);
      console.log(
        `  cycle ${cycle}: ${(report.durationMs / 1000).toFixed(2)} s  requests ${render.urls.length}  queries ${report.queries}` +
          `  saved ${report.saved}  alerting transitions ${report.transitions}  heap ${mb(memory.heapUsed)}  rss ${mb(memory.rss)}${shares}`,
      );
    }
    const baselineMs = await replay(render.url, lastUrls);
    const steady = times.slice(1);
    const median = [...steady].sort((x, y) => x - y)[Math.floor(steady.length / 2)] ?? times[0]!;
    for (const replica of replicas) await replica.deliveries.stop();
    console.log(`  notifications delivered: ${receiver.count()}`);
    console.log(`baseline (the same ${lastUrls.length} render requests, bare): ${(baselineMs / 1000).toFixed(2)} s`);
    console.log(`steady cycle (median of cycles 2..${CYCLES}): ${(median / 1000).toFixed(2)} s  ratio to baseline ${(median / baselineMs).toFixed(2)}x`);
    console.log(`first cycle (writes every alert's initial state): ${(times[0]! / 1000).toFixed(2)} s`);
    console.log(`goal < 10 s: ${Math.max(...times) < 10_000 ? 'met' : 'NOT met'}${gc ? '' : '  (run with --expose-gc for exact heap figures)'}`);
  } finally {
    render.close();
    receiver.server.closeAllConnections();
    receiver.server.close();
    for (const replicaStore of stores) await replicaStore.close();
    await postgres?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--render-server')) await serveRender();
else await main();
