import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { createApi } from './app.js';
import { startEvaluatorService } from './evaluator/service.js';
import { startDeliveryService } from './outbox/delivery-service.js';
import { ensureApiKeys } from './accounts.js';
import { describeDatabase, openStore } from './store/open-store.js';
import { parseDestinationPolicy } from './net/destination-policy.js';
import type { Quotas } from './quotas.js';
import type { FailureLimitOptions } from './http/failure-limiter.js';
import type { Store } from './store/store.js';
import type { RetryPolicy } from './outbox/backoff.js';
import { ServerMetrics } from './metrics.js';
import { SERVER_LOG_OPTIONS, flushLog } from './log-destination.js';
import { EvaluationHealth } from './evaluator/evaluation-health.js';
import { trackLogLevel } from './log-level.js';
import type { NoDataPolicy } from '../evaluation/no-data.js';
import { startStreamIngest, type CarbonSettings, type StreamSettings, type StreamIngestService } from './stream/stream-service.js';
import type { CarbonReceiver } from './stream/carbon-receiver.js';
import type { StreamIngest } from '../stream/stream-ingest.js';

/** Something started with the server (e.g. the evaluation loop) and stopped before the store closes. */
export interface BackgroundService {
  close(): Promise<void>;
  /** Its part of /readyz (e.g. "evaluator running"); a service without it is not checked. */
  readiness?(): ServiceReadiness;
}

/** One check of /readyz. */
export interface ServiceReadiness {
  name: string;
  ready: boolean;
  detail?: string;
  /** Ready, but something will not work as configured (email without an SMTP server): said to operators and `plan`. */
  warning?: string;
}

/** What a background service gets: the store, the logger, the server's options, its metrics and its outbox sender. */
export interface ServiceContext {
  store: Store;
  logger: Logger;
  options: ServerOptions;
  metrics?: ServerMetrics;
  /** The server's delivery service, to wake after writing deliveries to the outbox. */
  deliveries?: { wake(): void };
  /** Told about each evaluation cycle (GET /healthz/evaluation, the alerts' `not_evaluated`). */
  evaluation?: EvaluationHealth;
  /**
   * With carbon ports (`--carbon-listen`, `--carbon-pickle-listen`, `--carbon-udp-listen`): what the receiver's
   * points go to (subscribe an alert's paths, hear its matched points, read its series' rings) and the receiver
   * itself (connections, the last point's time).
   */
  stream?: StreamIngest<object>;
  carbon?: CarbonReceiver;
}

