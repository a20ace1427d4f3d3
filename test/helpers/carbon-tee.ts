import { connect, type Socket } from 'node:net';
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

/** A running feed of feedSlots: the last slot written (unix seconds), and the way to stop it. */
export interface SlotFeed {
  readonly lastSlot: number;
  stop(): void;
}

/**
 * Collectors through the tee: ten minutes of history (each series 1, every 10 s), then each series' value in
 * `values` (read at that moment, so a test changes a value by setting it) once per 10 s slot, as the slot begins.
 * `onSlot` hears each slot with its write, which resolves once carbon and every receiver have the points.
 */
export async function feedSlots(tee: CarbonTee, values: ReadonlyMap<string, number>, onSlot?: (slot: number, write: Promise<void>) => void): Promise<SlotFeed> {
  const start = Math.floor(Date.now() / 10_000) * 10;
  const history: GraphitePoint[] = [];
  for (let time = start - 600; time < start; time += 10) for (const path of values.keys()) history.push({ path, value: 1, time });
  await tee.write(history);
  let lastSlot = start - 10;
  const timer = setInterval(() => {
    const slot = Math.floor(Date.now() / 10_000) * 10;
    if (slot <= lastSlot) return;
    lastSlot = slot;
    const write = tee.write([...values].map(([path, value]) => ({ path, value, time: slot })));
    // A write that meets a receiver killed on purpose fails; the test hears it through onSlot if it cares.
    write.catch(() => undefined);
    onSlot?.(slot, write);
  }, 200);
  return {
    get lastSlot() {
      return lastSlot;
    },
    stop: () => clearInterval(timer),
  };
}

