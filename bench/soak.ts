/**
 * Soak: two `alertform serve` replicas on a real PostgreSQL, 10,000 alerts evaluated against a fake render
 * endpoint, for SOAK_MINUTES (default 10) of churn (creates, updates, deletes, mutes, flipping metrics) and
 * rotating faults (connection resets, stalls, a replica partitioned from the database past its lease, a stalled
 * render link, a webhook receiver answering 503). Every link to PostgreSQL and to the render endpoint goes through
 * a TCP fault proxy (test/helpers/tcp-fault-proxy.ts).
 *
 * It fails (exit 1) when: a replica's memory grows (resident set: median of the last third of the run above the
 * median of the first third, after warm-up, by more than 20% + 16 MB), the outbox is not drained (pending) within
 * two minutes of the end or any delivery is dead, an API answer is a 500, or a replica logs an error that is not
 * expected (an expected one names a fault, and comes during a fault or within 20 s of its end).
 *
 *   npm run soak                     # 10 minutes
 *   SOAK_MINUTES=60 npm run soak     # the run docs/operations.md records
 *   SOAK_ALERTS=2000 SOAK_MINUTES=2 npm run soak   # a quick look
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeSeries, startFakeRender } from '../test/helpers/fake-render-server.js';
import { postgresAvailability, startPostgres } from '../test/helpers/postgres.js';
import { callServe, spawnServe, type ServeProcess } from '../test/helpers/server-process.js';
import { startTcpFaultProxy, type TcpFaultProxy } from '../test/helpers/tcp-fault-proxy.js';
import { printGoal, printTable } from './lib/report.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const ALERTS = Number(process.env.SOAK_ALERTS ?? 10_000);
const INTERVAL_SECONDS = 10;
const FAULT_EVERY_MS = 40_000;
const KEY = 'soak-key-of-at-least-24-characters-long';

/** Errors a replica may log while a fault is on (or just after): each says the database or a link was away. */
const EXPECTED_DURING_FAULTS = [
  'evaluation cycle failed',
  'could not read the outbox',
  'could not record a delivery',
  'could not release evaluation leases',
];

interface LogLine {
  level: string;
  msg: string;
  time: number;
  replica: number;
  error?: string;
}

