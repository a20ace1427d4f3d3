import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Store } from './store/store.js';
import { VERSION } from '../version.js';
import { alertStateOf } from '../model/alert-state.js';
import { ALERT_STATES } from '../model/types.js';
import type { EvaluationHealth } from './evaluator/evaluation-health.js';
import type { UnhealthyReason } from './evaluator/heartbeat.js';

/** Deliveries by channel type, as /metrics shows them, counted in the outbox. */
export interface DeliveryCounts {
  /** Deliveries waiting in the outbox (due, in flight or backing off), by channel type. */
  pending: Record<string, number>;
  /** Deliveries dead-lettered (retries ran out, or the error was final) and still kept, by channel type. */
  failed: Record<string, number>;
}

/**
 * The server's Prometheus metrics, one registry per server (tests run several servers in one process). HTTP
 * requests are observed by the app, evaluation cycles by the evaluator service; alerts by status and deliveries
 * are read when /metrics is scraped.
 */
/** prom-client's default gauges whose names break Prometheus' naming rules (a `_total` suffix on a gauge). */
const UNLINTABLE_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly cycles: Histogram;
  private readonly lag: Gauge;
  private readonly deferred: Gauge;
  private readonly renderErrors: Counter;
  private readonly transitions: Counter<'to'>;
  private readonly notificationsSent: Counter<'channel_type'>;
  private readonly notificationsFailed: Counter<'channel_type' | 'outcome'>;
  private readonly heartbeats: Record<'sent' | 'failed' | 'skipped', Counter>;
  private readonly unhealthyCycles: Counter<'reason'>;
  private deliverySource: (() => DeliveryCounts | Promise<DeliveryCounts>) | undefined;

  constructor(store: Pick<Store, 'alerts' | 'pendingBound'>, evaluation?: EvaluationHealth) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    // prom-client's totals of the per-type gauges are gauges named *_total, which Prometheus reserves for counters
    // (`promtool check metrics` refuses them); the per-type gauges stay, and sum(nodejs_active_handles) is the total.
    for (const name of UNLINTABLE_DEFAULTS) this.registry.removeSingleMetric(name);
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
    this.deferred = new Gauge({
      name: 'alertform_evaluation_deferred_alerts',
      help: "Alerts the last evaluation cycle left out while their account's maintenance windows were matched against them for the first time (after a start)",
      registers,
    });
    this.renderErrors = new Counter({
      name: 'alertform_render_errors_total',
      help: 'Graphite render queries that failed (timeouts, errors, unreadable answers)',
      registers,
    });
    this.transitions = new Counter({
      name: 'alertform_transitions_total',
      help: 'Alert status changes saved by evaluation cycles, by the status entered (healthy, alerting, no_data...)',
      labelNames: ['to'],
      registers,
    });
    this.notificationsSent = new Counter({
      name: 'alertform_notifications_sent_total',
      help: 'Notification deliveries the channel accepted (counted when the outcome is recorded), by channel type',
      labelNames: ['channel_type'],
      registers,
    });
    this.notificationsFailed = new Counter({
      name: 'alertform_notifications_failed_total',
      help: 'Failed notification delivery attempts by channel type; outcome "retry" (tried again later) or "dead" (dead-lettered)',
      labelNames: ['channel_type', 'outcome'],
      registers,
    });
    this.heartbeats = {
      sent: new Counter({ name: 'alertform_heartbeats_sent_total', help: 'Heartbeat pings the dead man\'s switch answered with a 2xx', registers }),
      failed: new Counter({ name: 'alertform_heartbeats_failed_total', help: 'Heartbeat pings that failed (no answer in time, refused, not a 2xx)', registers }),
      skipped: new Counter({ name: 'alertform_heartbeats_skipped_total', help: 'Healthy cycles that sent no ping because the previous one was still in flight', registers }),
    };
    this.unhealthyCycles = new Counter({
      name: 'alertform_heartbeat_withheld_total',
      help: 'Evaluation cycles that earned no heartbeat, by reason: cycle_failed (the store), lease_lost (the cycle gave up: its lease ran out) or graphite_failed (every query failed)',
      labelNames: ['reason'],
      registers,
    });
    new Gauge({
      name: 'alertform_build_info',
      help: 'Always 1; the labels say which alertform and which Node.js run this server',
      labelNames: ['version', 'node'],
      registers,
    }).set({ version: VERSION, node: process.version }, 1);
    const alerts = new Gauge({
      name: 'alertform_alerts',
      help: 'Alerts by status, over all accounts',
      labelNames: ['status'],
      registers,
      collect: async () => {
        alerts.reset();
        const counts = (await store.alerts.countAlertsByStatus?.()) ?? {};
        for (const [status, count] of Object.entries(counts)) alerts.set({ status }, count);
      },
    });
    const refused = new Counter({
      name: 'alertform_deliveries_refused_total',
      help: 'New deliveries refused since the process started, by reason: account_pending_limit (the account had --max-pending-deliveries-per-account waiting); each says so in its alert history',
      labelNames: ['reason'],
      registers,
      collect: () => {
        refused.reset();
        for (const [reason, count] of store.pendingBound?.refused ?? []) refused.inc({ reason }, count);
      },
    });
    const states = new Gauge({
      name: 'alertform_alerts_by_state',
      help: 'Alerts by state (healthy, alerting, no_data, query_failing, not_evaluated), over all accounts: the state the API, the console and `alertform status` show',
      labelNames: ['state'],
      registers,
      collect: async () => {
        const groups = (await store.alerts.countAlertStateFacts?.()) ?? [];
        const evaluating = (await evaluation?.evaluating()) ?? false;
        const counts: Record<string, number> = Object.fromEntries(ALERT_STATES.map((state) => [state, 0]));
        for (const { facts, count } of groups) counts[alertStateOf(facts, evaluating)]! += count;
        for (const [state, count] of Object.entries(counts)) states.set({ state }, count);
      },
    });
    const healthy = new Gauge({
      name: 'alertform_evaluation_healthy',
      help: "1 when this process's evaluation works (cycles end, Graphite answers), 0 otherwise; the condition is in GET /healthz/evaluation",
      registers,
      collect: () => {
        healthy.set(evaluation?.report().healthy ? 1 : 0);
      },
    });
    const pending = new Gauge({
      name: 'alertform_deliveries_pending',
      help: 'Notification deliveries waiting in the outbox, by channel type',
      labelNames: ['channel_type'],
      registers,
      collect: async () => {
        pending.reset();
        for (const [type, count] of Object.entries((await this.deliveryCounts()).pending)) pending.set({ channel_type: type }, count);
      },
    });
    const failed = new Gauge({
      name: 'alertform_deliveries_failed',
      help: 'Notification deliveries dead-lettered (kept 30 days), by channel type',
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

  /**
   * Records one evaluation cycle: its duration, how late it started, its failed render queries, its transitions and
   * (a full cycle's) the alerts it left out.
   */
  observeCycle(durationSeconds: number, lagSeconds: number, failedQueries: number, transitionsTo: Record<string, number> = {}, deferredAlerts?: number): void {
    this.cycles.observe(durationSeconds);
    this.lag.set(lagSeconds);
    if (deferredAlerts !== undefined) this.deferred.set(deferredAlerts);
    if (failedQueries > 0) this.renderErrors.inc(failedQueries);
    for (const [to, count] of Object.entries(transitionsTo)) this.transitions.inc({ to }, count);
  }

  /** Records one finished delivery attempt whose outcome was written to the outbox. */
  observeDelivery(channelType: string, outcome: 'delivered' | 'pending' | 'dead'): void {
    if (outcome === 'delivered') this.notificationsSent.inc({ channel_type: channelType });
    else this.notificationsFailed.inc({ channel_type: channelType, outcome: outcome === 'dead' ? 'dead' : 'retry' });
  }

  /** Records what became of a healthy cycle's heartbeat ping. */
  observeHeartbeat(outcome: 'sent' | 'failed' | 'skipped'): void {
    this.heartbeats[outcome].inc();
  }

  /** Records a cycle that earned no heartbeat, and why. */
  observeUnhealthyCycle(reason: UnhealthyReason): void {
    this.unhealthyCycles.inc({ reason });
  }

  /** Where delivery counts come from (the outbox). */
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
