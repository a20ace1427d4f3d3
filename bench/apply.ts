/**
 * `npm run bench:apply`: 1,000 alert creates through the reconciler (load definitions, plan, apply) against the
 * bundled server, as a user runs it (`alertform serve` child process, SQLite file; BENCH_STORE=postgres for a
 * PostgreSQL database in a local cluster started for the run).
 *
 * Baseline, same run, same server: the same 1,000 creates as bare POSTs with the same number in flight (no
 * definitions, no plan, no client library), i.e. what the server itself allows. The goal is apply <= 3 s.
 *
 * Then the anchors: the applied state read back with one list call per kind (what plan does) and with one GET per
 * resource, 10 in flight (how Terraform-style tools refresh), with the request count of each.
 *
 * Environment: BENCH_ALERTS (default 1000), BENCH_CONCURRENCY (apply's steps in flight, default 8, as apply),
 * BENCH_STORE (sqlite, the default, or postgres).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPlan } from '../src/apply/run.js';
import { AlertformClient } from '../src/client/api.js';
import { planAgainstServer } from '../src/plan/make-plan.js';
import { loadProject } from '../src/definitions/source.js';
import { writeDefinitionsDir } from '../test/helpers/definitions-dir.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { spawnServe } from '../test/helpers/server-process.js';
import { refreshByLists, refreshPerResource } from './lib/refresh.js';
import { describeMachine, formatMs, printGoal, printTable, timesOf } from './lib/report.js';
import { postSampleAlerts } from './lib/sample-alert.js';

const ALERTS = Number(process.env.BENCH_ALERTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const STORE = process.env.BENCH_STORE ?? 'sqlite';
if (STORE !== 'sqlite' && STORE !== 'postgres') throw new Error(`BENCH_STORE must be sqlite or postgres, not ${STORE}`);

const dir = mkdtempSync(join(tmpdir(), 'alertform-bench-apply-'));
// PostgreSQL: a local cluster started for the run (test/helpers/postgres.ts), fsync on, TCP on 127.0.0.1.
const postgres = STORE === 'postgres' ? await startPostgres() : undefined;
const db = postgres ? await postgres.createDatabase() : join(dir, 'bench.db');
const server = await spawnServe({ db, logLevel: 'info', discardStderr: true });
try {
  process.stdout.write(`bench:apply on ${await describeMachine()}\n`);
  process.stdout.write(
    `${ALERTS} alert creates, ${CONCURRENCY} in flight, server: alertform serve on ${postgres ? 'a local PostgreSQL' : 'a SQLite file'}\n`,
  );

  // Baseline: bare POSTs, CONCURRENCY in flight.
  const bareStarted = performance.now();
  await postSampleAlerts(server.url, server.authorization, { count: ALERTS, inFlight: CONCURRENCY, prefix: 'bare-' });
  const bareMs = performance.now() - bareStarted;

  const repo = writeDefinitionsDir(join(dir, 'repo'), { alerts: ALERTS, channels: 0, schedules: 0, prefix: 'gen-' });
  const client = new AlertformClient({ server: server.url, apiKey: server.key });
  const started = performance.now();
  const loaded = await loadProject(repo, { env: {} });
  if (loaded.problems.length > 0) throw new Error(`generated definitions have problems: ${JSON.stringify(loaded.problems[0])}`);
  const loadedAt = performance.now();
  const { plan, actual } = await planAgainstServer(loaded.definitions, client, { prune: loaded.config.prune });
  const plannedAt = performance.now();
  const result = await applyPlan(plan, actual, client, { concurrency: CONCURRENCY });
  const appliedAt = performance.now();
  if (result.failed.length > 0 || result.done.length !== ALERTS) {
    throw new Error(`apply: ${result.done.length} done, ${result.failed.length} failed: ${result.failed[0]?.error.message}`);
  }
  const verify = await planAgainstServer(loaded.definitions, client, { prune: loaded.config.prune });
  if (verify.plan.changes.length > 0) throw new Error(`after apply the plan still has ${verify.plan.changes.length} changes`);

  const applyMs = appliedAt - plannedAt;
  const totalMs = appliedAt - started;
  printTable(
    `${ALERTS} creates`,
    ['step', 'time', 'creates/s', 'vs bare POSTs'],
    [
      ['bare POSTs (baseline)', formatMs(bareMs), Math.round((ALERTS / bareMs) * 1000), '1.0x'],
      ['load definitions', formatMs(loadedAt - started), '', ''],
      ['plan (read state, compute)', formatMs(plannedAt - loadedAt), '', ''],
      ['apply', formatMs(applyMs), Math.round((ALERTS / applyMs) * 1000), timesOf(applyMs, bareMs)],
      ['load + plan + apply', formatMs(totalMs), '', timesOf(totalMs, bareMs)],
    ],
  );
  printGoal(`apply of ${ALERTS} creates <= 3 s`, formatMs(applyMs), applyMs <= 3_000);

  // The anchors: reading back what was applied, as alertform's plan does and as a Terraform-style tool does.
  // Two alternating runs of each; the faster run of each is reported.
  const lists = [];
  const perResource = [];
  for (let round = 0; round < 2; round++) {
    const listed = await refreshByLists(server.url, server.key);
    lists.push(listed);
    perResource.push(await refreshPerResource(server.url, server.authorization, listed.ids, 10));
  }
  const bestLists = lists.reduce((a, b) => (b.ms < a.ms ? b : a));
  const bestPerResource = perResource.reduce((a, b) => (b.ms < a.ms ? b : a));
  const objects = bestLists.ids.alerts.length + bestLists.ids.channels.length + bestLists.ids.schedules.length;
  printTable(
    `reading the state back (${objects} objects)`,
    ['how', 'requests', 'time', 'vs one list call per kind'],
    [
      ['one list call per kind, 100 a page (alertform plan)', bestLists.requests, formatMs(bestLists.ms), '1.0x'],
      [
        'one GET per resource, 10 in flight (Terraform-style refresh)',
        bestPerResource.requests,
        formatMs(bestPerResource.ms),
        timesOf(bestPerResource.ms, bestLists.ms),
      ],
    ],
  );
} finally {
  await server.stop();
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}
