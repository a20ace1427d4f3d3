/**
 * `npm run bench:plan`: a no-change plan of 10,000 alerts and 100 channels against the bundled server (SQLite,
 * running in its own process). Seeds the database straight through the store, writes definitions that match it,
 * then prints, for a few runs: the wall time and peak memory (RSS) of the whole plan (load + validate the YAML,
 * read the server with paginated lists, compute; planProject, as the CLI does it), and the time of fetching the same
 * pages alone, each with its CPU (this process's, how long its event loop was active (on a loaded machine that includes waiting for a core), and the server process's, from /proc).
 * Goals: at most 2.5 s, 400 MB, and 1.5x the bare fetch (issue 21). Then the anchor: the same state read Terraform-style, one GET per resource
 * with 10 in flight, against one list call per kind, with the request count of each. Figures only: nothing here
 * fails on a number.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { openSqliteStore } from '../src/server/store/sqlite/sqlite-store.js';
import { ensureApiKeys } from '../src/server/accounts.js';
import { AlertformClient } from '../src/client/api.js';
import type { AdditionalCriterion } from '../src/model/types.js';
import { loadProject } from '../src/definitions/source.js';
import { planProject } from '../src/plan/plan-project.js';
import { processCpuMs } from './lib/process-cpu.js';
import { refreshByLists, refreshPerResource } from './lib/refresh.js';

const ALERTS = Number(process.env.BENCH_ALERTS ?? 10_000);
const CHANNELS = Number(process.env.BENCH_CHANNELS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const KEY = 'bench-plan-key-0123456789abcdef';
const ROOT = fileURLToPath(new URL('../', import.meta.url));

async function seed(db: string, defsDir: string): Promise<void> {
  const store = openSqliteStore(db);
  await ensureApiKeys(store, [KEY]);
  const account = (await store.accounts.findAccountByKey(KEY))!;
  const channelIds: string[] = [];
  const channels: Record<string, unknown>[] = [];
  for (let i = 0; i < CHANNELS; i += 1) {
    const channel = { type: 'webhook' as const, description: `bench-channel-${i}`, destination: `https://hooks.example.com/bench/${i}`, autoResolve: false };
    channelIds.push((await store.channels.createChannel(account.id, channel)).id);
    channels.push({ description: channel.description, type: channel.type, destination: channel.destination });
  }
  const files: Record<string, unknown>[][] = Array.from({ length: 10 }, () => []);
  for (let i = 0; i < ALERTS; i += 1) {
    const composite = i % 10 === 0;
    const alert = {
      name: `bench-alert-${String(i).padStart(5, '0')}`,
      metric: i % 7 === 0 ? `sumSeries(bench.h${i}.*.errors)` : `bench.h${i}.cpu`,
      alertCriteria: { type: 'above' as const, above_value: 90, time_period: 5 },
      additionalCriteria: (composite ? { b: { type: 'below' as const, below_value: 1, metric: `bench.h${i}.mem` } } : {}) as Record<string, AdditionalCriterion>,
      expression: composite ? 'a && b' : 'a',
      notificationChannels: [channelIds[i % CHANNELS]!, channelIds[(i + 1) % CHANNELS]!],
      notificationType: ['every', 60] as ['every', number],
      scheduledMutes: [],
      info: `Runbook for alert ${i}: https://runbooks.example.com/bench/${i}`,
      onQueryFailure: i % 7 === 0 ? ('notify' as const) : null,
    };
    await store.alerts.createAlert(account.id, alert);
    files[i % 10]!.push({
      name: alert.name,
      metric: alert.metric,
      alert_criteria: alert.alertCriteria,
      ...(composite ? { additional_criteria: alert.additionalCriteria, expression: alert.expression } : {}),
      notification_channels: [`bench-channel-${i % CHANNELS}`, `bench-channel-${(i + 1) % CHANNELS}`],
      info: alert.info,
    });
  }
  await store.close();
  await writeFile(join(defsDir, 'channels.yaml'), stringify({ channels }));
  await Promise.all(files.map((alerts, n) => writeFile(join(defsDir, `alerts-${n}.yaml`), stringify({ alerts }, { lineWidth: 0 }))));
}

/** The bundled server in its own process, so this process measures only the client side. */
async function startServerProcess(db: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'serve', '--port', '0', '--db', db, '--api-key', KEY], {
    cwd: ROOT,
    env: { ...process.env, ALERTFORM_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url, child };
}