export interface ServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** SQLite path, ':memory:', or a postgres:// URL. Default ./alertform.db. Ignored when `store` is given. */
  db?: string;
  /** An already open store (tests, other backends). It is closed with the server. */
  store?: Store;
  /** Keys that must exist (each gets its own account when new). */
  apiKeys?: string[];
  logger?: Logger;
  /** The clock, epoch ms. */
  now?: () => number;
  /**
   * Started after the server listens (after the delivery service), closed (in reverse order) before the store.
   * The evaluator plugs in here; its own options (graphiteUrl, evalIntervalSeconds, smtpUrl, notifier URLs...)
   * travel in this same object.
   */
  services?: Array<(context: ServiceContext) => BackgroundService | Promise<BackgroundService>>;
  graphiteUrl?: string;
  /**
   * The URL people reach this server at (`--public-url`). With it, notifications link to the alert's console page
   * and to a signed, expiring PNG of its graph; without it they carry neither.
   */
  publicUrl?: string;
  evalIntervalSeconds?: number;
  /** How the stream's flow watch judges a sudden drop (stream/flow-watch.ts); tests shorten its slots. */
  streamFlow?: import('../stream/flow-watch.js').FlowWatchOptions;
  /** Evaluation health as this server reports it (tests, embedders); default: made from graphiteUrl and the store. */
  evaluation?: EvaluationHealth;
  /** What no data does for an alert whose on_no_data is null (`--on-no-data`); default ignore. */
  onNoData?: NoDataPolicy;
  /**
   * The settle delay, seconds (`--settle-delay`): the evaluator judges only data older than now minus it, for alerts
   * whose settle_seconds is null. Default DEFAULT_SETTLE_SECONDS (60).
   */
  settleDelaySeconds?: number;
  /**
   * A dead man's switch's ping URL (`--heartbeat-url`): GET after every healthy evaluation cycle (see
   * evaluator/heartbeat.ts). A secret: never logged. Reached under allowPrivateDestinations, as webhooks are.
   */
  heartbeatUrl?: string;
  smtpUrl?: string;
  /** From address of notification emails. Default alertform@localhost. */
  smtpFrom?: string;
  /** Base URLs of third-party notifiers: `pagerduty`, `opsgenie`, `victorops` (tests, regions). */
  notifierUrls?: Record<string, string>;
  /**
   * The outbox: retries (first wait, longest wait, maximum age before dead-lettering), the poll interval and the
   * timeout of one attempt (a claim's lease is twice it plus a second), all in ms.
   */
  delivery?: { retry?: Partial<RetryPolicy>; pollMs?: number; timeoutMs?: number };
  /** How long a client may take to send its request headers, ms. Default 10,000. */
  headersTimeoutMs?: number;
  /** How long a client may take to send its whole request, ms. Default 30,000. */
  requestTimeoutMs?: number;
  /**
   * Let webhook, Slack and VictorOps deliveries reach non-public addresses: true for all of them (single-tenant
   * installs; cloud metadata stays refused), or a list of CIDRs and host names. Default: public addresses only.
   */
  allowPrivateDestinations?: boolean | string[];
  /** Per-account limits of alerts, channels, schedules and pending deliveries; default 10,000 / 1,000 / 1,000 / 10,000. */
  quotas?: Partial<Quotas>;
  /** How failed authentications are slowed; default 20 per address per minute, then 429 with Retry-After. */
  authFailures?: FailureLimitOptions;
  /** Serve the web console at / (default true; `--no-console` turns it off). */
  console?: boolean;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; without it /metrics is open (see docs/security.md). */
  metricsToken?: string;
  /** The carbon receiver's listeners and bounds; none started without a listen address. */
  carbon?: CarbonSettings;
  /** Bounds of the stream's memory: series held, points per series, path decisions cached. */
  stream?: StreamSettings;
}

export interface RunningServer {
  /** http://host:port, without a trailing slash. */
  url: string;
  port: number;
  store: Store;
  server: Server;
  /** The carbon receiver and what it feeds, when a carbon port was asked for. */
  carbon?: CarbonReceiver;
  stream?: StreamIngest<object>;
  close(): Promise<void>;
  /**
   * Applies the settings that change without a restart (SIGHUP in `serve`): the log level, keys that must exist
   * (added; a key left out is not revoked) and the per-account limits. Everything else needs a restart.
   */
  reload(settings: ReloadableSettings): Promise<void>;
}

/** What `reload` changes: each one given replaces the running value. */
export interface ReloadableSettings {
  logLevel?: string;
  apiKeys?: string[];
  quotas?: Partial<Quotas>;
}

