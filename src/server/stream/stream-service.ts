import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { StreamIngest } from '../../stream/stream-ingest.js';
import type { BackgroundService } from '../start-server.js';
import { CarbonCounters, registerStreamMetrics } from './carbon-counters.js';
import { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_LINE_BYTES, DEFAULT_STREAM_MAX_SERIES } from '../../stream/defaults.js';
import { startCarbonReceiver, type CarbonReceiver, type CarbonReceiverOptions } from './carbon-receiver.js';

/** `serve`'s carbon settings: the listeners (HOST:PORT each) and their bounds. */
export type CarbonSettings = Partial<CarbonReceiverOptions>;

/** Bounds of the stream's memory. */
export interface StreamSettings {
  /** Matched series held in memory (`--stream-max-series`); default 100,000. */
  maxSeries?: number;
  /** Points one series keeps at most; default 720 (2 hours at 10 s, 6 hours at 30 s). */
  maxPointsPerSeries?: number;
  /** Path decisions cached; default 1,000,000. */
  cacheSize?: number;
  /** How often series nobody reads, or that stopped arriving, are dropped, ms; default 60 s. */
  sweepMs?: number;
}

const DEFAULT_MAX_POINTS_PER_SERIES = 720;
const DEFAULT_CACHE_SIZE = 1_000_000;

/** The receiver and the ingest it feeds, closed with the server. */
export interface StreamIngestService extends BackgroundService {
  ingest: StreamIngest<object>;
  receiver: CarbonReceiver;
}

/** Starts the carbon receiver feeding a StreamIngest, or nothing when no carbon port is asked for. */
export async function startStreamIngest(
  carbon: CarbonSettings | undefined,
  settings: StreamSettings = {},
  logger: Logger,
  registry: Registry,
): Promise<StreamIngestService | undefined> {
  if (!carbon || (carbon.plaintext === undefined && carbon.pickle === undefined && carbon.udp === undefined)) return undefined;
  const ingest = new StreamIngest<object>({
    cacheSize: settings.cacheSize ?? DEFAULT_CACHE_SIZE,
    maxSeries: settings.maxSeries ?? DEFAULT_STREAM_MAX_SERIES,
    maxPointsPerSeries: settings.maxPointsPerSeries ?? DEFAULT_MAX_POINTS_PER_SERIES,
  });
  const counters = new CarbonCounters();
  const receiver = await startCarbonReceiver(
    { maxLineBytes: DEFAULT_MAX_LINE_BYTES, maxConnections: DEFAULT_MAX_CONNECTIONS, ...carbon },
    // Plaintext in columns, paths as ids of the ingest's table: no string or object per point.
    ingest,
    logger,
    counters,
  );
  registerStreamMetrics(registry, { counters, connections: receiver.connections, matched: () => ingest.matched, rings: () => ingest.rings.stats() });
  const sweep = setInterval(() => ingest.sweep(Date.now() / 1000), settings.sweepMs ?? 60_000);
  sweep.unref();
  return {
    ingest,
    receiver,
    readiness: () => ({ name: 'carbon receiver', ready: true, detail: `${receiver.connections()} connections` }),
    async close() {
      clearInterval(sweep);
      await receiver.close();
    },
  };
}
