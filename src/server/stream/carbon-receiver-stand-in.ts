import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { Logger } from 'pino';
import type { CarbonPoint } from '../../stream/carbon-point.js';
import { PlaintextParser } from '../../stream/plaintext-parser.js';

/**
 * STAND-IN for the ingest side's carbon receiver (server/stream/carbon-receiver.ts, startCarbonReceiver): the
 * plaintext TCP listener only, with the same answer shape the stream evaluator reads (connections, lastPointAt,
 * lastConnectedAt, close). Replaced by the real receiver when the two are merged.
 */
export interface StandInReceiver {
  addresses: { plaintext?: AddressInfo };
  connections(): number;
  lastPointAt(): number | null;
  lastConnectedAt(): number | null;
  close(): Promise<void>;
}

/** Listens on HOST:PORT (a bare port binds loopback) for `path value timestamp` lines; at most `maxConnections`. */
export async function startStandInReceiver(
  options: { plaintext: string; maxLineBytes: number; maxConnections: number },
  onPoints: (points: CarbonPoint[]) => void,
  logger: Logger,
): Promise<StandInReceiver> {
  const { host, port } = parseListen(options.plaintext);
  const open = new Set<Socket>();
  let lastPoint: number | null = null;
  let lastConnected: number | null = null;
  const server = createServer((socket) => {
    if (open.size >= options.maxConnections) {
      socket.destroy();
      return;
    }
    open.add(socket);
    lastConnected = Date.now();
    const parser = new PlaintextParser({ maxLineBytes: options.maxLineBytes });
    const deliver = (points: CarbonPoint[]) => {
      if (points.length === 0) return;
      lastPoint = Date.now();
      try {
        onPoints(points);
      } catch (error) {
        logger.error({ error: (error as Error).message }, 'the stream consumer failed on a batch of points');
      }
    };
    socket.on('data', (chunk: Buffer) => {
      const points: CarbonPoint[] = [];
      parser.push(chunk, points);
      deliver(points);
    });
    socket.on('end', () => {
      const points: CarbonPoint[] = [];
      parser.end(points);
      deliver(points);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      open.delete(socket);
      lastConnected = Date.now();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    addresses: { plaintext: server.address() as AddressInfo },
    connections: () => open.size,
    lastPointAt: () => lastPoint,
    lastConnectedAt: () => (open.size > 0 ? Date.now() : lastConnected),
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function parseListen(listen: string): { host: string; port: number } {
  const at = listen.lastIndexOf(':');
  if (at === -1) return { host: '127.0.0.1', port: Number(listen) };
  return { host: listen.slice(0, at).replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(listen.slice(at + 1)) };
}