interface Measured<T> {
  ms: number;
  peakMb: number;
  value: T;
  /** This process's CPU (all threads), how long its event loop was active, and the server process's CPU, in ms. */
  cpuMs: number;
  busyMs: number;
  serverCpuMs: number | undefined;
}

/**
 * Runs `work` while sampling RSS every 5 ms; returns its wall time, the peak RSS seen, and the CPU spent on both
 * sides: on a shared machine CPU times are disturbed far less than wall times.
 */
async function measure<T>(work: () => Promise<T>, serverPid: number): Promise<Measured<T>> {
  (globalThis as { gc?: () => void }).gc?.();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const cpu = process.cpuUsage();
  const loop = performance.eventLoopUtilization();
  const server = processCpuMs(serverPid);
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const busyMs = performance.eventLoopUtilization(loop).active;
  const serverAfter = processCpuMs(serverPid);
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, peakMb: peak / 1024 / 1024, value, cpuMs: (user + system) / 1000, busyMs, serverCpuMs: server === null || serverAfter === null ? undefined : serverAfter - server };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'af-bench-plan-'));
  const defsDir = join(work, 'defs');
  await mkdir(defsDir);
  const db = join(work, 'bench.db');
  let started = performance.now();
  await seed(db, defsDir);
  console.log(`seeded ${ALERTS} alerts and ${CHANNELS} channels through the store in ${Math.round(performance.now() - started)} ms`);
  started = performance.now();
  const { url, child } = await startServerProcess(db);
  console.log(`server process ready in ${Math.round(performance.now() - started)} ms at ${url}`);
  const client = new AlertformClient({ server: url, apiKey: KEY });
  try {
    const fetches: number[] = [];
    const plans: number[] = [];
    const peaks: number[] = [];
    const loads: number[] = [];
    const cpu = { plan: [] as number[], fetch: [] as number[], load: [] as number[], planBusy: [] as number[], fetchBusy: [] as number[], planServer: [] as number[], fetchServer: [] as number[] };
    for (let run = 1; run <= RUNS; run += 1) {
      const fetch = await measure(() => Promise.all([client.listSchedules(), client.listChannels(), client.listAlerts()]), child.pid!);
      // The plan as every caller makes it (planProject: the CLI's plan and apply, the Action, the demo).
      const plan = await measure(async () => {
        const planned = await planProject({ dir: defsDir, env: {}, server: { client, printable: url } });
        if (planned.status === 'invalid') throw new Error(`bench definitions have problems: ${planned.problems[0]!.message}`);
        return planned.plan;
      }, child.pid!);
      const result = plan.value;
      // Loading the YAML alone, for the record (in the plan it overlaps the page reads).
      const load = await measure(() => loadProject(defsDir, { env: {} }), child.pid!);
      const loadMs = load.ms;
      if (result.changes.length > 0 || result.summary.noOp !== ALERTS + CHANNELS) throw new Error(`expected a no-change plan, got ${JSON.stringify(result.summary)}`);
      fetches.push(fetch.ms);
      plans.push(plan.ms);
      peaks.push(plan.peakMb);
      loads.push(loadMs);
      cpu.plan.push(plan.cpuMs);
      cpu.fetch.push(fetch.cpuMs);
      cpu.load.push(load.cpuMs);
      cpu.planBusy.push(plan.busyMs);
      cpu.fetchBusy.push(fetch.busyMs);
      if (plan.serverCpuMs !== undefined) cpu.planServer.push(plan.serverCpuMs);
      if (fetch.serverCpuMs !== undefined) cpu.fetchServer.push(fetch.serverCpuMs);
      console.log(
        `run ${run}: plan ${Math.round(plan.ms)} ms (loading the YAML alone ${Math.round(loadMs)} ms), peak RSS ${Math.round(plan.peakMb)} MB; bare fetch of the same pages ${Math.round(fetch.ms)} ms: ${(plan.ms / fetch.ms).toFixed(2)}x`,
      );
      console.log(
        `       CPU: plan ${Math.round(plan.cpuMs)} ms (event loop active ${Math.round(plan.busyMs)} ms, server ${plan.serverCpuMs ?? '?'} ms); ` +
          `bare fetch ${Math.round(fetch.cpuMs)} ms (event loop active ${Math.round(fetch.busyMs)} ms, server ${fetch.serverCpuMs ?? '?'} ms); load alone ${Math.round(load.cpuMs)} ms`,
      );
    }
    const planMs = median(plans);
    const fetchMs = median(fetches);
    console.log('');
    console.log(`no-change plan of ${ALERTS} alerts + ${CHANNELS} channels (median of ${RUNS}):`);
    console.log(`  wall time   ${Math.round(planMs)} ms   (goal <= 2500 ms)`);
    console.log(`  peak RSS    ${Math.round(Math.max(...peaks))} MB   (goal <= 400 MB)`);
    console.log(`  bare fetch  ${Math.round(fetchMs)} ms`);
    console.log(`  ratio       ${(planMs / fetchMs).toFixed(2)}x   (goal <= 1.5x; median plan over median fetch)`);
    // Each run's plan against the fetch just before it: under a load that swings, the steadier figure.
    console.log(`  run ratios  ${(median(plans.map((ms, i) => ms / fetches[i]!))).toFixed(2)}x median of each run's plan / fetch`);
    // What the plan adds to reading the server, per 1,000 alerts: the figure a 2-core machine can hold as a goal (the
    // 1.5x ratio is out of reach there: docs/benchmarks.md, "Issue 21's no-change plan goal").
    console.log(`  on top      ${((planMs - fetchMs) / (ALERTS / 1000)).toFixed(1)} ms per 1,000 alerts (median plan - median fetch)`);
    console.log(`  YAML load   ${Math.round(median(loads))} ms alone (in the plan, while the pages are read)`);
    // CPU (this process, all threads): what a busy machine disturbs least. The server runs in its own process.
    const serverOf = (values: number[]) => (values.length > 0 ? `${Math.round(median(values))} ms` : 'not read (no /proc)');
    console.log(
      `  CPU         plan ${Math.round(median(cpu.plan))} ms (event loop active ${Math.round(median(cpu.planBusy))} ms), bare fetch ${Math.round(median(cpu.fetch))} ms ` +
        `(event loop active ${Math.round(median(cpu.fetchBusy))} ms), YAML load alone ${Math.round(median(cpu.load))} ms; server during plan ${serverOf(cpu.planServer)}, during fetch ${serverOf(cpu.fetchServer)}`,
    );

    // The anchor: how a Terraform-style tool reads the same state, one GET per resource, 10 in flight.
    const listed = await refreshByLists(url, KEY);
    const perResource = await refreshPerResource(url, `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`, listed.ids, 10);
    console.log('');
    console.log(`reading the server's state (${listed.ids.alerts.length + listed.ids.channels.length + listed.ids.schedules.length} objects):`);
    console.log(`  one list call per kind (alertform plan)  ${listed.requests} requests, ${Math.round(listed.ms)} ms`);
    console.log(
      `  one GET per resource, 10 in flight        ${perResource.requests} requests, ${Math.round(perResource.ms)} ms ` +
        `(${(perResource.ms / listed.ms).toFixed(1)}x the lists, ${(perResource.ms / planMs).toFixed(1)}x the whole plan)`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(work, { recursive: true, force: true });
  }
}

await main();
