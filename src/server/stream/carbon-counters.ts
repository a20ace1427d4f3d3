import { Counter, Gauge, type Registry } from 'prom-client';
import { INVALID_REASONS, type InvalidReason } from '../../stream/carbon-point.js';
import type { SeriesRingsStats } from '../../stream/series-rings.js';

export type CarbonProtocol = 'plaintext' | 'pickle' | 'udp';

/** Why the receiver ended a connection. */
export type CloseReason = 'idle' | 'stalled' | 'broken_framing';

/**
 * The receiver's counts, kept as plain numbers on the hot path (a prom-client counter per point would cost more
 * than the parse) and read into the registry when /metrics is scraped.
 */
export class CarbonCounters {
  readonly received: Record<CarbonProtocol, number> = { plaintext: 0, pickle: 0, udp: 0 };
  readonly invalid = new Map<InvalidReason, number>(INVALID_REASONS.map((reason) => [reason, 0]));
  refusedConnections = 0;
  readonly closed: Record<CloseReason, number> = { idle: 0, stalled: 0, broken_framing: 0 };

  countInvalid(reason: InvalidReason): void {
    this.invalid.set(reason, (this.invalid.get(reason) ?? 0) + 1);
  }

  /** Points received over every protocol. */
  get receivedTotal(): number {
    return this.received.plaintext + this.received.pickle + this.received.udp;
  }
}

/** What /metrics reads of the stream besides the receiver's counters. */
export interface StreamMetricsSource {
  counters: CarbonCounters;
  connections(): number;
  matched(): number;
  rings(): SeriesRingsStats;
}

/** Registers the carbon receiver's and the stream's metrics (docs/server.md lists them). */
export function registerStreamMetrics(registry: Registry, source: StreamMetricsSource): void {
  const registers = [registry];
  const received = new Counter({
    name: 'alertform_carbon_points_received_total',
    help: 'Points parsed from the carbon ports, by protocol (plaintext, pickle, udp)',
    labelNames: ['protocol'],
    registers,
    collect() {
      received.reset();
      for (const [protocol, count] of Object.entries(source.counters.received)) received.inc({ protocol }, count);
    },
  });
  const matched = new Counter({
    name: 'alertform_carbon_points_matched_total',
    help: 'Received points that some stream-evaluated alert reads',
    registers,
    collect() {
      matched.reset();
      matched.inc(source.matched());
    },
  });
  const invalid = new Counter({
    name: 'alertform_carbon_lines_invalid_total',
    help: 'Lines, pickle frames and pickle items refused on the carbon ports, by reason',
    labelNames: ['reason'],
    registers,
    collect() {
      invalid.reset();
      for (const [reason, count] of source.counters.invalid) invalid.inc({ reason }, count);
    },
  });
  const connections = new Gauge({
    name: 'alertform_carbon_connections',
    help: 'Open TCP connections on the carbon ports',
    registers,
    collect() {
      connections.set(source.connections());
    },
  });
  const refused = new Counter({
    name: 'alertform_carbon_connections_refused_total',
    help: 'Connections closed at once because --carbon-max-connections were open',
    registers,
    collect() {
      refused.reset();
      refused.inc(source.counters.refusedConnections);
    },
  });
  const closed = new Counter({
    name: 'alertform_carbon_connections_closed_total',
    help: 'Connections the receiver ended, by reason: idle (nothing received for 5 minutes), stalled (a line or frame left unfinished too long), broken_framing (a pickle frame length past the bound)',
    labelNames: ['reason'],
    registers,
    collect() {
      closed.reset();
      for (const [reason, count] of Object.entries(source.counters.closed)) closed.inc({ reason }, count);
    },
  });
  const series = new Gauge({
    name: 'alertform_stream_series',
    help: 'Matched series held in memory (one ring each)',
    registers,
    collect() {
      series.set(source.rings().series);
    },
  });
  const bytes = new Gauge({
    name: 'alertform_stream_ring_bytes',
    help: 'Bytes of the matched series rings (points at 12 bytes, names, per-ring overhead)',
    registers,
    collect() {
      bytes.set(source.rings().bytes);
    },
  });
  const points = new Gauge({
    name: 'alertform_stream_points',
    help: 'Points held in the matched series rings',
    registers,
    collect() {
      points.set(source.rings().points);
    },
  });
  const refusedSeries = new Counter({
    name: 'alertform_stream_series_refused_total',
    help: 'New matched series not kept because --stream-max-series were held',
    registers,
    collect() {
      refusedSeries.reset();
      refusedSeries.inc(source.rings().refusedSeries);
    },
  });
}
