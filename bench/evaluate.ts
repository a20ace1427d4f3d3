/**
 * `npm run bench:evaluate`: evaluation cycles of 10,000 alerts (SQLite store, the real evaluator and Graphite
 * client) against a local render endpoint that answers every request in 50 ms. Prints the time of each cycle,
 * the heap after each one (to see it stay flat), and the ratio of a steady cycle to a baseline measured in the
 * same run: the bare time of the very same render requests, replayed with the same concurrency and no
 * evaluation. Goal: a cycle under 10 s.
 *
 * BENCH_STORE=postgres: the same on a real PostgreSQL (a cluster started in a temp dir, as the tests do), with
 * three replicas, each a process of its own (as deployed) with its own pool, evaluation leases and delivery
 * worker, cycling together; a cycle's time is the slowest replica's, and the baseline replays the union of their
 * requests with three times the concurrency. Memory is the sum of the replicas' heaps. 10 cycles. BENCH_ALERTS
 * scales the alert count (the issue's goal: 100,000 in a cycle under 30 s, at most 2x the bare requests).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runEvaluationCycle, type CycleReport } from '../src/server/evaluator/run-cycle.js';
import { replicaLeases } from '../src/server/evaluator/round-lease.js';
import { createGraphiteClient } from '../src/graphite/render-client.js';
import { readRenderFields } from '../src/graphite/render-fields.js';
import pLimit from 'p-limit';
import { startDeliveryWorker } from '../src/server/outbox/delivery-worker.js';
import { sendNotification } from '../src/server/notifiers/send.js';
import { parseDestinationPolicy } from '../src/server/net/destination-policy.js';
import { DEFAULT_NOTIFIER_SETTINGS } from '../src/server/notifiers/delivery.js';
import { openStore } from '../src/server/store/open-store.js';
import type { AlertWrite } from '../src/server/store/store.js';
import { describeMachine, printGoal } from './lib/report.js';
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
  /** Every request the endpoint received, as sent (method, path, content type and form body), to replay them bare. */
  const requests: RecordedRequest[] = [];
  /** When (epoch ms) the render endpoint received each request of `requests`. */
  const arrivals: number[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (message: { url?: string; request?: RecordedRequest; at?: number }) => {
      if (message.url) resolve(message.url);
      if (message.request) {
        requests.push(message.request);
        arrivals.push(message.at!);
      }
    });
    child.once('exit', (code) => reject(new Error(`render server exited ${code}`)));
  });
  return { url, requests, arrivals, close: () => child.kill() };
}

/** A render request as the endpoint received it. */
interface RecordedRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  body: string;
}

