import type { RequestListener } from 'node:http';
import { DEFAULT_SETTLE_SECONDS } from '../model/defaults.js';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import { authenticate } from './http/authenticate.js';
import { segmentRoutes } from './http/segment-routes.js';
import { createAlertReadCache } from './http/alert-read-cache.js';
import { createAccountCache } from './http/account-cache.js';
import { cachedReads, type CachedRead } from './http/cached-read.js';
import { createFailureLimiter, type FailureLimitOptions } from './http/failure-limiter.js';
import { signedLinks } from './http/signed-links.js';
import { handleErrors } from './http/handle-errors.js';
import { HttpError } from './errors.js';
import { hashApiKey, hashesEqual } from './ids.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { registerAlertRoutes } from './routes/alerts.js';
import { registerAckRoutes } from './routes/acknowledgements.js';
import { registerAckLinkRoutes } from './ack/ack-link-routes.js';
import { registerAlertConsoleRoutes } from './routes/alert-console.js';
import { registerGraphPictureRoute } from './routes/graph-picture.js';
import { createGraphiteClient } from '../graphite/index.js';
import { createBacktestClient } from '../impact/fetch-window.js';
import { AckChangeLimiter } from './http/ack-change-limiter.js';
import { registerChannelRoutes } from './routes/channels.js';
import { registerDeliveryRoutes } from './routes/deliveries.js';
import { registerHistoryRoutes } from './routes/history.js';
import { registerMuteRoutes } from './routes/mutes.js';
import { registerScheduleRoutes } from './routes/schedules.js';
import { registerWindowRoutes } from './routes/windows.js';
import { registerOverviewGroupsRoute } from './console/overview-groups-route.js';
import type { Store } from './store/store.js';
import { PUBLIC_ONLY, type DestinationPolicy } from './net/destination-policy.js';
import { DEFAULT_QUOTAS, type Quotas } from './quotas.js';
import type { ServerMetrics } from './metrics.js';
import { checkReadiness, type ReadinessSource } from './readiness.js';
import { EvaluationHealth } from './evaluator/evaluation-health.js';
import { registerOverviewRoute } from './console/overview-route.js';
import { serveConsole } from './console/serve-console.js';
import { recordRequest } from './http/request-record.js';
import { signedLinkPathOf } from './http/signed-link-paths.js';
import { registerScheduledMutesRoute } from './console/scheduled-mutes-route.js';

export interface AppOptions {
  store: Store;
  logger: Logger;
  /** The clock, epoch ms (tests move it to expire mutes). */
  now?: () => number;
  /** Where channel destinations may lead; default public addresses only. */
  destinations?: DestinationPolicy;
  /** The Graphite the console's graphs read (the evaluator's); without it graphs say there is none. */
  graphiteUrl?: string;
  /** The evaluator's settle delay (seconds), which graphs show as "not yet judged"; default DEFAULT_SETTLE_SECONDS. */
  settleDelaySeconds?: number;
  /** Per-account limits; default DEFAULT_QUOTAS. */
  quotas?: Partial<Quotas>;
  /** How failed authentications (wrong API keys, forged link tokens) are slowed (default: 20 per address per minute, then 429). */
  authFailures?: FailureLimitOptions;
  /** Observes every request and serves GET /metrics; without it there is no /metrics. */
  metrics?: ServerMetrics;
  /** When set, GET /metrics needs `Authorization: Bearer <this>` (its figures span every account). */
  metricsToken?: string;
  /** The background services' part of /readyz (the store is always checked). */
  readiness?: ReadinessSource;
  /** Whether evaluation works (GET /healthz/evaluation, the alerts' `state`); default: nothing evaluates. */
  evaluation?: EvaluationHealth;
  /** Serve the web console at / (default true). */
  console?: boolean;
}

/** The server's request handling: the Koa app, and the fast path for cached reads in front of it. */
export interface Api {
  app: Koa;
  /** Answers a cached read of one alert without Koa, or leaves the request untouched (http/cached-read.ts). */
  cachedRead: CachedRead;
  /** What the HTTP server calls: `cachedRead`, else the Koa app. */
  listener: RequestListener;
  /** The per-account limits every create checks, read at each request: a reload changes them in place. */
  quotas: Quotas;
}

/** The Koa app of the /v2 API on a store: errors, request log, open endpoints, then auth and the routes. */
export function createApp(options: AppOptions): Koa {
  return createApi(options).app;
}

