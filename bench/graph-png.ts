/**
 * `npm run bench:graph-png`: what one notification picture costs the server. Renders the PNG of a graph the way
 * GET /v2/graphs/TOKEN.png does (SVG composed, rendered by resvg, PNG encoded) for one series of 6 h at 30 s, for
 * ten such series (the most a picture draws) and for ten series of a week at 10 s (reduced to 400 columns first).
 * Prints the median time and size of each. Goal: under 100 ms for one series on this 2-core machine, so a burst
 * of notifications opened at once does not hold the server.
 */
import { renderGraphPng } from '../src/server/graph/render-png.js';
import type { AlertGraph } from '../src/server/graph/read-graph.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const until = 1_700_000_000;

function graphOf(seriesCount: number, seconds: number, step: number): AlertGraph {
  const from = until - seconds;
  const series = Array.from({ length: seriesCount }, (_, s) => ({
    target: `web.${s}.cpu`,
    points: Array.from({ length: Math.floor(seconds / step) }, (_, i) => [from + i * step, 50 + 45 * Math.sin(i / 40 + s)] as [number, number]),
  }));
  return {
    from,
    until,
    criteria: [{ name: 'alert_criteria', metric: 'web.*.cpu', type: 'above', thresholds: [90], series }],
    alerting: [{ from: until - 3600, until: null }],
    settle_seconds: 60,
    error: null,
  };
}

async function measure(label: string, graph: AlertGraph): Promise<void> {
  await renderGraphPng(graph);
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    bytes = (await renderGraphPng(graph)).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(34)} median ${times[Math.floor(times.length / 2)]!.toFixed(1).padStart(7)} ms   ${(bytes / 1024).toFixed(0).padStart(4)} KiB`);
}

await measure('1 series, 6 h at 30 s (720 points)', graphOf(1, 6 * 3600, 30));
await measure('10 series, 6 h at 30 s', graphOf(10, 6 * 3600, 30));
await measure('10 series, 7 d at 10 s (60,480 each)', graphOf(10, 7 * 86_400, 10));
