/**
 * `npm run bench:stream`: the metric stream, section by section, each against a baseline measured in the same run.
 * `BENCH_SECTIONS=ingest,patterns` runs some of them (default: all). Each section is a module of bench/stream/
 * exporting `run(): Promise<void>`, which prints its tables and goals.
 */
import { describeMachine } from './lib/report.js';
import { runIngestRate } from './stream/ingest-rate.js';
import { runPatternScaling } from './stream/pattern-scaling.js';
import { runSeriesMemory } from './stream/series-memory.js';

const SECTIONS: { name: string; title: string; run: () => Promise<void> }[] = [
  { name: 'ingest', title: 'Received and matched points per second, one core, against a bare line reader', run: runIngestRate },
  { name: 'patterns', title: 'The rate with 100, 1,000 and 10,000 wildcard alerts', run: runPatternScaling },
  { name: 'memory', title: 'Memory per 100,000 matched series', run: runSeriesMemory },
];

const wanted = process.env.BENCH_SECTIONS?.split(',').map((name) => name.trim());
process.stdout.write(`bench:stream on ${await describeMachine()}\n`);
for (const section of SECTIONS) {
  if (wanted && !wanted.includes(section.name)) continue;
  process.stdout.write(`\n## ${section.title} (${section.name})\n`);
  await section.run();
}