/** The app and, sharing its key and read caches, the fast path for cached reads. */
export function createApi(options: AppOptions): Api {
  const { store, logger } = options;
  const accounts = createAccountCache(store);
  // One count of failed credentials per address: wrong API keys and forged link tokens alike.
  const failures = createFailureLimiter(options.authFailures);
  const deps = {
    store,
    verifyLink: signedLinks(store, failures),
    now: options.now ?? Date.now,
    destinations: options.destinations ?? PUBLIC_ONLY,
    quotas: { ...DEFAULT_QUOTAS, ...options.quotas },
    // The evaluator's limits: a graph reads no more than a cycle would, and times out as a cycle does.
    graphite: options.graphiteUrl ? createGraphiteClient({ baseUrl: options.graphiteUrl, timeoutMs: 10_000 }) : null,
    backtestGraphite: options.graphiteUrl ? createBacktestClient(options.graphiteUrl) : null,
    settleSeconds: options.settleDelaySeconds ?? DEFAULT_SETTLE_SECONDS,
    alertReads: createAlertReadCache(store),
    ackChanges: new AckChangeLimiter(options.now ?? Date.now),
    evaluation: options.evaluation ?? new EvaluationHealth({ evaluating: false }),
  };
  const app = new Koa();
  app.proxy = false;
  // Errors are answered by handleErrors; Koa's own logging of them would only duplicate (or leak) them.
  app.silent = true;

  app.use(async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      recordRequest(logger, options.metrics, {
        method: ctx.method,
        path: ctx.path,
        route: typeof route === 'string' ? route : 'unmatched',
        status: ctx.status,
        ms: performance.now() - started,
      });
    }
  });
  app.use(handleErrors(logger));

  const open = new Router();
  open.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  open.get('/readyz', async (ctx) => {
    const report = await checkReadiness(store, options.readiness);
    ctx.status = report.status === 'ready' ? 200 : 503;
    ctx.body = report;
  });
  // Evaluation health, apart from readiness: a replica whose Graphite is down still serves the API and the console.
  open.get('/healthz/evaluation', (ctx) => {
    const report = deps.evaluation.report();
    ctx.status = report.healthy ? 200 : 503;
    ctx.body = report;
  });
  const metrics = options.metrics;
  if (metrics) {
    const tokenHash = options.metricsToken ? hashApiKey(options.metricsToken) : null;
    open.get('/metrics', async (ctx) => {
      if (tokenHash) {
        const given = /^Bearer\s+(.+)$/i.exec(ctx.get('Authorization'))?.[1]?.trim();
        if (!given || !hashesEqual(hashApiKey(given), tokenHash)) {
          ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
          throw new HttpError('unauthorized', 'GET /metrics needs the metrics token (Authorization: Bearer ...)');
        }
      }
      ctx.type = metrics.registry.contentType;
      ctx.body = await metrics.render();
    });
  }
  registerGraphPictureRoute(open, deps);
  registerAckLinkRoutes(open, deps);
  let openapi: unknown;
  open.get('/v2/openapi.json', (ctx) => {
    openapi ??= buildOpenApiDocument();
    ctx.body = openapi;
  });
  const openRoutes = open.routes();
  const consoleFiles = options.console !== false ? serveConsole() : null;

  const apiOptions = { strict: false };
  const api = new Router(apiOptions);
  // Paths without the trailing slash match with or without it. Fixed segments (history, muted) before the :id routes that would otherwise swallow them.
  registerHistoryRoutes(api, deps);
  registerOverviewRoute(api, deps);
  registerOverviewGroupsRoute(api, deps);
  registerScheduledMutesRoute(api, deps);
  registerMuteRoutes(api, deps);
  registerAckRoutes(api, deps);
  registerAlertRoutes(api, deps);
  registerAlertConsoleRoutes(api, deps);
  registerChannelRoutes(api, deps);
  registerScheduleRoutes(api, deps);
  registerWindowRoutes(api, deps);
  registerDeliveryRoutes(api, deps);
  const requireKey = authenticate(store, failures, accounts);
  const routes = segmentRoutes(api, apiOptions);
  // Everything under /v2 but the open endpoints needs a key, even a path that does not exist.
  const keyed = (ctx: Koa.Context, next: Koa.Next) => requireKey(ctx, () => routes(ctx as never, next));
  // One dispatch instead of a chain of routers: a /v2 request goes straight to the key check and the API's
  // router, without walking the open routes and the console (measured: each router costs a match over its routes
  // and a per-request middleware chain). What answers a request is unchanged: paths outside /v2 see the open
  // routes, then the console; the few /v2 paths an open route can match (case-insensitively, as the router
  // matches) see the open routes first and fall through to the key check when none answers, as before.
  app.use((ctx, next) => {
    const path = ctx.path;
    if (path !== '/v2' && !path.startsWith('/v2/')) {
      return openRoutes(ctx as never, consoleFiles ? () => consoleFiles(ctx, next) : next);
    }
    if (isOpenUnderV2(path)) return openRoutes(ctx as never, () => keyed(ctx, next));
    return keyed(ctx, next);
  });
  const cachedRead = cachedReads({ accounts, alerts: deps.alertReads, now: deps.now, logger, evaluation: deps.evaluation, ...(metrics ? { metrics } : {}) });
  const koa = app.callback();
  return { app, cachedRead, listener: (req, res) => void (cachedRead(req, res) || koa(req, res)), quotas: deps.quotas };
}

/** The /v2 paths an open route (the OpenAPI document, graph pictures, acknowledgement links) may match. */
function isOpenUnderV2(path: string): boolean {
  return path.slice(0, 16).toLowerCase() === '/v2/openapi.json' || signedLinkPathOf(path) !== undefined;
}
