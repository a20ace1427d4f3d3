import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { AccountCache } from './account-cache.js';
import type { AlertReadCache } from './alert-read-cache.js';
import type { ServerMetrics } from '../metrics.js';
import { JSON_TYPE, alertJson } from '../routes/alert-json.js';
import { recordRequest } from './request-record.js';
import type { EvaluationHealth } from '../evaluator/evaluation-health.js';

/** Answers a request itself (true) or leaves it, untouched, to the Koa app (false). */
export type CachedRead = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface CachedReadDeps {
  /** The key check's cache (http/authenticate.ts uses the same one). */
  accounts: Pick<AccountCache, 'findByHeader'>;
  /** The alert read cache the Koa route reads through. */
  alerts: Pick<AlertReadCache, 'peekAlert'>;
  /** The app's clock (muted and acknowledged depend on it). */
  now: () => number;
  /** Whether anything evaluates the alerts (their `state`), when known without waiting. */
  evaluation: Pick<EvaluationHealth, 'evaluatingKnown'> & { evaluatedBy?: EvaluationHealth['evaluatedBy'] };
  logger: Logger;
  metrics?: ServerMetrics;
}

/** The one request answered here: GET /v2/alerts/<id> with or without the trailing slash, lower case, no query. */
const ALERT_PATH = /^\/v2\/alerts\/([0-9a-f]{32})\/?$/;

/** The route pattern the Koa path reports to the request histogram for the same request. */
const ALERT_ROUTE = '/v2/alerts/:id';

/**
 * Why this exists: a read of one cached alert through Koa spent more time in Koa's per-request context, its
 * middleware chain, @koa/router's matching and the error handler than in anything of its own, and stayed at
 * 47% of bare Koa's throughput on a quiet machine (the goal: 70%). Measured (docs/benchmarks.md, bench:server): 69-98 µs of server CPU per read through Koa, 39-46 µs through this path, bare Koa 41-58 µs. This
 * answers the hottest read, GET of one alert, before Koa, but only when everything the Koa route would look up is
 * already in memory and current:
 * - the Authorization header is one the key check has just accepted (AccountCache.findByHeader: emptied on any
 *   account or key change, so a revoked key goes to Koa, and to its 401, at once);
 * - the alert read cache holds the record for this account and id (emptied on any alert write, so a mute, an
 *   update or a delete is seen by the next read), and the record has no scheduled mute (those need the schedules
 *   from the store);
 * - the request is a plain GET: exact lower-case path, no query string, no request body.
 * Then the answer is what the Koa route gives, made by the same function (routes/alert-json.ts): status 200,
 * the same two headers in the same order (Node adds Date, Connection and Keep-Alive to both alike), the same
 * bytes; the same request log line and histogram observation as app.ts's first middleware (one function, request-record.ts). Anything else,
 * including an account's miss or another account's id, goes to Koa, which alone answers errors (404, 401, 429).
 */
export function cachedReads(deps: CachedReadDeps): CachedRead {
  const { accounts, alerts, now, logger, metrics, evaluation } = deps;
  /** The JSON text Koa's route would answer, or undefined: not all of it is in memory (or making it failed). */
  function answerOf(header: string, id: string): string | undefined {
    try {
      const account = accounts.findByHeader(header);
      if (!account) return undefined;
      const alert = alerts.peekAlert(account.id, id);
      if (!alert || alert.scheduledMutes.length > 0) return undefined;
      const evaluating = evaluation.evaluatingKnown();
      if (evaluating === undefined) return undefined;
      return alertJson(alert, [], now(), evaluating, evaluation.evaluatedBy ? evaluation.evaluatedBy(alert) : 'render');
    } catch {
      // Nothing is written yet: Koa's route meets the same failure and handle-errors answers and logs it, as for any read.
      return undefined;
    }
  }
  return (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || !url.startsWith('/v2/alerts/')) return false;
    const id = ALERT_PATH.exec(url)?.[1];
    if (id === undefined) return false;
    const headers = req.headers;
    // A GET with a body is legal but odd: Koa's path ignores it; leave such requests to Koa rather than reason about it.
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const header = headers.authorization;
    if (!header) return false;
    const started = performance.now();
    const json = answerOf(header, id);
    if (json === undefined) return false;
    // The Koa path logs and observes once its middleware is done, just before the answer is written: so does this.
    recordRequest(logger, metrics, { method: 'GET', path: url, route: ALERT_ROUTE, status: 200, ms: performance.now() - started });
    res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(json) });
    res.end(json);
    return true;
  };
}
