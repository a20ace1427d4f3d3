import type { CarbonPoint } from '../../src/stream/carbon-point.js';
import { PickleFrameReader } from '../../src/stream/pickle-parser.js';
import { PlaintextParser } from '../../src/stream/plaintext-parser.js';
import { PointBatch } from '../../src/stream/point-batch.js';
import { StreamIngest } from '../../src/stream/stream-ingest.js';
import { printGoal, printTable } from '../lib/report.js';
import { median, pickleChunks, plaintextChunks, readLinesBare, readLinesReadline, STREAM_START, timed } from './workload.js';

const POINTS = 1_000_000;
const SERIES = 10_000;
const ROUNDS = 9;

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

/** A full garbage collection (the bench runs with --expose-gc), or nothing without it. */
export function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Lines of untimed work each contender does after the heap is collected and before it is timed. */
export const WARM_UP_POINTS = 200_000;

/** A receiver as the server makes it, with 100 wildcard alerts. */
function receiverWith(): StreamIngest<object> {
  const ingest = new StreamIngest<object>({ cacheSize: 1_000_000, maxSeries: 1_000_000, maxPointsPerSeries: 2880 });
  subscribeAlerts(ingest, 100);
  return ingest;
}

export async function runIngestRate(): Promise<void> {
  const { chunks } = plaintextChunks(POINTS, SERIES);
  const pickles = pickleChunks(POINTS, SERIES);
  // The warm-ups: the same series in the hour before the timed stream (a receiver that has seen each path, its
  // steady state), and for the fresh receiver other series, so that the timed stream's paths are all new to it.
  const warmText = plaintextChunks(WARM_UP_POINTS, SERIES, 65_536, STREAM_START - 3600).chunks;
  const warmPickles = pickleChunks(WARM_UP_POINTS, SERIES, STREAM_START - 3600);
  const warmOther = plaintextChunks(WARM_UP_POINTS, SERIES, 65_536, STREAM_START - 3600, 'warmup').chunks;
  const rows: (string | number)[][] = [];
  const figures = { bare: [] as number[], readline: [] as number[], plaintext: [] as number[], plaintextCold: [] as number[], pickle: [] as number[] };
  let counted = { received: 0, matched: 0 };
  // Every receiver of the run is kept: see below.
  const receivers: StreamIngest<object>[] = [];
  // Interleaved rounds: the machine's load moves; each round measures all of them in the same minute.
  for (let round = 0; round < ROUNDS; round += 1) {
    // Each contender starts on a collected heap (process.cpuUsage counts the collector's threads too, and the
    // garbage of the one before, a pickle run's million objects, must not be charged to the next), then does
    // untimed work before it is timed. The receivers are kept for the whole run: when a collection freed the
    // previous round's receiver, V8 threw away the compiled code that referred to it ("embedded weak objects
    // cleared"), and a contender timed right after paid for compiling itself again on the compiler's threads, which
    // a receiver running for days never does (measured: 1.5-2x the steady state's CPU).
    collect();
    readLinesBare(warmText);
    const bare = timed(() => readLinesBare(chunks));
    if (bare.result !== POINTS) throw new Error(`the bare reader counted ${bare.result} lines`);
    figures.bare.push(bare.cpuMs);
    collect();
    await readLinesReadline(warmText);
    const readline = await readLinesReadline(chunks);
    if (readline.lines !== POINTS) throw new Error(`readline counted ${readline.lines} lines`);
    figures.readline.push(readline.cpuMs);
    for (const kind of ['plaintext', 'plaintextCold', 'pickle'] as const) {
      const protocol = kind === 'pickle' ? 'pickle' : 'plaintext';
      const ingest = receiverWith();
      receivers.push(ingest);
      collect();
      ingestStream(kind === 'plaintextCold' ? warmOther : protocol === 'pickle' ? warmPickles : warmText, ingest, protocol);
      const before = { received: ingest.received, matched: ingest.matched };
      const run = timed(() => ingestStream(protocol === 'pickle' ? pickles : chunks, ingest, protocol));
      const [received, matched] = run.result;
      if (received !== POINTS) throw new Error(`${kind}: ${received} of ${POINTS} points counted`);
      // The ingest's own counts (alertform_carbon_points_received_total and _matched_total read them).
      if (ingest.received - before.received !== POINTS || ingest.matched - before.matched !== matched) throw new Error(`${kind}: the ingest counted ${ingest.received - before.received} received, ${ingest.matched - before.matched} matched`);
      if (kind === 'plaintext') counted = { received, matched };
      figures[kind].push(run.cpuMs);
    }
  }
  const rate = (ms: number) => Math.round(POINTS / (ms / 1000));
  // A contender's share of the baseline is the median of its rounds' shares, each against the bare reader of the
  // same round (measured the same second): the machine's speed drifts by tens of percent over a run, and a ratio
  // of two medians taken at different moments would carry that drift.
  const shareOf = (kind: keyof typeof figures, base: keyof typeof figures = 'bare') => median(figures[kind].map((ms, round) => figures[base][round]! / ms));
  const row = (what: string, kind: keyof typeof figures) => {
    const ms = median(figures[kind]);
    return [what, `${rate(ms).toLocaleString('en')}/s`, `${((ms * 1000) / POINTS).toFixed(3)} µs`, `${Math.round(shareOf(kind) * 100)}%`];
  };
  rows.push(row('bare line reader (baseline)', 'bare'));
  rows.push(row("node:readline, a 'line' event each (for comparison)", 'readline'));
  rows.push(row('plaintext: parse + match + keep (paths seen before)', 'plaintext'));
  rows.push(row('plaintext, a fresh receiver (its first 10,000 lines new paths)', 'plaintextCold'));
  rows.push(row('pickle: decode + match + keep (paths seen before)', 'pickle'));
  printTable(
    `${POINTS.toLocaleString('en')} points over ${SERIES.toLocaleString('en')} series, 100 wildcard alerts matching ${counted.matched.toLocaleString('en')} of them; median CPU of ${ROUNDS} rounds, shares the median of each round's against that round's baseline`,
    ['what', 'points per second (one core)', 'CPU per point', 'of the baseline'],
    rows,
  );
  const share = shareOf('plaintext');
  const shares = figures.plaintext.map((ms, round) => Math.round((figures.bare[round]! / ms) * 100));
  printGoal('plaintext at least half the bare line reader, all 1,000,000 counted', `${Math.round(share * 100)}% (rounds ${Math.min(...shares)}-${Math.max(...shares)}%), ${counted.received.toLocaleString('en')} counted`, share >= 0.5 && counted.received === POINTS);
  process.stdout.write(`against node:readline: plaintext ${Math.round(shareOf('plaintext', 'readline') * 100)}% of its rate\n`);
  process.stdout.write(`Moira's filter, as reported: 0.9 µs a plain point; here ${((median(figures.plaintext) * 1000) / POINTS).toFixed(2)} µs a point, matched and kept\n`);
}
