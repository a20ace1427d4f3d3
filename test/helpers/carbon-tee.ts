import { connect, createServer, type Socket } from 'node:net';
import type { Graphite, GraphitePoint } from './graphite.js';

/**
 * A relay's tee for tests: every point goes to carbon-cache (through the helper's plaintext writer) and, over one
 * connection per listener held open as a relay holds its destinations', to alertform's carbon listener (or to
 * each of several: replicas, each receiving the whole stream). `cut()` drops the
 * alertform side (a relay whose destination went away); `writeCarbonOnly` is a half-failed relay's lost share.
 */
export interface CarbonTee {
  write(points: GraphitePoint[]): Promise<void>;
  writeCarbonOnly(points: GraphitePoint[]): Promise<void>;
  /** Closes the connection to alertform; writes reach carbon only until `restore()`. */
  cut(): Promise<void>;
  restore(): void;
  /** Stops sending to one listener for good (a replica killed): a write under way to it may fail unheard. */
  drop(port: number): void;
  close(): Promise<void>;
}

export function carbonTee(graphite: Graphite, port: number | readonly number[]): CarbonTee {
  const ports = typeof port === 'number' ? [port] : [...port];
  const sockets = new Map<number, Socket>();
  const dropped = new Set<number>();
  let cutOff = false;
  const open = (to: number) =>
    new Promise<Socket>((resolve, reject) => {
      const made = connect({ host: '127.0.0.1', port: to }, () => resolve(made));
      made.once('error', reject);
      // A destination that went away (a replica killed) is not the tee's crash: the write that meets it fails.
      made.on('error', () => {
        if (sockets.get(to) === made) sockets.delete(to);
      });
    });
  const sendTo = async (to: number, body: string) => {
    try {
      let socket = sockets.get(to);
      if (!socket) sockets.set(to, (socket = await open(to)));
      await new Promise<void>((resolve, reject) => socket.write(body, (error) => (error ? reject(error) : resolve())));
    } catch (error) {
      if (!dropped.has(to)) throw error;
    }
  };
  const send = async (points: GraphitePoint[]) => {
    if (cutOff || points.length === 0) return;
    const now = Math.floor(Date.now() / 1000);
    const body = points.map((p) => `${p.path} ${p.value} ${p.time ?? now}\n`).join('');
    await Promise.all(ports.filter((to) => !dropped.has(to)).map((to) => sendTo(to, body)));
  };
  const cut = async () => {
    cutOff = true;
    const closing = [...sockets.values()];
    sockets.clear();
    await Promise.all(closing.map((socket) => new Promise<void>((resolve) => socket.end(() => resolve()))));
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
    drop: (to) => {
      dropped.add(to);
      sockets.get(to)?.destroy();
      sockets.delete(to);
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