/** Opens the store, makes sure the given keys exist, and serves the /v2 API until close(). */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: process.env.ALERTFORM_LOG_LEVEL ?? 'info', ...SERVER_LOG_OPTIONS });
  const setLogLevel = trackLogLevel(logger);
  // Judged before anything opens: a bad entry is the operator's mistake, said at once.
  const destinations = parseDestinationPolicy(options.allowPrivateDestinations);
  const store = options.store ?? (await openStore(options.db ?? './alertform.db'));
  try {
    await ensureApiKeys(store, options.apiKeys ?? [], logger);
  } catch (error) {
    await store.close();
    throw error;
  }
  if (store.pendingBound && options.quotas?.pendingDeliveries !== undefined) store.pendingBound.limit = options.quotas.pendingDeliveries;
  const evaluation = options.evaluation ?? new EvaluationHealth({
    evaluating: Boolean(options.graphiteUrl),
    ...(options.evalIntervalSeconds ? { intervalSeconds: options.evalIntervalSeconds } : {}),
    logger: logger.child({ component: 'evaluation-health' }),
    ...(store.countLiveEvaluators ? { liveEvaluators: () => store.countLiveEvaluators!() } : {}),
  });
  const metrics = new ServerMetrics(store, evaluation);
  const services: BackgroundService[] = [];
  let servicesStarted = false;
  const api = createApi({
    store,
    logger,
    destinations,
    ...(options.graphiteUrl ? { graphiteUrl: options.graphiteUrl } : {}),
    ...(options.settleDelaySeconds !== undefined ? { settleDelaySeconds: options.settleDelaySeconds } : {}),
    ...(options.quotas ? { quotas: options.quotas } : {}),
    ...(options.authFailures ? { authFailures: options.authFailures } : {}),
    metrics,
    evaluation,
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    // Until every service has started, /readyz says so: a load balancer must not send traffic to a half-started server.
    readiness: () =>
      servicesStarted
        ? services.flatMap((service) => (service.readiness ? [service.readiness()] : []))
        : [{ name: 'services', ready: false, detail: 'starting' }],
    ...(options.now ? { now: options.now } : {}),
    ...(options.console === false ? { console: false } : {}),
  });
  // Slow or stuck clients must not hold sockets forever. Node checks these timeouts only every
  // connectionsCheckingInterval (30 s by default), which would let a slow client hold on for up to 40 s; checking at
  // a quarter of the header timeout keeps the cut-off within 25% of what was asked.
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: Math.max(50, Math.min(headersTimeout, requestTimeout) / 4),
    },
    api.listener,
  );
  const host = options.host ?? '127.0.0.1';
  server.listen(options.port ?? 8080, host);
  try {
    await once(server, 'listening');
  } catch (error) {
    await store.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  // Every process sends the outbox (so any replica delivers what any other wrote); it starts first and closes
  // last, after the evaluator's final cycle. With a Graphite to read, the evaluation loop comes next.
  const deliveries = startDeliveryService({ store, logger, options, metrics });
  services.push(deliveries);
  // The carbon receiver comes before the services that read its stream, and closes after them.
  let ingest: StreamIngestService | undefined;
  try {
    ingest = await startStreamIngest(options.carbon, options.stream, logger, metrics.registry);
  } catch (error) {
    await deliveries.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.close();
    throw error;
  }
  if (ingest) services.push(ingest);
  const stream = ingest ? { stream: ingest.ingest, carbon: ingest.receiver } : {};
  const starters = [...(options.graphiteUrl ? [startEvaluatorService] : []), ...(options.services ?? [])];
  for (const start of starters) services.push(await start({ store, logger, options, metrics, deliveries, evaluation, ...stream }));
  servicesStarted = true;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      for (const service of services.reverse()) await service.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await store.close();
      logger.info({ url }, 'server stopped');
      // An asynchronous log (log-destination.ts) is written out before the process may end.
      await flushLog(logger);
    })());
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}`;
  logger.info(
    { url, ...(options.store ? {} : { db: describeDatabase(options.db ?? './alertform.db') }), evaluating: Boolean(options.graphiteUrl) },
    'server started',
  );
  const reload = async (settings: ReloadableSettings) => {
    if (settings.apiKeys) await ensureApiKeys(store, settings.apiKeys, logger);
    if (settings.quotas) {
      Object.assign(api.quotas, settings.quotas);
      if (store.pendingBound && settings.quotas.pendingDeliveries !== undefined) store.pendingBound.limit = settings.quotas.pendingDeliveries;
    }
    if (settings.logLevel) setLogLevel(settings.logLevel);
  };
  return { url, port, store, server, ...stream, close, reload };
}

