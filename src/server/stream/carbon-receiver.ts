import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer, isIPv6, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Logger } from 'pino';
import type { CarbonPoint, InvalidReason } from '../../stream/carbon-point.js';
import { parseListenAddress } from '../../stream/listen-address.js';
import { DEFAULT_MAX_FRAME_BYTES, PickleFrameReader } from '../../stream/pickle-parser.js';
import type { PathTable } from '../../stream/path-table.js';
import { PlaintextParser } from '../../stream/plaintext-parser.js';
import { PointBatch } from '../../stream/point-batch.js';
import { CarbonCounters, type CarbonProtocol, type CloseReason } from './carbon-counters.js';

/**
 * The carbon ports: Graphite's plaintext protocol over TCP (and optionally UDP), and the pickle protocol carbon-relay
 * sends its destinations. Every byte is untrusted (docs/security.md): lines and frames are bounded, a malformed one
 * is counted and logged (at most a few log lines a minute) and the connection goes on; connections are bounded in
 * number, and one that leaves a line unfinished for `stalledMs` (slowloris) or sends nothing for `idleMs` is closed.
 *
 * Backpressure: points go to `onPoints` one chunk at a time, as they are parsed. When it answers with a promise
 * the socket is paused until it settles, so a slow consumer slows the sender through TCP instead of growing a
 * queue here: per connection at most one socket chunk and one unfinished line or frame are held.
 */
export interface CarbonReceiverOptions {
  /** HOST:PORT of the plaintext TCP listener (`--carbon-listen`); a bare port binds loopback. */
  plaintext?: string;
  /** HOST:PORT of the pickle listener (`--carbon-pickle-listen`). */
  pickle?: string;
  /** HOST:PORT of the plaintext UDP listener (`--carbon-udp-listen`). */
  udp?: string;
  maxLineBytes: number;
  /** Open TCP connections over both ports; more are closed at once (counted). */
  maxConnections: number;
  /** Largest pickle frame; default 1 MiB, carbon's own. */
  maxFrameBytes?: number;
  /** Close a connection that sent nothing for this long; default 5 minutes (a relay reconnects at once). */
  idleMs?: number;
  /** Close a connection whose line or frame stays unfinished this long; default 30 s. */
  stalledMs?: number;
}

/**
 * Where the points go: a function called once per parsed chunk with point objects (a promise pauses the connection
 * until it settles), or a column sink (the server's StreamIngest): plaintext chunks reach it as a batch of path ids
 * of its table, read at once and reused for the next chunk (no object per point); pickle points as objects.
 */
export type PointsSink = ((points: CarbonPoint[]) => void | Promise<void>) | ColumnSink;

/** A consumer that takes points in columns (see PointBatch); synchronous. */
export interface ColumnSink {
  readonly table: PathTable;
  acceptBatch(batch: PointBatch): unknown;
  accept(points: readonly CarbonPoint[]): unknown;
}

export interface CarbonReceiver {
  /** The bound addresses (a port 0 given is the port picked). */
  addresses: { plaintext?: AddressInfo; pickle?: AddressInfo; udp?: AddressInfo };
  counters: CarbonCounters;
  /** Open TCP connections. */
  connections(): number;
  /** When the last point was received (epoch ms), or null. */
  lastPointAt(): number | null;
  /** When the last TCP connection was open (now while one is), epoch ms, or null when none ever was. */
  lastConnectedAt(): number | null;
  close(): Promise<void>;
}

export { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_LINE_BYTES } from '../../stream/defaults.js';

interface Connection {
  socket: Socket;
  /** When the unfinished line or frame now held began to wait, epoch ms; null when none is held. */
  waitingSince: number | null;
}

