import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarbonPoint } from '../../src/stream/carbon-point.js';
import type { CarbonReceiver } from '../../src/server/stream/carbon-receiver.js';
import { healthWhile } from '../helpers/event-loop-lag.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';

// Every byte on the carbon port is untrusted. Huge lines, binary junk, pickles that would run code, more
// connections than the bound and slowloris senders are each refused and counted, never a crash, a stall or
// unbounded memory; /healthz answers throughout and a well-behaved sender's points still arrive.

const MAX_CONNECTIONS = 40;
const STALLED_MS = 600;
let server: TestServer;
let carbon: CarbonReceiver;
const received: CarbonPoint[] = [];
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'af-carbon-port-'));
  server = await startTestServer({
    carbon: { plaintext: '127.0.0.1:0', pickle: '127.0.0.1:0', maxConnections: MAX_CONNECTIONS, maxLineBytes: 1024, stalledMs: STALLED_MS },
    services: [
      (context) => {
        carbon = context.carbon!;
        context.stream!.subscribe({}, ['good.*'], null, 3600);
        context.stream!.onMatched((points) => received.push(...points.map(({ point }) => point)));
        return { close: async () => undefined };
      },
    ],
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const port = (protocol: 'plaintext' | 'pickle') => carbon.addresses[protocol]!.port;

function open(protocol: 'plaintext' | 'pickle'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: port(protocol) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends bytes on a new connection and ends it; resolves when the server has closed it too. */
async function send(protocol: 'plaintext' | 'pickle', ...chunks: Buffer[]): Promise<void> {
  const socket = await open(protocol);
  socket.on('error', () => undefined);
  for (const chunk of chunks) socket.write(chunk);
  socket.end();
  await new Promise((resolve) => socket.once('close', resolve));
}

/** A good point, and a wait until the server has it: the port still works. */
async function stillReceives(tag: string): Promise<void> {
  const path = `good.${tag}`;
  await send('plaintext', Buffer.from(`${path} 1 1700000000\n`));
  await until(async () => received.some((point) => point.path === path), Boolean, 10_000);
}

async function metrics(): Promise<string> {
  return (await server.request('GET', '/metrics', undefined, { key: null })).text;
}

function value(text: string, name: string): number {
  const line = text.split('\n').find((row) => row.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

// Bounds in the thread's CPU time (event-loop-lag.ts), loose because the senders run in the same process as the
// server.
const FAST_MS = 1_000;

describe('the carbon port under hostile input', () => {
  it('refuses 10 MB lines without buffering them, and reads the next line', async () => {
    const before = value(await metrics(), 'alertform_carbon_lines_invalid_total{reason="too_long"}');
    const huge = Buffer.alloc(10 * 1024 * 1024, 'a');
    const health = await healthWhile(server.url, () => send('plaintext', huge, Buffer.from(' 1 1700000000\ngood.after_long 2 1700000000\n'), huge));
    await until(async () => received.some((point) => point.path === 'good.after_long'), Boolean);
    const text = await metrics();
    // Two huge lines, each refused once (the first ended by its newline, the second by the end of the connection).
    expect(value(text, 'alertform_carbon_lines_invalid_total{reason="too_long"}') - before).toBe(2);
    expect(health.answers).toBeGreaterThan(0);
    expect(health.slowestCpuMs).toBeLessThan(FAST_MS);
  });

  it('counts binary junk by reason and keeps reading', async () => {
    const before = await metrics();
    const junk = Buffer.alloc(2 * 1024 * 1024);
    // Deterministic junk: every byte value, newlines among them, so that many short "lines" are refused.
    for (let k = 0; k < junk.length; k += 1) junk[k] = (k * 7919 + (k >> 8)) & 0xff;
    const health = await healthWhile(server.url, () => send('plaintext', junk, Buffer.from('\ngood.after_junk 3 1700000000\n')));
    await until(async () => received.some((point) => point.path === 'good.after_junk'), Boolean);
    const after = await metrics();
    const refused = ['fields', 'path', 'value', 'timestamp', 'too_long'].reduce(
      (sum, reason) => sum + value(after, `alertform_carbon_lines_invalid_total{reason="${reason}"}`) - value(before, `alertform_carbon_lines_invalid_total{reason="${reason}"}`),
      0,
    );
    expect(refused).toBeGreaterThan(1000);
    expect(health.slowestCpuMs).toBeLessThan(FAST_MS);
  });

  it('refuses pickles that would run code or build objects, runs nothing, and reads the next frame', async () => {
    const marker = join(dir, 'pwned');
    // pickle.dumps of os.system('touch <marker>'), protocols 0 and 2, and of a class instance (protocol 2).
    const system0 = Buffer.from(`cposix\nsystem\np0\n(V${'touch ' + marker}\np1\ntp2\nRp3\n.`, 'latin1');
    const command = Buffer.from(`touch ${marker}`);
    const system2 = Buffer.concat([
      Buffer.from([0x80, 0x02, 0x63]), Buffer.from('posix\nsystem\n'), Buffer.from([0x71, 0x00, 0x58]),
      (() => { const b = Buffer.alloc(4); b.writeUInt32LE(command.length); return b; })(), command,
      Buffer.from([0x71, 0x01, 0x85, 0x71, 0x02, 0x52, 0x71, 0x03, 0x2e]),
    ]);
    const instance = Buffer.concat([Buffer.from([0x80, 0x02, 0x63]), Buffer.from('collections\nOrderedDict\n'), Buffer.from([0x29, 0x81, 0x2e])]);
    const good = Buffer.concat([
      Buffer.from([0x80, 0x02, 0x5d, 0x58, 15, 0, 0, 0]), Buffer.from('good.after_evil'),
      Buffer.from([0x4a]), (() => { const b = Buffer.alloc(4); b.writeInt32LE(1_700_000_000); return b; })(),
      Buffer.from([0x4b, 9, 0x86, 0x86, 0x61, 0x2e]),
    ]);
    const framed = (payload: Buffer) => {
      const header = Buffer.alloc(4);
      header.writeUInt32BE(payload.length);
      return Buffer.concat([header, payload]);
    };
    const before = value(await metrics(), 'alertform_carbon_lines_invalid_total{reason="pickle_opcode"}');
    await send('pickle', framed(system0), framed(system2), framed(instance), framed(good));
    await until(async () => received.some((point) => point.path === 'good.after_evil' && point.value === 9), Boolean);
    expect(value(await metrics(), 'alertform_carbon_lines_invalid_total{reason="pickle_opcode"}') - before).toBe(3);
    expect(existsSync(marker)).toBe(false);
  });

  it('ends a pickle connection whose frame length is past the bound, without waiting for the bytes', async () => {
    const before = value(await metrics(), 'alertform_carbon_connections_closed_total{reason="broken_framing"}');
    const socket = await open('pickle');
    socket.on('error', () => undefined);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(0x7fffffff);
    socket.write(header);
    // The server closes it: no 2 GB are awaited or buffered.
    await new Promise((resolve) => socket.once('close', resolve));
    expect(value(await metrics(), 'alertform_carbon_connections_closed_total{reason="broken_framing"}') - before).toBe(1);
    await stillReceives('after_frame');
  });

  it(`holds ${MAX_CONNECTIONS} connections of thousands, refuses the rest, and takes new ones once they close`, async () => {
    const before = value(await metrics(), 'alertform_carbon_connections_refused_total');
    const sockets: Socket[] = [];
    const wave = (size: number) =>
      Promise.all(
        Array.from({ length: size }, () =>
          new Promise<void>((resolve) => {
            const socket = connect({ host: '127.0.0.1', port: port('plaintext') });
            socket.on('error', () => resolve());
            socket.on('close', () => resolve());
            socket.on('connect', () => {
              sockets.push(socket);
              resolve();
            });
          }),
        ),
      );
    try {
      const health = await healthWhile(server.url, async () => {
        // Three waves of 500 (within the listen backlog, so that every connection reaches the server): the server
        // keeps MAX_CONNECTIONS of them and closes, and counts, every other.
        for (let k = 0; k < 3; k += 1) {
          await wave(500);
          await until(
            async () => value(await metrics(), 'alertform_carbon_connections_refused_total') - before,
            (refused) => refused === sockets.length - MAX_CONNECTIONS,
          );
        }
      });
      expect(sockets.length).toBe(1500);
      const text = await metrics();
      expect(value(text, 'alertform_carbon_connections')).toBe(MAX_CONNECTIONS);
      expect(value(text, 'alertform_carbon_connections_refused_total') - before).toBe(1500 - MAX_CONNECTIONS);
      expect(health.slowestCpuMs).toBeLessThan(FAST_MS);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    await until(async () => carbon.connections(), (count) => count === 0);
    await stillReceives('after_flood');
  });

  it('closes slowloris connections that never finish a line, and serves a good sender meanwhile', async () => {
    const before = value(await metrics(), 'alertform_carbon_connections_closed_total{reason="stalled"}');
    const slow: Socket[] = await Promise.all(Array.from({ length: 20 }, () => open('plaintext')));
    const closed = slow.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    // One byte every 100 ms, never a newline: each is active, none finishes a line.
    const drip = setInterval(() => {
      for (const socket of slow) if (!socket.destroyed) socket.write('x');
    }, 100);
    for (const socket of slow) socket.on('error', () => undefined);
    try {
      await stillReceives('during_slowloris');
      await Promise.all(closed);
    } finally {
      clearInterval(drip);
    }
    expect(value(await metrics(), 'alertform_carbon_connections_closed_total{reason="stalled"}') - before).toBe(20);
  });
});
