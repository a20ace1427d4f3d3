/**
 * `npm run bench:stream`: the metric stream, section by section, each against a baseline measured in the same run.
 * `BENCH_SECTIONS=ingest,patterns` runs some of them (default: all): ingest, patterns, memory (in process), then
 * latency and load (on Debian's carbon-cache and graphite-web, minutes each; BENCH_LATENCY_ALERTS, BENCH_ALERTS and
 * BENCH_MINUTES size them). Each section is a module of bench/stream/ exporting a function that prints its tables
 * and goals.
 */
import { describeMachine } from './lib/report.js';
import { runDetectionLatency } from './stream/detection-latency.js';
import { runIngestRate } from './stream/ingest-rate.js';
import { runPatternScaling } from './stream/pattern-scaling.js';
import { runRenderLoad } from './stream/render-load.js';
import { runSeriesMemory } from './stream/series-memory.js';

const SECTIONS: { name: string; title: string; run: () => Promise<void> }[] = [
  { name: 'ingest', title: 'Received and matched points per second, one core, against a bare line reader', run: runIngestRate },
  { name: 'patterns', title: 'The rate with 100, 1,000 and 10,000 wildcard alerts', run: runPatternScaling },
  { name: 'memory', title: 'Memory per 100,000 matched series', run: runSeriesMemory },
  { name: 'latency', title: 'Detection latency, stream against render polling (Debian carbon-cache and graphite-web)', run: runDetectionLatency },
  { name: 'load', title: 'Render requests and graphite-web CPU a minute, polled against streamed (graphite-web)', run: runRenderLoad },
];

const wanted = process.env.BENCH_SECTIONS?.split(',').map((name) => name.trim());
process.stdout.write(`bench:stream on ${await describeMachine()}\n`);
for (const section of SECTIONS) {
  if (wanted && !wanted.includes(section.name)) continue;
  process.stdout.write(`\n## ${section.title} (${section.name})\n`);
  await section.run();
}