/** Starts the configured listeners; rejects (after closing what did start) when one cannot bind. */
export async function startCarbonReceiver(
  options: CarbonReceiverOptions,
  onPoints: PointsSink,
  logger: Logger,
  counters: CarbonCounters = new CarbonCounters(),
): Promise<CarbonReceiver> {
  const log = logger.child({ component: 'carbon-receiver' });
  const idleMs = options.idleMs ?? 300_000;
  const stalledMs = options.stalledMs ?? 30_000;
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const open = new Set<Connection>();
  let lastPoint: number | null = null;
  let lastConnected: number | null = null;
  const refusals = new RefusalLog(log);
  const servers: Server[] = [];
  let udp: UdpSocket | undefined;
  const addresses: CarbonReceiver['addresses'] = {};

  const refuse = (protocol: CarbonProtocol, remote: string) => (reason: InvalidReason, sample: () => string) => {
    counters.countInvalid(reason);
    refusals.note(protocol, remote, reason, sample);
  };

  const columns = typeof onPoints === 'function' ? null : onPoints;
  const deliverBatch = (protocol: CarbonProtocol, batch: PointBatch) => {
    if (batch.length === 0) return;
    counters.received[protocol] += batch.length;
    lastPoint = Date.now();
    try {
      columns!.acceptBatch(batch);
    } catch (error) {
      log.error({ err: error }, 'the stream consumer failed on a batch of points');
    }
  };

  const deliver = (protocol: CarbonProtocol, points: CarbonPoint[], socket?: Socket) => {
    if (points.length === 0) return;
    counters.received[protocol] += points.length;
    lastPoint = Date.now();
    let answer: unknown;
    try {
      answer = typeof onPoints === 'function' ? onPoints(points) : onPoints.accept(points);
    } catch (error) {
      log.error({ err: error }, 'the stream consumer failed on a batch of points');
      return;
    }
    if (answer instanceof Promise) {
      socket?.pause();
      answer.then(
        () => socket?.resume(),
        (error: unknown) => {
          log.error({ err: error }, 'the stream consumer failed on a batch of points');
          socket?.resume();
        },
      );
    }
  };

  const end = (connection: Connection, reason: CloseReason) => {
    counters.closed[reason] += 1;
    connection.socket.destroy();
  };

  const accept = (protocol: 'plaintext' | 'pickle') => (socket: Socket) => {
    if (open.size >= options.maxConnections) {
      counters.refusedConnections += 1;
      refusals.noteConnectionRefused(options.maxConnections);
      socket.destroy();
      return;
    }
    const remote = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    const connection: Connection = { socket, waitingSince: null };
    open.add(connection);
    lastConnected = Date.now();
    const onInvalid = refuse(protocol, remote);
    const reader =
      protocol === 'pickle' ? new PickleFrameReader({ maxFrameBytes, onInvalid }) : new PlaintextParser({ maxLineBytes: options.maxLineBytes, onInvalid });
    const progress = () => (reader instanceof PickleFrameReader ? reader.frames : reader.lines);
    // Plaintext into a column sink: one batch per connection, reused for each of its chunks.
    const batch = columns !== null && reader instanceof PlaintextParser ? new PointBatch(columns.table) : null;
    socket.setTimeout(idleMs, () => end(connection, 'idle'));
    socket.on('data', (chunk: Buffer) => {
      const before = progress();
      const points: CarbonPoint[] = [];
      if (batch !== null) {
        batch.clear();
        (reader as PlaintextParser).pushBatch(chunk, batch);
      } else {
        reader.push(chunk, points);
      }
      if (reader instanceof PickleFrameReader && reader.broken) {
        end(connection, 'broken_framing');
        return;
      }
      // A connection that finishes lines is not stalling, even when each chunk ends mid-line.
      connection.waitingSince = reader.bufferedBytes === 0 ? null : progress() !== before ? Date.now() : (connection.waitingSince ?? Date.now());
      if (batch !== null) deliverBatch(protocol, batch);
      else deliver(protocol, points, socket);
    });
    socket.on('end', () => {
      if (reader instanceof PlaintextParser) {
        if (batch !== null) {
          batch.clear();
          reader.endBatch(batch);
          deliverBatch(protocol, batch);
        } else {
          const points: CarbonPoint[] = [];
          reader.end(points);
          deliver(protocol, points);
        }
      }
      socket.end();
    });
    // Resets and broken pipes end the connection; they are the peer's business, not ours to log.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      open.delete(connection);
      lastConnected = Date.now();
    });
  };

  // Slowloris: an unfinished line held past stalledMs ends its connection. Checked a few times per stalledMs.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const connection of open) {
      if (connection.waitingSince !== null && now - connection.waitingSince > stalledMs) end(connection, 'stalled');
    }
  }, Math.max(50, Math.floor(stalledMs / 4)));
  sweep.unref();

  const close = async () => {
    clearInterval(sweep);
    for (const connection of open) connection.socket.destroy();
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    if (udp) await new Promise<void>((resolve) => udp!.close(() => resolve()));
  };

  try {
    for (const protocol of ['plaintext', 'pickle'] as const) {
      const text = options[protocol];
      if (text === undefined) continue;
      const { host, port } = parseListenAddress(text);
      const server = createServer({ pauseOnConnect: false }, accept(protocol));
      // A second guard below our own count: the kernel's accepted sockets past it are closed by Node at once.
      server.maxConnections = options.maxConnections + 1;
      servers.push(server);
      server.listen(port, host);
      await once(server, 'listening');
      addresses[protocol] = server.address() as AddressInfo;
    }
    if (options.udp !== undefined) {
      const { host, port } = parseListenAddress(options.udp);
      const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
      udp = socket;
      const parser = new PlaintextParser({ maxLineBytes: options.maxLineBytes, onInvalid: refuse('udp', 'udp') });
      const batch = columns !== null ? new PointBatch(columns.table) : null;
      socket.on('message', (message: Buffer) => {
        if (batch !== null) {
          batch.clear();
          parser.pushBatch(message, batch);
          parser.endBatch(batch);
          deliverBatch('udp', batch);
          return;
        }
        const points: CarbonPoint[] = [];
        parser.push(message, points);
        parser.end(points);
        deliver('udp', points);
      });
      socket.on('error', (error) => log.warn({ err: error }, 'carbon UDP socket error'));
      socket.bind(port, host);
      await once(socket, 'listening');
      addresses.udp = socket.address();
    }
  } catch (error) {
    await close();
    throw error;
  }
  log.info({ ...Object.fromEntries(Object.entries(addresses).map(([name, address]) => [name, `${address.address}:${address.port}`])) }, 'carbon receiver listening');
  return {
    addresses,
    counters,
    connections: () => open.size,
    lastPointAt: () => lastPoint,
    lastConnectedAt: () => (open.size > 0 ? Date.now() : lastConnected),
    close,
  };
}

/**
 * Logs refusals, at most `perMinute` lines a minute in all (a hostile sender must not fill the disk), then one
 * line saying how many more were not logged.
 */
class RefusalLog {
  private windowStart = 0;
  private logged = 0;
  private suppressed = 0;

  constructor(
    private readonly log: Logger,
    private readonly perMinute = 10,
  ) {}

  note(protocol: CarbonProtocol, remote: string, reason: InvalidReason, sample: () => string): void {
    if (this.admit()) this.log.warn({ protocol, remote, reason, sample: sample() }, 'carbon input refused');
  }

  noteConnectionRefused(max: number): void {
    if (this.admit()) this.log.warn({ max }, 'carbon connection refused: --carbon-max-connections are open');
  }

  private admit(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= 60_000) {
      if (this.suppressed > 0) this.log.warn({ suppressed: this.suppressed }, 'carbon refusals not logged in the last minute (see alertform_carbon_lines_invalid_total)');
      this.windowStart = now;
      this.logged = 0;
      this.suppressed = 0;
    }
    if (this.logged < this.perMinute) {
      this.logged += 1;
      return true;
    }
    this.suppressed += 1;
    return false;
  }
}
