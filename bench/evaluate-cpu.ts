/**
 * `npm run bench:evaluate:cpu`: the evaluator's own CPU per alert per cycle, without HTTP. The real SQLite store
 * (a file on tmpfs) and runEvaluationCycle over the alerts of bench:evaluate (BENCH_ALERTS,
 * default 10,000), with the render client replaced by answers held in memory as bytes and read per request as the
 * real client reads them (parseRenderAnswer), so only what the evaluator adds to its render requests is measured. The
 * baseline in the same run: the parse of those same answers alone. Prints the medians of cycles 2..BENCH_CYCLES
 * (default 15) and the heap after GC.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/server/store/open-store.js';
import { runEvaluationCycle } from '../src/server/evaluator/run-cycle.js';
import { parseRenderAnswer } from '../src/graphite/render-json.js';
import type { GraphiteClient, RenderQuery } from '../src/graphite/index.js';
import type { AlertWrite } from '../src/server/store/store.js';
import { describeMachine, printGoal } from './lib/report.js';

const ALERTS = Number(process.env.BENCH_ALERTS ?? 10_000);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 15);
const BATCH = 100;
const gc = (globalThis as { gc?: () => void }).gc;

/** The alerts of bench:evaluate: 80 % threshold, 10 % missing data, 10 % composite. */
function alertFor(index: number, channelId: string): AlertWrite {
  const base = { name: `alert ${index}`, additionalCriteria: {}, expression: 'a', notificationChannels: [channelId], notificationType: ['every', 60] as ['every', number], scheduledMutes: [], info: null, onQueryFailure: null };
  if (index % 10 === 8) return { ...base, metric: `bench.h${index}.beat`, alertCriteria: { type: 'missing', time_period: 5 } };
  if (index % 10 === 9) {
    return { ...base, metric: `bench.h${index}.cpu`, alertCriteria: { type: 'above', above_value: 90, time_period: 2 }, additionalCriteria: { b: { type: 'below', below_value: 40, metric: `bench.h${index}.mem` } }, expression: 'a && b' };
  }
  return { ...base, metric: `bench.h${index}.cpu`, alertCriteria: { type: 'above', above_value: 90, time_period: 2 } };
}

/** One series as bench:evaluate's render endpoint answers it (1 in 100 cpu above 90, 1 in 100 beats silent). */
function seriesJson(query: RenderQuery, now: number): string {
  const [, host, kind] = /^bench\.h(\d+)\.(\w+)$/.exec(query.target)!;
  let step = query.fromMinutes > 360 ? 60 : 10;
  if (query.maxDataPoints) step = Math.max(step, Math.ceil((query.fromMinutes * 60) / query.maxDataPoints / step) * step);
  const end = Math.floor(now / step) * step;
  const points: string[] = [];
  for (let k = Math.floor((query.fromMinutes * 60) / step) - 1; k >= 0; k -= 1) {
    const time = end - k * step;
    const value = kind === 'beat' ? (Number(host) % 100 === 0 && time > now - 600 ? null : 1) : kind === 'cpu' ? (Number(host) % 100 === 0 ? 95 : 50) : 30;
    points.push(`[${value}, ${time}]`);
  }
  return `{"target": "${query.target}", "datapoints": [${points.join(', ')}]}`;
}

const cpuUs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return user + system;
};
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

const dir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'alertform-bench-cpu-'));
const store = await openStore(join(dir, 'bench.db'));
try {
  console.log(await describeMachine());
  const account = await store.accounts.createAccount('bench@example.com');
  const channel = await store.channels.createChannel(account.id, { type: 'webhook', description: 'bench hook', destination: 'http://127.0.0.1:9/hook', autoResolve: false });
  for (let i = 0; i < ALERTS; i += 1) await store.alerts.createAlert(account.id, alertFor(i, channel.id));
  const now = Math.floor(Date.now() / 1000);
  // The answers of each request (100 queries), made once and read at every use, as the client reads each answer.
  const answers = new Map<number, Buffer>();
  const graphite: GraphiteClient = {
    async renderEach(queries, onResult) {
      for (let first = 0; first < queries.length; first += BATCH) {
        const batch = queries.slice(first, first + BATCH);
        let text = answers.get(first);
        if (text === undefined) answers.set(first, (text = Buffer.from(`[${batch.map((query) => seriesJson(query, now)).join(', ')}]`)));
        const series = parseRenderAnswer(text);
        batch.forEach((_, k) => onResult(first + k, { ok: true, series: [series[k]!] }));
        // As answers arrive: the cycle judges between them.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    render: () => Promise.reject(new Error('not used')),
    graphUrl: () => '',
  };
  const cycles: number[] = [];
  const parses: number[] = [];
  const heaps: number[] = [];
  for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
    const started = process.cpuUsage();
    await runEvaluationCycle({ store: store.evaluation, graphite });
    const totalUs = cpuUs(started);
    gc?.();
    const heapUsed = process.memoryUsage().heapUsed;
    // The baseline, outside the cycle (a CPU reading per answer inside it cost more than some parses): the same
    // answers parsed once each, after the same collection.
    const parseStarted = process.cpuUsage();
    for (const text of answers.values()) parseRenderAnswer(text);
    const parseUs = cpuUs(parseStarted);
    if (cycle > 1) {
      cycles.push(totalUs / ALERTS);
      parses.push(parseUs / ALERTS);
      heaps.push(heapUsed);
    }
  }
  const perAlert = median(cycles);
  const parse = median(parses);
  console.log(`evaluate:cpu: ${ALERTS} alerts on SQLite, render answers from memory, ${CYCLES} cycles`);
  console.log(`  CPU per alert per cycle (median of cycles 2..${CYCLES}): ${perAlert.toFixed(1)} us (range ${Math.min(...cycles).toFixed(1)}-${Math.max(...cycles).toFixed(1)})`);
  console.log(`  of which parsing the render answers (the baseline, the same answers parsed alone): ${parse.toFixed(1)} us; the evaluation on top: ${(perAlert - parse).toFixed(1)} us (${(perAlert / parse).toFixed(2)}x the parse)`);
  console.log(`  heap after GC, cycles 2..${CYCLES}: ${(Math.min(...heaps) / 1048576).toFixed(1)}-${(Math.max(...heaps) / 1048576).toFixed(1)} MB`);
  printGoal('evaluator CPU <= 25 us per alert per cycle, without HTTP', `${perAlert.toFixed(1)} us`, perAlert <= 25);
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
