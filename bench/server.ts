/**
 * `npm run bench:server`: the /v2 server under autocannon, against bare Koa in the same process layout.
 *
 * Both run as child processes (`node --import tsx ...`, 127.0.0.1, port 0) and are driven from this process with
 * the same autocannon settings, alternating rounds so that a change in the machine's load hits both alike. The
 * real server is `alertform serve` as a user starts it, on each store in turn: a SQLite file (WAL, fsync per commit)
 * and a PostgreSQL database in a local cluster started for the run (test/helpers/postgres.ts), request log at debug.
 *
 * Each scenario runs BENCH_ROUNDS rounds of one run each, the order alternating; the ratio printed is the median of
 * the rounds' ratios (each measured back to back), the req/s and p99 those of the median run of each side. Beside
 * them, the CPU time each side's process spent per request (µs, from /proc, summed over the rounds) and bare Koa's
 * CPU per request over the server's: a figure other processes on the machine disturb much less than throughput.
 *
 * Environment: BENCH_SECONDS (per run, default 5), BENCH_CONNECTIONS (default 10), BENCH_ROUNDS (default 3),
 * BENCH_LOG_LEVEL (the server's ALERTFORM_LOG_LEVEL, default debug: one request log line per request),
 * BENCH_STORES (default sqlite,postgres), BENCH_SCENARIOS (default read,search,create: which of the three to run).
 *
 * Goals (issue 21): reading one alert >= 70% of bare Koa on SQLite and >= 50% on PostgreSQL; a search page >= 40%.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresAvailability, startPostgres } from '../test/helpers/postgres.js';
import { spawnNodeServer, spawnServe, type ServeProcess } from '../test/helpers/server-process.js';
import { runLoad, type LoadRequest, type LoadResult, type LoadSettings } from './lib/load-test.js';
import { describeMachine, printGoal, printTable } from './lib/report.js';
import { CpuPerRequest } from './lib/process-cpu.js';
import { postSampleAlerts, sampleAlertBody } from './lib/sample-alert.js';

const SEEDED = 1_000;
const settings: LoadSettings = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
};
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const dir = mkdtempSync(join(tmpdir(), 'alertform-bench-server-'));
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'debug';
// Both stores by default; PostgreSQL is skipped (with a line saying so) where its binaries are missing.
const storeNames = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',').map((name) => name.trim());
const scenarioNames = new Set((process.env.BENCH_SCENARIOS ?? 'read,search,create').split(',').map((name) => name.trim()));
const postgresWanted = storeNames.includes('postgres');
const postgresMissing = postgresWanted && postgresAvailability().skip;
const postgres = postgresWanted && !postgresMissing ? await startPostgres() : undefined;
const bare = await spawnNodeServer(fileURLToPath(new URL('./lib/bare-koa-server.ts', import.meta.url)), [], {
  discardStderr: true,
});
const servers: ServeProcess[] = [];

try {
  process.stdout.write(`bench:server on ${await describeMachine()}\n`);
  process.stdout.write(
    `autocannon: ${settings.connections} connections, ${settings.seconds} s per run, ${rounds} round(s), ` +
      `${SEEDED} alerts seeded, server log level ${logLevel}, stores: ${storeNames.join(', ')}\n`,
  );
  if (postgresMissing) process.stdout.write('PostgreSQL is not installed here: its rows are left out\n');

  const rows: Array<Array<string | number>> = [];
  const goals: Array<{ label: string; ratio: number; goal: number }> = [];
  for (const storeName of storeNames) {
    if (storeName === 'postgres' && !postgres) continue;
    // SQLite: a file, WAL, fsync per commit. PostgreSQL: a local cluster (fsync on, synchronous_commit on), TCP.
    const db = storeName === 'postgres' ? await postgres!.createDatabase() : join(dir, 'bench.db');
    // The create scenario makes thousands of alerts a second on a quiet machine: past the default quota of 10,000 an
    // account gets 403 quota_exceeded, and the bench would time refusals. The bench's account may hold any number.
    const real = await spawnServe({ db, logLevel, discardStderr: true, extraArgs: ['--max-alerts-per-account', '100000000'] });
    servers.push(real);
    const [firstId] = await postSampleAlerts(real.url, real.authorization, { count: SEEDED, inFlight: 20, prefix: 'seed ' });

    const auth = { authorization: real.authorization };
    const scenarios: Array<{ name: string; request: LoadRequest }> = [
      { key: 'read', name: 'read one alert', request: { method: 'GET' as const, path: `/v2/alerts/${firstId}/`, headers: auth } },
      { key: 'search', name: 'search page of 100', request: { method: 'GET' as const, path: '/v2/alerts/?page=5&max=100', headers: auth } },
      {
        key: 'create',
        name: 'create alert',
        request: {
          method: 'POST' as const,
          path: '/v2/alerts/',
          headers: auth,
          body: (n: number) => JSON.stringify(sampleAlertBody(`bench ${process.pid} ${n}`)),
        },
      },
    ].filter((scenario) => scenarioNames.has(scenario.key));

    // Warm-up (JIT, page cache, pooled connections), not reported.
    for (const { request } of scenarios) {
      await runLoad(bare.url, request, { ...settings, seconds: 1 });
      await runLoad(real.url, request, { ...settings, seconds: 1 });
    }

    for (const { name, request } of scenarios) {
      const bareRuns: LoadResult[] = [];
      const realRuns: LoadResult[] = [];
      const ratios: number[] = [];
      const cpu = { bare: new CpuPerRequest(bare.pid), real: new CpuPerRequest(real.pid) };
      for (let round = 0; round < rounds; round++) {
        // Alternate which goes first, so that a drift in the machine's load favours neither.
        const [first, second] = round % 2 === 0 ? [bare, real] : [real, bare];
        const a = await (first === bare ? cpu.bare : cpu.real).measure(() => runLoad(first.url, request, settings));
        const b = await (second === bare ? cpu.bare : cpu.real).measure(() => runLoad(second.url, request, settings));
        const [bareRun, realRun] = first === bare ? [a, b] : [b, a];
        if (realRun.failures > 0 || bareRun.failures > 0) {
          throw new Error(`${storeName} ${name}: ${realRun.failures} failed requests on the server, ${bareRun.failures} on the baseline`);
        }
        bareRuns.push(bareRun);
        realRuns.push(realRun);
        ratios.push(realRun.requestsPerSecond / bareRun.requestsPerSecond);
      }
      const b = medianRun(bareRuns);
      const r = medianRun(realRuns);
      const ratio = median(ratios);
      if (name === 'read one alert') goals.push({ label: `read one alert >= ${storeName === 'postgres' ? 50 : 70}% of bare Koa (${storeName})`, ratio, goal: storeName === 'postgres' ? 0.5 : 0.7 });
      if (name === 'search page of 100') goals.push({ label: `search page >= 40% of bare Koa (${storeName})`, ratio, goal: 0.4 });
      rows.push([
        storeName,
        name,
        Math.round(r.requestsPerSecond),
        r.p99Ms,
        Math.round(b.requestsPerSecond),
        b.p99Ms,
        `${Math.round(ratio * 100)}%`,
        ratios.map((value) => `${Math.round(value * 100)}%`).join(' '),
        cpu.real.microseconds(),
        cpu.bare.microseconds(),
        cpu.real.ratioTo(cpu.bare),
      ]);
    }
    await real.stop();
  }
  printTable(
    'alertform serve vs bare Koa (same process layout, same autocannon settings)',
    [
      'store',
      'scenario',
      'server req/s',
      'server p99 ms',
      'bare Koa req/s',
      'bare Koa p99 ms',
      'server / bare',
      'each round',
      'server CPU µs/req',
      'bare CPU µs/req',
      'bare / server CPU',
    ],
    rows,
  );
  for (const { label, ratio, goal } of goals) printGoal(label, `${Math.round(ratio * 100)}%`, ratio >= goal);
} finally {
  await Promise.all([...servers.map((server) => server.stop()), bare.stop()]);
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The run with the median throughput (the lower middle one for an even count), with its own p99. */
function medianRun(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