async function serveRender() {
  const server = createServer(async (req, res) => {
    const at = Date.now();
    // The client POSTs its targets as a form body; graphite-web reads them there as in the query string.
    const { fields, body: form } = await readRenderFields(req);
    const request: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', contentType: req.headers['content-type'], body: form };
    process.send!({ request, at });
    const from = Number(/^-(\d+)min$/.exec(fields.get('from') ?? '')?.[1] ?? 10);
    const maxDataPoints = Number(fields.get('maxDataPoints')) || null;
    const now = Math.floor(Date.now() / 1000);
    const body = `[${fields
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

/**
 * The baseline: the same render requests (method, path and form body as the cycle sent them), with the same
 * concurrency, answers read, nothing evaluated.
 */
async function replay(base: string, requests: RecordedRequest[]): Promise<number> {
  const limit = pLimit(CONCURRENCY * REPLICAS);
  const started = performance.now();
  await Promise.all(
    requests.map(({ method, path, contentType, body }) =>
      limit(async () => {
        const init = method === 'GET' ? {} : { method, body, headers: contentType ? { 'content-type': contentType } : undefined };
        return (await fetch(`${base}${path}`, init)).text();
      }),
    ),
  );
  return performance.now() - started;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * CPU time (ms) used so far by the bench's own PostgreSQL cluster (the postmaster listening on `port`), from /proc:
 * the postmaster's, its live backends', and its exited backends' (the postmaster's reaped children). Other clusters
 * on a shared machine are not counted.
 */
async function postgresCpuMs(port: number): Promise<number> {
  const stats = new Map<string, string[]>();
  let postmaster: string | undefined;
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    if (!stat.includes('(postgres)')) continue;
    stats.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' '));
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if (` ${cmdline.join(' ')} `.includes(` -p ${port} `)) postmaster = pid;
  }
  let ticks = 0;
  for (const [pid, fields] of stats) {
    // Fields after the name: 1 is the parent; 11-12 user and system time; 13-14 those of reaped children.
    if (pid === postmaster) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    else if (fields[1] === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/** What a replica answers for each cycle: the cycle's figures and its heap (after GC) and RSS. */
interface ReplicaCycle {
  report: CycleReport;
  /** CPU time (user + system) the replica spent in the cycle, ms. */
  cpuMs: number;
  heapUsed: number;
  rss: number;
}

/** A replica process, driven over IPC: `settle` takes its leases, `cycle` runs one cycle and waits for its deliveries. */
interface ReplicaHandle {
  send(command: 'settle'): Promise<void>;
  send(command: 'cycle'): Promise<ReplicaCycle>;
  /** Fetches the last cycle's render queries again through the same client, judging nothing: its CPU (ms). */
  send(command: 'render'): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts replica `index` as a process of its own (as deployed: its own event loop, pool, delivery worker), on the
 * store at `db` (a SQLite file or a PostgreSQL URL), reading `renderUrl`.
 */
async function startReplica(index: number, db: string, renderUrl: string): Promise<ReplicaHandle> {
  const child = fork(fileURLToPath(import.meta.url), ['--replica', String(index), db, renderUrl], {
    // BENCH_CPU_PROF=DIR: each replica writes a CPU profile there (open it in Chrome's DevTools).
    execArgv: ['--expose-gc', '--import', 'tsx', ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []), ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: ((value: unknown) => void)[] = [];
  child.on('message', (message: { ready?: true; answer?: unknown }) => waiting.shift()?.(message.answer));
  child.once('exit', (code) => {
    if (waiting.length > 0) throw new Error(`replica ${index} exited ${code}`);
  });
  await new Promise((resolve) => waiting.push(resolve));
  return {
    send: ((command: string) =>
      new Promise<unknown>((resolve) => {
        waiting.push(resolve);
        child.send(command);
      })) as ReplicaHandle['send'],
    // Asked to exit rather than killed, so that a CPU profile gets written.
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('exit');
      }),
  };
}

/** The replica process: one store, one Graphite client, one delivery worker; runs a cycle per `cycle` command. */
async function serveReplica(index: number, db: string, renderUrl: string) {
  const store = await openStore(db);
  const replica = `bench-${index}`;
  // Cycles run back to back here: a lease of an hour never expires mid-run, fair sharing still moves partitions.
  const ttlMs = 3_600_000;
  const graphite = createGraphiteClient({ baseUrl: renderUrl, concurrency: CONCURRENCY });
  const deliveries = startDeliveryWorker({
    store: store.outbox,
    // The receiver listens on 127.0.0.1, which only an opted-in install may reach.
    send: (ch, n, signal) => sendNotification(ch, n, { ...DEFAULT_NOTIFIER_SETTINGS, destinations: parseDestinationPolicy(true) }, signal),
  });
  const leases = replicaLeases(store.evaluation, { replica, ttlMs });
  // The queries of the last cycle (all its pages), to fetch them again bare in one call (the 'render' command): the
  // CPU floor of a cycle.
  let lastQueries: Parameters<typeof graphite.renderEach>[0][number][] = [];
  const recording: typeof graphite = {
    ...graphite,
    renderEach: (queries, onResult, cycle) => {
      for (const query of queries) lastQueries.push(query);
      return graphite.renderEach(queries, onResult, cycle);
    },
  };
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', async (command: string) => {
    if (command === 'exit') {
      deliveries.stop().then(() => store.close()).finally(() => process.exit(0));
    } else if (command === 'settle') {
      await store.evaluation.acquireEvaluationLeases(replica, ttlMs);
      process.send!({ answer: null });
    } else if (command === 'cycle') {
      lastQueries = [];
      const cpu = process.cpuUsage();
      const report = await runEvaluationCycle({ store: store.evaluation, leases, graphite: recording, onDeliveriesWritten: () => deliveries.wake() });
      const { user, system } = process.cpuUsage(cpu);
      await deliveries.idle();
      gc?.();
      gc?.();
      const { heapUsed, rss } = process.memoryUsage();
      process.send!({ answer: { report, cpuMs: (user + system) / 1000, heapUsed, rss } satisfies ReplicaCycle });
    } else if (command === 'render') {
      gc?.();
      const cpu = process.cpuUsage();
      await graphite.renderEach(lastQueries, () => undefined);
      const { user, system } = process.cpuUsage(cpu);
      process.send!({ answer: (user + system) / 1000 });
    }
  });
  process.send!({ ready: true });
}

async function main() {
  // On tmpfs when there is one: setting up 10,000 alerts one durable insert at a time is not what is measured.
  const dir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'alertform-bench-'));
  const postgres = POSTGRES ? await startPostgres() : undefined;
  const db = postgres ? await postgres.createDatabase() : join(dir, 'bench.db');
  const store = await openStore(db);
  const render = await startRender();
  const receiver = await startReceiver();
  const replicas: ReplicaHandle[] = [];
  try {
    console.log(await describeMachine());
    const account = await store.accounts.createAccount('bench@example.com');
    const channel = await store.channels.createChannel(account.id, { type: 'webhook', description: 'bench hook', destination: `${receiver.url}/hook`, autoResolve: false });
    const setupStarted = performance.now();
    // 50 inserts in flight: PostgreSQL's round trips, not what is measured, would otherwise dominate the setup.
    for (let i = 0; i < ALERTS; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, ALERTS - i) }, (_, k) => store.alerts.createAlert(account.id, alertFor(i + k, channel.id))));
    }
    console.log(`setup: ${ALERTS} alerts created in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);

    for (let index = 0; index < REPLICAS; index += 1) replicas.push(await startReplica(index, db, render.url));
    // Settle the shares before timing: the first replica to come takes all 64 partitions and sheds its surplus
    // only at its next round, when the others take it (in service, within a lease heartbeat of a replica joining).
    for (let round = 0; round < 2; round += 1) {
      for (const replica of replicas) await replica.send('settle');
    }
    console.log(
      `evaluate: ${ALERTS} alerts on ${POSTGRES ? `PostgreSQL, ${REPLICAS} replicas (a process each)` : 'SQLite, one replica process'}, ` +
        `render answering in ${DELAY_MS} ms, ${CONCURRENCY} requests in flight per replica`,
    );
    const times: number[] = [];
    const heaps: number[] = [];
    /** CPU of each cycle over all replicas, ms. */
    const cpus: number[] = [];
    let lastRequests: RecordedRequest[] = [];
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      render.requests.length = 0;
      render.arrivals.length = 0;
      const startedAt = Date.now();
      const pgCpuBefore = postgres ? await postgresCpuMs(postgres.port) : 0;
      const started = performance.now();
      const answers = await Promise.all(replicas.map((replica) => replica.send('cycle')));
      const pgCpuMs = postgres ? (await postgresCpuMs(postgres.port)) - pgCpuBefore : 0;
      const durationMs = Math.max(...answers.map((answer) => answer.report.durationMs));
      const wallMs = performance.now() - started;
      const sum = (field: 'queries' | 'saved' | 'transitions') => answers.reduce((total, a) => total + a.report[field], 0);
      const heap = answers.reduce((total, a) => total + a.heapUsed, 0);
      // Request logs travel over IPC: let them arrive.
      await new Promise((resolve) => setTimeout(resolve, 100));
      lastRequests = [...render.requests];
      times.push(durationMs);
      heaps.push(heap);
      cpus.push(answers.reduce((total, a) => total + a.cpuMs, 0));
      console.log(
        `  cycle ${cycle}: ${(durationMs / 1000).toFixed(2)} s (wall with deliveries ${(wallMs / 1000).toFixed(2)} s)  requests ${render.requests.length}` +
          `  queries ${sum('queries')}  saved ${sum('saved')}  alerting transitions ${sum('transitions')}` +
          `  cpu ${answers.map((a) => `${(a.cpuMs / 1000).toFixed(2)} s`).join(' + ')}${POSTGRES ? ` (postgres ${(pgCpuMs / 1000).toFixed(2)} s)` : ''}` +
          `  heap ${answers.map((a) => mb(a.heapUsed)).join(' + ')}  rss ${answers.map((a) => mb(a.rss)).join(' + ')}` +
          `${POSTGRES ? `  alerts per replica ${answers.map((a) => a.report.alerts).join('/')}` : ''}`,
      );
      // Where the cycle's wall time goes outside the requests: before the first one arrived, after the last one.
      const firstMs = Math.min(...render.arrivals) - startedAt;
      const lastMs = Math.max(...render.arrivals) - startedAt;
      console.log(`           first request at +${firstMs} ms, last at +${lastMs} ms (answered ${DELAY_MS} ms later), cycle ends at +${Math.round(durationMs)} ms`);
    }
    const baselineMs = await replay(render.url, lastRequests);
    // The CPU floor, measured in the same run: the replicas fetch the same render queries through the same client
    // (same batching, parsing and matching), judging nothing. Median of three.
    const renderCpus: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      renderCpus.push((await Promise.all(replicas.map((replica) => replica.send('render')))).reduce((total, ms) => total + ms, 0));
    }
    const steady = times.slice(1);
    const median = [...steady].sort((x, y) => x - y)[Math.floor(steady.length / 2)] ?? times[0]!;
    const steadyHeaps = heaps.slice(1);
    const heapGrowth = steadyHeaps.length > 1 ? steadyHeaps.at(-1)! - steadyHeaps[0]! : 0;
    console.log(`  notifications delivered: ${receiver.count()}`);
    console.log(`baseline (the same ${lastRequests.length} render requests, bare): ${(baselineMs / 1000).toFixed(2)} s`);
    console.log(`steady cycle (median of cycles 2..${CYCLES}): ${(median / 1000).toFixed(2)} s  ratio to baseline ${(median / baselineMs).toFixed(2)}x`);
    console.log(`first cycle (writes every alert's initial state): ${(times[0]! / 1000).toFixed(2)} s`);
    console.log(`heap of all replicas after cycles 2..${CYCLES}: ${steadyHeaps.map(mb).join(', ')} (growth ${mb(heapGrowth)})`);
    const medianOf = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
    const cpuPerAlertUs = (medianOf(cpus.slice(1)) * 1000) / ALERTS;
    const renderPerAlertUs = (medianOf(renderCpus) * 1000) / ALERTS;
    console.log(
      `CPU per alert per cycle (median of cycles 2..${CYCLES}, all replicas): ${cpuPerAlertUs.toFixed(1)} us; ` +
        `the same render queries bare through the same client: ${renderPerAlertUs.toFixed(1)} us (ratio ${(cpuPerAlertUs / renderPerAlertUs).toFixed(2)}x); ` +
        `evaluation on top of them: ${(cpuPerAlertUs - renderPerAlertUs).toFixed(1)} us`,
    );
    const limitMs = ALERTS > 10_000 ? 30_000 : 10_000;
    printGoal(`every cycle < ${limitMs / 1000} s`, `slowest ${(Math.max(...times) / 1000).toFixed(2)} s`, Math.max(...times) < limitMs);
    printGoal('steady cycle <= 2x the bare render requests', `${(median / baselineMs).toFixed(2)}x`, median <= 2 * baselineMs);
    if (POSTGRES) printGoal('steady cycle <= 1.5x the bare render requests (issue 21)', `${(median / baselineMs).toFixed(2)}x`, median <= 1.5 * baselineMs);
    printGoal('evaluator CPU <= 25 us per alert per cycle (issue 21)', `${cpuPerAlertUs.toFixed(1)} us`, cpuPerAlertUs <= 25);
  } finally {
    await Promise.all(replicas.map((replica) => replica.close()));
    render.close();
    receiver.server.closeAllConnections();
    receiver.server.close();
    await store.close();
    await postgres?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const replicaArg = process.argv.indexOf('--replica');
if (process.argv.includes('--render-server')) await serveRender();
else if (replicaArg >= 0) await serveReplica(Number(process.argv[replicaArg + 1]), process.argv[replicaArg + 2]!, process.argv[replicaArg + 3]!);
else await main();