async function main(): Promise<void> {
  const availability = postgresAvailability();
  if (availability.skip) throw new Error(availability.reason);
  const startedAt = Date.now();
  const postgres = await startPostgres();
  const cleanups: (() => Promise<unknown> | unknown)[] = [() => postgres.stop()];
  try {
    const dbUrl = await postgres.createDatabase();
    const dbName = new URL(dbUrl).pathname.slice(1);

    // Metrics: `soak.N.load`, 0 (healthy) or 500 (alerting); a few flip every interval.
    const values = new Map<string, number>();
    const render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [values.get(target) ?? 0, values.get(target) ?? 0], Math.floor(Date.now() / 1000) - 20, 10)),
    }));
    cleanups.push(render.close);
    const renderProxy = await startTcpFaultProxy(Number(new URL(render.url).port));
    cleanups.push(renderProxy.close);

    const receiver = await startCountingReceiver();
    cleanups.push(receiver.close);

    const dbProxies: TcpFaultProxy[] = [];
    const servers: ServeProcess[] = [];
    const logs: LogLine[] = [];
    for (let index = 0; index < 2; index += 1) {
      const proxy = await startTcpFaultProxy(postgres.port);
      cleanups.push(proxy.close);
      dbProxies.push(proxy);
      const server = await spawnServe({
        db: `postgres://postgres@${proxy.address}/${dbName}?query_timeout=5000`,
        key: KEY,
        extraArgs: [
          '--graphite-url', `http://${renderProxy.address}`, '--eval-interval', String(INTERVAL_SECONDS), '--allow-private-destinations',
          '--max-alerts-per-account', String(ALERTS * 2), '--delivery-timeout', '5s', '--delivery-first-retry', '1s', '--delivery-max-retry-delay', '10s',
        ],
      });
      servers.push(server);
      cleanups.push(() => server.stop());
      collectLogs(server, index, logs);
    }
    const api = servers[0]!;
    const statuses = new Map<number, number>();
    const call = async (method: string, path: string, body?: unknown, via = servers[Math.floor(Math.random() * servers.length)]!) => {
      try {
        const answer = await callServe(via, method, path, body);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        return answer;
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
        return { status: 0, body: null };
      }
    };

    const channel = await call('POST', '/v2/notifications/', { type: 'webhook', description: 'soak', destination: `${receiver.url}/hook` }, api);
    if (channel.status !== 201) throw new Error(`could not create the channel: ${JSON.stringify(channel.body)}`);
    const alertIds: string[] = [];
    let created = 0;
    const createAlert = async () => {
      const metric = `soak.${created++}.load`;
      values.set(metric, 0);
      const answer = await call('POST', '/v2/alerts/', {
        name: metric, metric, alert_criteria: { type: 'above', above_value: 100 }, notification_channels: ['soak'], notification_type: ['every', 60],
      });
      if (answer.status === 201) alertIds.push(answer.body.id as string);
    };
    const setupStarted = Date.now();
    for (let batch = 0; batch < ALERTS; batch += 50) await Promise.all(Array.from({ length: Math.min(50, ALERTS - batch) }, createAlert));
    process.stdout.write(`soak: ${alertIds.length} alerts created in ${((Date.now() - setupStarted) / 1000).toFixed(0)} s; running ${MINUTES} min\n`);

    // Memory: resident set of each replica every 5 s.
    const rss: { at: number; mb: number[] }[] = [];
    const sampler = setInterval(() => rss.push({ at: Date.now(), mb: servers.map((server) => residentMb(server.pid)) }), 5_000);
    cleanups.push(() => clearInterval(sampler));

    const faults: { name: string; from: number; to: number }[] = [];
    const runFault = async (round: number) => {
      const kinds = [
        { name: 'database connections reset', run: async () => void dbProxies.forEach((proxy) => proxy.resetAll()) },
        { name: 'database link of replica 1 stalled 3 s', run: async () => stall(dbProxies[1]!, 'stall', 3_000) },
        { name: 'render link stalled 5 s', run: async () => stall(renderProxy, 'stall', 5_000) },
        { name: 'webhook receiver answering 503 for 10 s', run: async () => {
          receiver.failing = true;
          await sleep(10_000);
          receiver.failing = false;
        } },
        // Longer than a lease (one interval): the other replica takes replica 0's partitions over.
        { name: 'replica 0 partitioned from the database 15 s', run: async () => stall(dbProxies[0]!, 'partition', 15_000) },
        { name: 'database and render latency 50 ms for 20 s', run: async () => {
          for (const proxy of [...dbProxies, renderProxy]) proxy.setLatency(50);
          await sleep(20_000);
          for (const proxy of [...dbProxies, renderProxy]) proxy.setLatency(0);
        } },
      ];
      const kind = kinds[round % kinds.length]!;
      const fault = { name: kind.name, from: Date.now(), to: Number.POSITIVE_INFINITY };
      faults.push(fault);
      await kind.run();
      fault.to = Date.now();
    };

    // Churn until the deadline: each second a few creates, deletes, updates, mutes and unmutes; each interval a
    // few percent of the metrics flip. One fault every FAULT_EVERY_MS, in rotation.
    const deadline = Date.now() + MINUTES * 60_000;
    const churn = { created: 0, deleted: 0, updated: 0, muted: 0, unmuted: 0, flipped: 0 };
    let nextFault = Date.now() + FAULT_EVERY_MS / 2;
    let nextFlip = Date.now();
    let faultRound = 0;
    let faultRunning: Promise<void> = Promise.resolve();
    const pick = () => alertIds[Math.floor(Math.random() * alertIds.length)]!;
    while (Date.now() < deadline) {
      const tick = Date.now();
      if (tick >= nextFault) {
        nextFault += FAULT_EVERY_MS;
        faultRunning = runFault(faultRound++);
      }
      if (tick >= nextFlip) {
        nextFlip += INTERVAL_SECONDS * 1000;
        const metrics = [...values.keys()];
        for (let i = 0; i < Math.ceil(metrics.length * 0.02); i += 1) {
          const metric = metrics[Math.floor(Math.random() * metrics.length)]!;
          values.set(metric, values.get(metric) === 0 ? 500 : 0);
          churn.flipped += 1;
        }
        render.requests.length = 0;
      }
      const work: Promise<unknown>[] = [];
      for (let i = 0; i < 3; i += 1) {
        work.push(createAlert().then(() => (churn.created += 1)));
        const victim = alertIds.splice(Math.floor(Math.random() * alertIds.length), 1)[0];
        if (victim) work.push(call('DELETE', `/v2/alerts/${victim}`).then(() => (churn.deleted += 1)));
        work.push(call('PUT', `/v2/alerts/${pick()}`, { alert_criteria: { type: 'above', above_value: 100 + Math.floor(Math.random() * 50) } }).then(() => (churn.updated += 1)));
      }
      work.push(call('POST', `/v2/alerts/${pick()}/muted`, { duration: 1 }).then(() => (churn.muted += 1)));
      work.push(call('DELETE', `/v2/alerts/${pick()}/muted`).then(() => (churn.unmuted += 1)));
      await Promise.all(work);
      await sleep(Math.max(0, 1_000 - (Date.now() - tick)));
    }
    await faultRunning;
    clearInterval(sampler);

    // Drain: no more churn or faults; everything pending must be sent.
    const drainStarted = Date.now();
    let pending = -1;
    while (Date.now() - drainStarted < 120_000) {
      const answer = await call('GET', '/v2/deliveries/?state=pending&max=1', undefined, api);
      pending = answer.status === 200 ? (answer.body.deliveries as unknown[]).length : -1;
      if (pending === 0) break;
      await sleep(1_000);
    }
    const drainMs = Date.now() - drainStarted;
    const dead = await call('GET', '/v2/deliveries/?state=dead&max=100', undefined, api);
    const deadCount = dead.status === 200 ? (dead.body.deliveries as unknown[]).length : -1;

    // Errors: expected ones name a fault and fall in a fault's window (plus 20 s for what was in flight).
    const errors = logs.filter((line) => line.level === 'error' || line.level === 'fatal');
    const unexpected = errors.filter(
      (line) => !(EXPECTED_DURING_FAULTS.includes(line.msg) && faults.some((fault) => line.time >= fault.from - 1_000 && line.time <= fault.to + 20_000)),
    );

    const warm = rss.filter((sample) => sample.at - rss[0]!.at >= Math.min(120_000, (MINUTES * 60_000) / 5));
    const third = Math.max(1, Math.floor(warm.length / 3));
    const memory = servers.map((_, index) => {
      const early = median(warm.slice(0, third).map((sample) => sample.mb[index]!));
      const late = median(warm.slice(-third).map((sample) => sample.mb[index]!));
      const peak = Math.max(...rss.map((sample) => sample.mb[index]!));
      return { early, late, peak, flat: late <= early * 1.2 + 16 };
    });

    printTable('soak: figures', ['figure', 'value'], [
      ['duration', `${MINUTES} min (+ ${((drainStarted - startedAt) / 60_000 - MINUTES).toFixed(1)} min setup)`],
      ['alerts at the end', alertIds.length],
      ['churn: created / deleted / updated / muted / unmuted', `${churn.created} / ${churn.deleted} / ${churn.updated} / ${churn.muted} / ${churn.unmuted}`],
      ['metric flips', churn.flipped],
      ['faults', `${faults.length} (${[...new Set(faults.map((fault) => fault.name))].join('; ')})`],
      ['webhook requests / distinct delivery ids / resent', `${receiver.requests} / ${receiver.ids.size} / ${receiver.requests - receiver.ids.size}`],
      ['API answers by status', [...statuses].sort().map(([status, count]) => `${status}: ${count}`).join(', ')],
      ['errors logged / unexpected', `${errors.length} / ${unexpected.length}`],
      ['outbox drained after the run', pending === 0 ? `${(drainMs / 1000).toFixed(1)} s` : `NOT (pending ${pending})`],
      ['dead deliveries', deadCount],
      ...memory.map((m, index) => [`replica ${index} RSS early / late / peak (MB)`, `${m.early.toFixed(0)} / ${m.late.toFixed(0)} / ${m.peak.toFixed(0)}`] as [string, string]),
    ]);
    for (const line of unexpected.slice(0, 20)) process.stdout.write(`unexpected error (replica ${line.replica}): ${line.msg} ${line.error ?? ''}\n`);

    const goals: [string, string, boolean][] = [
      ['memory flat (late median <= early median x 1.2 + 16 MB)', memory.map((m) => `${m.early.toFixed(0)} -> ${m.late.toFixed(0)} MB`).join(', '), memory.every((m) => m.flat)],
      ['outbox drained within 2 min of the end, nothing dead', `pending ${pending}, dead ${deadCount}`, pending === 0 && deadCount === 0],
      ['no 500 from the API', `${statuses.get(500) ?? 0}`, !statuses.has(500)],
      ['no unexpected error logged', `${unexpected.length}`, unexpected.length === 0],
    ];
    for (const [goal, measured, met] of goals) printGoal(goal, measured, met);
    process.exitCode = goals.every(([, , met]) => met) ? 0 : 1;
  } finally {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  }
}

