/**
 * `npm run bench:functions`: what evaluating a Graphite function locally costs, per series read. 1,000 series of
 * 10 s points over 10 minutes (plus the history a moving window needs) are handed to the function engine for a
 * few typical alert targets, each compiled once (as the stream evaluation does) and evaluated again and again.
 * The baseline, measured in the same run, is the bare work any evaluation does: reading the same points into one
 * array per series and summing each row. Prints the median time per evaluation, per series, and the ratio.
 * The engine is pure and synchronous: its cost is CPU on the caller's event loop, linear in the points read
 * (times the window's points for moving windows), so the caller bounds it by the series and history it keeps.
 */
import { compileTarget, type FetchedSeries } from '../src/graphite-functions/index.js';
import { compileGraphitePattern } from '../src/model/graphite-target/glob.js';
import { describeMachine } from './lib/report.js';

const SERIES = Number(process.env.BENCH_SERIES ?? 1_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const STEP = 10;
const UNTIL = 1_800_000_000;
const FROM = UNTIL - 600;
const HISTORY = 3_600;

const all: FetchedSeries[] = Array.from({ length: SERIES }, (_, s) => ({
  target: `bench.h${s}.requests`,
  step: STEP,
  datapoints: Array.from({ length: HISTORY / STEP + 60 }, (__, i) => [(i * 37 + s) % 101 === 0 ? null : ((i * 37 + s) % 101) / 7, UNTIL - HISTORY + i * STEP] as [number | null, number]),
}));
const byPattern = new Map<string, FetchedSeries[]>();
const fetch = (path: string) => {
  let found = byPattern.get(path);
  if (!found) {
    const pattern = compileGraphitePattern(path);
    byPattern.set(path, (found = all.filter((one) => pattern.test(one.target))));
  }
  return found;
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/** The bare work: the points of the range into one array per series, then a sum per row. */
function baseline(): number {
  const rows: (number | null)[][] = all.map((one) => one.datapoints.filter(([, t]) => t > FROM && t <= UNTIL).map(([v]) => v));
  let total = 0;
  for (let i = 0; i < rows[0]!.length; i += 1) for (const row of rows) total += row[i] ?? 0;
  return total;
}

const TARGETS = [
  'sumSeries(bench.*.requests)',
  'asPercent(bench.*.requests)',
  'divideSeries(bench.*.requests, sumSeries(bench.*.requests))',
  'perSecond(bench.*.requests)',
  "summarize(bench.*.requests, '1min', 'avg')",
  'movingAverage(bench.*.requests, 6)',
  "movingAverage(bench.*.requests, '30min')",
  'aliasByNode(scale(keepLastValue(bench.*.requests), 8), 1)',
];

process.stdout.write(`bench:functions on ${await describeMachine()}\n`);
const base = time(baseline);
process.stdout.write(`${SERIES} series, 10 s points, 10 minutes (${RUNS} runs, medians)\n`);
process.stdout.write(`baseline (read the points, sum the rows): ${base.toFixed(2)} ms, ${((base * 1000) / SERIES).toFixed(2)} µs a series\n`);
for (const target of TARGETS) {
  const compiled = compileTarget(target);
  const ms = time(() => compiled.evaluate(fetch, { from: FROM, until: UNTIL }));
  process.stdout.write(`${target.padEnd(62)} ${ms.toFixed(2).padStart(8)} ms  ${((ms * 1000) / SERIES).toFixed(2).padStart(7)} µs a series  ${(ms / base).toFixed(1).padStart(6)}x baseline\n`);
}
