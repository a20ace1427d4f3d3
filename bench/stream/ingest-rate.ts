import type { CarbonPoint } from '../../src/stream/carbon-point.js';
import { PickleFrameReader } from '../../src/stream/pickle-parser.js';
import { PlaintextParser } from '../../src/stream/plaintext-parser.js';
import { PointBatch } from '../../src/stream/point-batch.js';
import { StreamIngest } from '../../src/stream/stream-ingest.js';
import { percentOf, printGoal, printTable } from '../lib/report.js';
import { median, pickleChunks, plaintextChunks, readLinesBare, readLinesReadline, timed } from './workload.js';

const POINTS = 1_000_000;
const SERIES = 10_000;
const ROUNDS = 5;

/** The receiver's work on a stream: parse every chunk, match and keep every point; returns [received, matched]. */
export function ingestStream(chunks: Buffer[], ingest: StreamIngest<object>, protocol: 'plaintext' | 'pickle'): [number, number] {
  let received = 0;
  let matched = 0;
  if (protocol === 'plaintext') {
    // As the receiver does: columns into a batch reused from chunk to chunk, paths as ids of the ingest's table.
    const parser = new PlaintextParser({ maxLineBytes: 8192 });
    const batch = new PointBatch(ingest.table);
    for (const chunk of chunks) {
      batch.clear();
      parser.pushBatch(chunk, batch);
      received += batch.length;
      matched += ingest.acceptBatch(batch);
    }
    return [received, matched];
  }
  const reader = new PickleFrameReader({ maxFrameBytes: 1 << 20 });
  for (const chunk of chunks) {
    const points: CarbonPoint[] = [];
    reader.push(chunk, points);
    received += points.length;
    matched += ingest.accept(points);
  }
  return [received, matched];
}

/**
 * `count` wildcard alerts of four shapes (`servers.hostN.*.*`, `servers.hostN.{cpu,disk}.*`,
 * `servers.hostN.memory.[fu]*`, `servers.hostN.network.u?er`). The first 100 read hosts 0-99 of the stream; the
 * others read hosts the stream does not carry, so that every count matches the same points and only the number of
 * patterns changes.
 */
export function subscribeAlerts(ingest: StreamIngest<object>, count: number): void {
  for (let k = 0; k < count; k += 1) {
    const host = k < 100 ? k : 100_000 + k;
    const shape = k % 4;
    const pattern =
      shape === 0
        ? `servers.host${host}.*.*`
        : shape === 1
          ? `servers.host${host}.{cpu,disk}.*`
          : shape === 2
            ? `servers.host${host}.memory.[fu]*`
            : `servers.host${host}.network.u?er`;
    ingest.subscribe({ alert: k }, [pattern], null, 600);
  }
}

export async function runIngestRate(): Promise<void> {
  const { chunks } = plaintextChunks(POINTS, SERIES);
  const pickles = pickleChunks(POINTS, SERIES);
  const rows: (string | number)[][] = [];
  const figures = { bare: [] as number[], readline: [] as number[], plaintext: [] as number[], pickle: [] as number[] };
  let counted = { received: 0, matched: 0 };
  // Interleaved rounds: the machine's load moves; each round measures all three in the same minute.
  for (let round = 0; round < ROUNDS; round += 1) {
    const bare = timed(() => readLinesBare(chunks));
    if (bare.result !== POINTS) throw new Error(`the bare reader counted ${bare.result} lines`);
    figures.bare.push(bare.cpuMs);
    const readline = await readLinesReadline(chunks);
    if (readline.lines !== POINTS) throw new Error(`readline counted ${readline.lines} lines`);
    figures.readline.push(readline.cpuMs);
    for (const protocol of ['plaintext', 'pickle'] as const) {
      const ingest = new StreamIngest<object>({ cacheSize: 1_000_000, maxSeries: 1_000_000, maxPointsPerSeries: 2880 });
      subscribeAlerts(ingest, 100);
      const run = timed(() => ingestStream(protocol === 'pickle' ? pickles : chunks, ingest, protocol));
      const [received, matched] = run.result;
      if (received !== POINTS) throw new Error(`${protocol}: ${received} of ${POINTS} points counted`);
      counted = { received, matched };
      figures[protocol].push(run.cpuMs);
    }
  }
  const rate = (ms: number) => Math.round(POINTS / (ms / 1000));
  const bare = median(figures.bare);
  const plaintext = median(figures.plaintext);
  const pickle = median(figures.pickle);
  rows.push(['bare line reader (baseline)', `${rate(bare).toLocaleString('en')}/s`, `${((bare * 1000) / POINTS).toFixed(3)} µs`, '100%']);
  const readline = median(figures.readline);
  rows.push(["node:readline, a 'line' event each (for comparison)", `${rate(readline).toLocaleString('en')}/s`, `${((readline * 1000) / POINTS).toFixed(3)} µs`, percentOf(rate(readline), rate(bare))]);
  rows.push(['plaintext: parse + match + keep', `${rate(plaintext).toLocaleString('en')}/s`, `${((plaintext * 1000) / POINTS).toFixed(3)} µs`, percentOf(rate(plaintext), rate(bare))]);
  rows.push(['pickle: decode + match + keep', `${rate(pickle).toLocaleString('en')}/s`, `${((pickle * 1000) / POINTS).toFixed(3)} µs`, percentOf(rate(pickle), rate(bare))]);
  printTable(
    `${POINTS.toLocaleString('en')} points over ${SERIES.toLocaleString('en')} series, 100 wildcard alerts matching ${counted.matched.toLocaleString('en')} of them; median CPU of ${ROUNDS} rounds`,
    ['what', 'points per second (one core)', 'CPU per point', 'of the baseline'],
    rows,
  );
  printGoal('plaintext at least half the bare line reader, all 1,000,000 counted', `${percentOf(rate(plaintext), rate(bare))}, ${counted.received.toLocaleString('en')} counted`, rate(plaintext) * 2 >= rate(bare) && counted.received === POINTS);
  process.stdout.write(`against node:readline: plaintext ${percentOf(rate(plaintext), rate(readline))} of its rate\n`);
  process.stdout.write(`Moira's filter, as reported: 0.9 µs a plain point; here ${((plaintext * 1000) / POINTS).toFixed(2)} µs a point, matched and kept\n`);
}
