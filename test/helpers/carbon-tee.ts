import { connect, createServer, type Socket } from 'node:net';
import type { Graphite, GraphitePoint } from './graphite.js';

/**
 * A relay's tee for tests: every point goes to carbon-cache (through the helper's plaintext writer) and, over one
 * connection held open as a relay holds its destinations', to alertform's carbon listener. `cut()` drops the
 * alertform side (a relay whose destination went away); `writeCarbonOnly` is a half-failed relay's lost share.
 */
export interface CarbonTee {
  write(points: GraphitePoint[]): Promise<void>;
  writeCarbonOnly(points: GraphitePoint[]): Promise<void>;
  /** Closes the connection to alertform; writes reach carbon only until `restore()`. */
  cut(): Promise<void>;
  restore(): void;
  close(): Promise<void>;
}

export function carbonTee(graphite: Graphite, port: number): CarbonTee {
  let socket: Socket | null = null;
  let cutOff = false;
  const open = () =>
    new Promise<Socket>((resolve, reject) => {
      const made = connect({ host: '127.0.0.1', port }, () => resolve(made));
      made.once('error', reject);
    });
  const send = async (points: GraphitePoint[]) => {
    if (cutOff || points.length === 0) return;
    socket ??= await open();
    const now = Math.floor(Date.now() / 1000);
    const body = points.map((p) => `${p.path} ${p.value} ${p.time ?? now}\n`).join('');
    await new Promise<void>((resolve, reject) => socket!.write(body, (error) => (error ? reject(error) : resolve())));
  };
  const cut = async () => {
    cutOff = true;
    const closing = socket;
    socket = null;
    if (closing) await new Promise<void>((resolve) => closing.end(() => resolve()));
  };
  return {
    write: async (points) => {
      await Promise.all([graphite.writePoints(points), send(points)]);
    },
    writeCarbonOnly: (points) => graphite.writePoints(points),
    cut,
    restore: () => {
      cutOff = false;
    },
    close: cut,
  };
}

/** A free loopback port (held, then let go: the server binds it right after). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as import('node:net').AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
