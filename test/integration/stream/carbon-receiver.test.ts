import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { CarbonPoint } from '../../../src/stream/carbon-point.js';
import { startCarbonReceiver, type CarbonReceiver } from '../../../src/server/stream/carbon-receiver.js';
import { kernelBufferBytes } from '../../helpers/kernel-buffers.js';
import { until } from '../../helpers/until.js';

// The receiver on its own: UDP datagrams, and a slow consumer pushing back through TCP instead of a queue growing.

let receiver: CarbonReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const logger = pino({ level: 'silent' });

describe('the carbon receiver', () => {
  it('reads plaintext datagrams over UDP, several lines each, and counts the bad ones', async () => {
    const points: CarbonPoint[] = [];
    receiver = await startCarbonReceiver({ udp: '127.0.0.1:0', maxLineBytes: 1024, maxConnections: 4 }, (batch) => void points.push(...batch), logger);
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) =>
      socket.send('udp.a 1 1700000000\nudp.b 2 1700000010\nnot a point at all\nudp.c 3 1700000020', receiver!.addresses.udp!.port, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
    );
    await until(async () => points.length, (count) => count === 3);
    socket.close();
    expect(points.map((point) => point.path)).toEqual(['udp.a', 'udp.b', 'udp.c']);
    expect(receiver.counters.received.udp).toBe(3);
    expect(receiver.counters.invalid.get('fields')).toBe(1);
  });

  it('pauses a connection while the consumer is busy: what the sender writes meanwhile waits in TCP, not here', async () => {
    const batches: number[] = [];
    let release: () => void = () => undefined;
    let busy = true;
    const held = new Promise<void>((resolve) => (release = resolve));
    receiver = await startCarbonReceiver(
      { plaintext: '127.0.0.1:0', maxLineBytes: 1024, maxConnections: 4 },
      (batch) => {
        batches.push(batch.length);
        // The first batch takes "long": until released.
        return busy ? held : undefined;
      },
      logger,
    );
    // More than the kernel can hold for the connection, so that what the receiver does not read must wait in the sender.
    // Lines of one length (zero-padded), 4 MB past the kernel's bound.
    const line = (k: number) => `slow.consumer.series${String(k % 100).padStart(2, '0')} ${String(k).padStart(7, '0')} ${1_700_000_000 + k}\n`;
    const total = Math.ceil((kernelBufferBytes() + 4 * 1024 * 1024) / line(0).length);
    const lines = Array.from({ length: total }, (_, k) => line(k)).join('');
    const socket = connect({ host: '127.0.0.1', port: receiver.addresses.plaintext!.port });
    // A failed assertion below closes the receiver under the socket: its reset then belongs to this test, not the run.
    socket.on('error', () => undefined);
    let flushed = false;
    socket.write(lines, () => (flushed = true));
    await until(async () => batches.length, (count) => count >= 1);
    // While the first batch is held, no other reaches the consumer, and the sender's bytes cannot all leave it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(batches).toHaveLength(1);
    expect(receiver.counters.received.plaintext).toBe(batches[0]);
    expect(flushed).toBe(false);
    busy = false;
    release();
    socket.end();
    await until(async () => receiver!.counters.received.plaintext, (count) => count === total, 30_000);
    expect(batches.reduce((sum, count) => sum + count, 0)).toBe(total);
  });
});
