import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Store } from './store/store.js';

/** Deliveries by channel type, as /metrics shows them. Today the in-memory queue feeds it; an outbox can instead. */
export interface DeliveryCounts {
  /** Deliveries queued or in flight, by channel type. */
  pending: Record<string, number>;
  /** Deliveries that gave up (every retry failed, or the error was final), by channel type. */
  failed: Record<string, number>;
}

/**
 * The server's Prometheus metrics, one registry per server (tests run several servers in one process). HTTP
 * requests are observed by the app, evaluation cycles by the evaluator service; alerts by status and deliveries
 * are read when /metrics is scraped.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly cycles: Histogram;
  private readonly lag: Gauge;
  private readonly renderErrors: Counter;
  private deliverySource: (() => DeliveryCounts | Promise<DeliveryCounts>) | undefined;

  constructor(store: Store) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'alertform_http_request_duration_seconds',
      help: 'HTTP requests by method, route (the path pattern) and status, with their latency',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.cycles = new Histogram({
      name: 'alertform_evaluation_cycle_duration_seconds',
      help: 'How long evaluation cycles took',
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120],
      registers,
    });
    this.lag = new Gauge({
      name: 'alertform_evaluation_lag_seconds',
      help: 'How late the last evaluation cycle started after it was due (a cycle longer than the interval delays the next)',
      registers,
    });
    this.renderErrors = new Counter({
      name: 'alertform_render_errors_total',
      help: 'Graphite render queries that failed (timeouts, errors, unreadable answers)',
      registers,
    });
    const alerts = new Gauge({
      name: 'alertform_alerts',
      help: 'Alerts by status, over all accounts',
      labelNames: ['status'],
      registers,
      collect: async () => {
        alerts.reset();
        const counts = (await store.countAlertsByStatus?.()) ?? {};
        for (const [status, count] of Object.entries(counts)) alerts.set({ status }, count);
      },
    });
    const pending = new Gauge({
      name: 'alertform_deliveries_pending',
      help: 'Notification deliveries queued or in flight, by channel type',
      labelNames: ['channel_type'],
      registers,
      collect: async () => {
        pending.reset();
        for (const [type, count] of Object.entries((await this.deliveryCounts()).pending)) pending.set({ channel_type: type }, count);
      },
    });
    const failed = new Gauge({
      name: 'alertform_deliveries_failed',
      help: 'Notification deliveries that gave up since the server started, by channel type',
      labelNames: ['channel_type'],
      registers,
      collect: async () => {
        failed.reset();
        for (const [type, count] of Object.entries((await this.deliveryCounts()).failed)) failed.set({ channel_type: type }, count);
      },
    });
  }

  /** Records one answered HTTP request. `route` is the matched pattern (never the raw path: ids would explode it). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe({ method, route, status: String(status) }, seconds);
  }

  /** Records one evaluation cycle: its duration, how late it started, and its failed render queries. */
  observeCycle(durationSeconds: number, lagSeconds: number, failedQueries: number): void {
    this.cycles.observe(durationSeconds);
    this.lag.set(lagSeconds);
    if (failedQueries > 0) this.renderErrors.inc(failedQueries);
  }

  /** Where delivery counts come from (the evaluator's queue today). */
  setDeliverySource(source: () => DeliveryCounts | Promise<DeliveryCounts>): void {
    this.deliverySource = source;
  }

  /** The Prometheus text exposition. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  private async deliveryCounts(): Promise<DeliveryCounts> {
    return (await this.deliverySource?.()) ?? { pending: {}, failed: {} };
  }
}
