/** The streams the ingest sections replay: plaintext lines cut into socket-sized chunks, and carbon-relay's pickles. */

/** The first timestamp of the streams (an earlier `start` makes a warm-up stream the timed one follows). */
export const STREAM_START = 1_700_000_000;

/** Lines `ROOT.hostH.cpu.METRIC value timestamp` over `series` distinct paths, `points` lines in all. */
export function plaintextChunks(points: number, series: number, chunkBytes = 65_536, start = STREAM_START, root = 'servers'): { chunks: Buffer[]; paths: string[] } {
  const paths = seriesPaths(series, root);
  const lines: string[] = [];
  for (let k = 0; k < points; k += 1) lines.push(`${paths[k % series]} ${((k * 7) % 1000) / 10} ${start + Math.floor(k / series) * 10}\n`);
  const text = Buffer.from(lines.join(''));
  // Cut at fixed sizes, not at newlines: lines span chunks as they do on a socket.
  const chunks: Buffer[] = [];
  for (let at = 0; at < text.length; at += chunkBytes) chunks.push(text.subarray(at, at + chunkBytes));
  return { chunks, paths };
}

/** `count` series paths of the shapes a fleet sends: `servers.host<N>.<group>.<metric>` (another root for others). */
export function seriesPaths(count: number, root = 'servers'): string[] {
  const groups = ['cpu', 'disk', 'memory', 'network'];
  const metrics = ['user', 'system', 'idle', 'used', 'free'];
  return Array.from({ length: count }, (_, k) => `${root}.host${Math.floor(k / 20)}.${groups[k % 4]}.${metrics[Math.floor(k / 4) % 5]}`);
}

/** Frames as carbon-relay writes them: pickle protocol 2 of a list of up to 500 (path, (timestamp, value)). */
export function pickleChunks(points: number, series: number, start = STREAM_START, root = 'servers'): Buffer[] {
  const paths = seriesPaths(series, root);
  const frames: Buffer[] = [];
  for (let first = 0; first < points; first += 500) {
    const parts: Buffer[] = [Buffer.from([0x80, 0x02, 0x5d, 0x28])];
    for (let k = first; k < Math.min(points, first + 500); k += 1) {
      const path = Buffer.from(paths[k % series]!);
      const head = Buffer.alloc(5);
      head[0] = 0x58;
      head.writeUInt32LE(path.length, 1);
      const numbers = Buffer.alloc(18);
      numbers[0] = 0x47;
      numbers.writeDoubleBE(start + Math.floor(k / series) * 10, 1);
      numbers[9] = 0x47;
      numbers.writeDoubleBE(((k * 7) % 1000) / 10, 10);
      parts.push(head, path, numbers, Buffer.from([0x86, 0x86]));
    }
    parts.push(Buffer.from([0x65, 0x2e]));
    const payload = Buffer.concat(parts);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(payload.length);
    frames.push(header, payload);
  }
  const stream = Buffer.concat(frames);
  const chunks: Buffer[] = [];
  for (let at = 0; at < stream.length; at += 65_536) chunks.push(stream.subarray(at, at + 65_536));
  return chunks;
}

/** The CPU time of `work` on this thread, ms (user + system), and its wall time. */
export function timed<T>(work: () => T): { result: T; cpuMs: number; wallMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = work();
  const used = process.cpuUsage(cpu);
  return { result, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started };
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The bare line reader, the baseline: decode each chunk, find each newline, take each line as a string. */
export function readLinesBare(chunks: Buffer[]): number {
  let carry = '';
  let lines = 0;
  let length = 0;
  for (const chunk of chunks) {
    const text = carry + chunk.toString('utf8');
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      length += text.slice(start, newline).length;
      lines += 1;
      start = newline + 1;
    }
    carry = text.slice(start);
  }
  // The lengths are used, so the slices cannot be optimised away.
  return length > 0 ? lines : -1;
}

/** Node's own line reader (readline over the same chunks, a 'line' event each): the usual way to read lines. */
export async function readLinesReadline(chunks: Buffer[]): Promise<{ lines: number; cpuMs: number }> {
  const { createInterface } = await import('node:readline');
  const { Readable } = await import('node:stream');
  const cpu = process.cpuUsage();
  let lines = 0;
  const reader = createInterface({ input: Readable.from(chunks, { objectMode: false }), crlfDelay: Infinity });
  reader.on('line', (line: string) => {
    if (line.length > 0) lines += 1;
  });
  await new Promise((resolve) => reader.once('close', resolve));
  const used = process.cpuUsage(cpu);
  return { lines, cpuMs: (used.user + used.system) / 1000 };
}