/** Reads a replica's JSON log lines (pino) as they come, keeping warnings and errors. */
function collectLogs(server: ServeProcess, replica: number, logs: LogLine[]): void {
  let partial = '';
  server.child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const text of lines) {
      try {
        const line = JSON.parse(text) as { level: string; msg: string; time: string; error?: string };
        if (line.level === 'error' || line.level === 'fatal') {
          logs.push({ level: line.level, msg: line.msg, time: Date.parse(line.time), replica, ...(line.error ? { error: line.error } : {}) });
        }
      } catch {
        if (text.trim() !== '') logs.push({ level: 'fatal', msg: `unparsed: ${text.slice(0, 200)}`, time: Date.now(), replica });
      }
    }
  });
}

/** A webhook receiver that only counts: requests and distinct delivery ids; answers 503 while `failing`. */
async function startCountingReceiver() {
  const state = { requests: 0, ids: new Set<string>(), failing: false, url: '', close: async () => undefined as unknown };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (state.failing) return void res.writeHead(503).end();
      state.requests += 1;
      const id = req.headers['idempotency-key'];
      if (typeof id === 'string') state.ids.add(id);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return state;
}

async function stall(proxy: TcpFaultProxy, state: 'stall' | 'partition', ms: number): Promise<void> {
  proxy.setState(state);
  await sleep(ms);
  proxy.setState('pass');
}

function residentMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

main().catch((error: unknown) => {
  process.stderr.write(`soak failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
