import { StreamIngest } from '../../src/stream/stream-ingest.js';
import { printGoal, printTable, timesOf } from '../lib/report.js';
import { collect, ingestStream, subscribeAlerts, WARM_UP_POINTS } from './ingest-rate.js';
import { median, plaintextChunks, seriesPaths, STREAM_START, timed } from './workload.js';

const POINTS = 1_000_000;
const SERIES = 10_000;
const ROUNDS = 3;
const COUNTS = [100, 1_000, 10_000];

/**
 * The same stream with 100, 1,000 and 10,000 wildcard alerts: the steady rate (decisions cached), and the cost of
 * deciding a path never seen before (cache empty), which is what the trie keeps from growing with the alerts.
 */
export async function runPatternScaling(): Promise<void> {
  const { chunks } = plaintextChunks(POINTS, SERIES);
  // Untimed, after the heap is collected: the same series in the hour before (as in the ingest section).
  const warmUp = plaintextChunks(WARM_UP_POINTS, SERIES, 65_536, STREAM_START - 3600).chunks;
  // Kept for the whole run, as in the ingest section: a freed receiver makes V8 compile the ingest again.
  const receivers: StreamIngest<object>[] = [];
  const fresh = seriesPaths(SERIES * 10).slice(SERIES);
  const steady = new Map<number, number[]>();
  const cold = new Map<number, number[]>();
  const matchedBy = new Map<number, number>();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const count of COUNTS) {
      const ingest = new StreamIngest<object>({ cacheSize: 1_000_000, maxSeries: 1_000_000, maxPointsPerSeries: 2880 });
      subscribeAlerts(ingest, count);
      receivers.push(ingest);
      collect();
      ingestStream(warmUp, ingest, 'plaintext');
      const run = timed(() => ingestStream(chunks, ingest, 'plaintext'));
      if (run.result[0] !== POINTS) throw new Error(`${run.result[0]} of ${POINTS} counted`);
      matchedBy.set(count, run.result[1]);
      steady.set(count, [...(steady.get(count) ?? []), run.cpuMs]);
      const decide = timed(() => {
        let found = 0;
        for (const path of fresh) found += ingest.matcher.match(path).length;
        return found;
      });
      cold.set(count, [...(cold.get(count) ?? []), decide.cpuMs]);
    }
  }
  const rate = (ms: number) => Math.round(POINTS / (ms / 1000));
  const base = median(steady.get(100)!);
  const baseCold = median(cold.get(100)!);
  printTable(
    `${POINTS.toLocaleString('en')} points over ${SERIES.toLocaleString('en')} series; new-path decisions: ${fresh.length.toLocaleString('en')} paths never seen; median CPU of ${ROUNDS} rounds`,
    ['wildcard alerts', 'points matched', 'points per second (one core)', 'slower than 100', 'deciding a new path', 'slower than 100'],
    COUNTS.map((count) => [
      count.toLocaleString('en'),
      matchedBy.get(count)!.toLocaleString('en'),
      `${rate(median(steady.get(count)!)).toLocaleString('en')}/s`,
      timesOf(median(steady.get(count)!), base),
      `${((median(cold.get(count)!) * 1000) / fresh.length).toFixed(2)} µs`,
      timesOf(median(cold.get(count)!), baseCold),
    ]),
  );
  const worst = median(steady.get(10_000)!) / base;
  printGoal('at most 2x slower from 100 to 10,000 wildcard alerts', `${worst.toFixed(2)}x`, worst <= 2);
}
