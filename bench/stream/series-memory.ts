import { StreamIngest } from '../../src/stream/stream-ingest.js';
import { printTable } from '../lib/report.js';
import { seriesPaths } from './workload.js';

const SERIES = 100_000;
/** Ten minutes at 10 s (the settle-delay tests' history), and an hour. */
const HISTORIES = [60, 360];

const heap = () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc (npm run bench:stream does)');
  gc();
  gc();
  return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
};

/** The heap (and typed-array) bytes 100,000 matched series take in the rings, with their paths and the matcher's decisions. */
export async function runSeriesMemory(): Promise<void> {
  const paths = seriesPaths(SERIES);
  const rows: (string | number)[][] = [];
  for (const points of HISTORIES) {
    const before = heap();
    const ingest = new StreamIngest<object>({ cacheSize: 1_000_000, maxSeries: 1_000_000, maxPointsPerSeries: 2880 });
    ingest.subscribe({ alert: 'everything' }, ['servers.*.*.*'], null, points * 10);
    const start = 1_700_000_000;
    for (let k = 0; k < points; k += 1) {
      ingest.accept(paths.map((path) => ({ path, value: k, timestamp: start + k * 10 })));
    }
    const after = heap();
    const stats = ingest.rings.stats();
    if (stats.series !== SERIES || stats.points !== SERIES * points) throw new Error(`held ${stats.series} series, ${stats.points} points`);
    rows.push([
      `${points} points a series (${(points * 10) / 60} min at 10 s)`,
      `${((after - before) / 1e6).toFixed(1)} MB`,
      `${((after - before) / SERIES).toFixed(0)} B`,
      `${(stats.bytes / 1e6).toFixed(1)} MB`,
      `${((SERIES * points * 12) / 1e6).toFixed(1)} MB`,
    ]);
    // Kept alive until measured.
    void ingest.matched;
  }
  printTable(
    `${SERIES.toLocaleString('en')} matched series (one glob alert reading them all), after a full GC`,
    ['history', 'heap + arrays', 'per series', 'alertform_stream_ring_bytes says', 'the points alone (12 B each)'],
    rows,
  );
}
