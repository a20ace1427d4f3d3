import type { Logger } from 'pino';
import { Counter, Gauge } from 'prom-client';
import type { StreamIngest } from '../../stream/stream-ingest.js';
import type { ServerMetrics } from '../metrics.js';
import type { ServiceReadiness } from '../start-server.js';
import type { CycleReport } from '../evaluator/run-cycle.js';
import { StreamEvaluator, type StreamAlert } from './stream-evaluator.js';
import { FlowWatch, type FlowWatchOptions } from '../../stream/flow-watch.js';
import type { CarbonReceiver } from './carbon-receiver.js';

/** The stream's parts inside the evaluator service: the receiver, the ingest and the stream evaluator. */
export interface StreamParts {
  evaluator: StreamEvaluator;
  /** Where the evaluator's judgeSoon goes once it runs. */
  bindJudge(judgeSoon: (alertIds: ReadonlySet<string>) => void): void;
  /** Counts a stream-asked cycle's transitions on /metrics. */
  afterStreamCycle(report: CycleReport): void;
  /** Its part of /readyz: ready, with a detail when the stream has fallen back to polling or its flow dropped. */
  readiness(): ServiceReadiness;
  close(): Promise<void>;
}

export interface StreamPartsOptions {
  /** The receiver's stream (start-server.ts starts it with the carbon listeners). */
  ingest: StreamIngest<object>;
  receiver: Pick<CarbonReceiver, 'lastConnectedAt'>;
  settleSeconds: number;
  logger: Logger;
  metrics?: ServerMetrics;
  maxSeries?: number;
  /** How the flow watch judges a drop (tests shorten its slots). */
  flow?: FlowWatchOptions;
}

/** How often the flow watch is told how many points arrived, ms. */
const FLOW_SAMPLE_MS = 1000;

/**
 * Judges on the receiver's stream. The stream evaluator is the cycle's feed (run-cycle.ts); completed buckets ask
 * the evaluator for a cycle of their alerts at once. The flow watch samples the ingest's count of received points.
 */
export function startStreamParts(options: StreamPartsOptions): StreamParts {
  const logger = options.logger.child({ component: 'stream-evaluator' });
  // The ingest's subscribers are this evaluator's alerts only (it is the one subscriber of the server's stream).
  const ingest = options.ingest as StreamIngest<StreamAlert>;
  let judge: (alertIds: ReadonlySet<string>) => void = () => undefined;
  const stream = new StreamEvaluator({
    ingest,
    receiver: options.receiver,
    judgeSoon: (ids) => judge(ids),
    settleSeconds: options.settleSeconds,
    logger,
    ...(options.maxSeries ? { maxSeries: options.maxSeries } : {}),
    flow: new FlowWatch(options.flow),
  });
  let counted = ingest.received;
  const flowSampler = setInterval(() => {
    stream.countPoints(ingest.received - counted);
    counted = ingest.received;
  }, FLOW_SAMPLE_MS);
  flowSampler.unref();
  const transitions = options.metrics ? registerStreamMetrics(options.metrics, stream) : null;
  return {
    evaluator: stream,
    bindJudge: (judgeSoon) => (judge = judgeSoon),
    afterStreamCycle: (report) => {
      for (const [to, count] of Object.entries(report.transitionsTo)) transitions?.inc({ to }, count);
    },
    readiness: () => {
      const { fallback, flow } = stream.status();
      // Falling back to polling keeps the alerts judged: ready, and loud about it.
      if (fallback) return { name: 'stream', ready: true, detail: 'the carbon receiver has had no connection for longer than the settle delay: alerts are polled from render' };
      if (flow.dropped) return { name: 'stream', ready: true, detail: `the metric stream dropped to ${flow.perMinute} points a minute from ${flow.baselinePerMinute}: silent series are confirmed against render` };
      return { name: 'stream', ready: true };
    },
    async close() {
      clearInterval(flowSampler);
      stream.close();
    },
  };
}

/** The stream evaluator's figures on /metrics, read at each scrape. */
function registerStreamMetrics(metrics: ServerMetrics, stream: StreamEvaluator): Counter<'to'> {
  const registers = [metrics.registry];
  const evaluated = new Gauge({
    name: 'alertform_alerts_evaluated',
    help: "This replica's alerts by how they were judged at the last full cycle: mode stream (on the metric stream) or render (polling Graphite)",
    labelNames: ['mode'],
    registers,
    collect: () => {
      const counts = stream.status().evaluated;
      evaluated.set({ mode: 'stream' }, counts.stream);
      evaluated.set({ mode: 'render' }, counts.render);
    },
  });
  const fallback = new Gauge({
    name: 'alertform_stream_fallback',
    help: '1 while the carbon receiver has had no connection for longer than the settle delay (stream alerts are polled from render), else 0',
    registers,
    collect: () => {
      fallback.set(stream.status().fallback ? 1 : 0);
    },
  });
  const dropped = new Gauge({
    name: 'alertform_stream_flow_dropped',
    help: '1 while the whole metric stream is down by a large share at once (a half-failed relay): silent series are confirmed against render before any no data',
    registers,
    collect: () => {
      dropped.set(stream.status().flow.dropped ? 1 : 0);
    },
  });
  const renders = new Counter({
    name: 'alertform_stream_renders_total',
    help: 'Render reads of stream alerts, by reason: warmup (subscribed, taken over, query changed, stream back) or confirm (series silent while the flow dropped)',
    labelNames: ['reason'],
    registers,
    collect: () => {
      renders.reset();
      const { warmups, confirmations } = stream.status();
      renders.inc({ reason: 'warmup' }, warmups);
      renders.inc({ reason: 'confirm' }, confirmations);
    },
  });
  const completions = new Counter({
    name: 'alertform_stream_completions_total',
    help: 'Alerts judged at once because the stream completed a bucket of their data',
    registers,
    collect: () => {
      completions.reset();
      completions.inc(stream.status().completions);
    },
  });
  // The rings' and the receiver's own figures (alertform_stream_series, alertform_carbon_points_*) are the ingest's.
  return new Counter({ name: 'alertform_stream_transitions_total', help: 'Alert status changes saved by cycles the stream asked for (completed buckets), by the status entered', labelNames: ['to'], registers });
}
