import type { Logger } from 'pino';
import { loggablePath } from './signed-link-paths.js';
import type { ServerMetrics } from '../metrics.js';

/** One answered request, as the request log and the request histogram see it. */
export interface AnsweredRequest {
  method: string;
  path: string;
  /** The route pattern (/v2/alerts/:id) or 'unmatched', never the path: ids would make a series per alert. */
  route: string;
  status: number;
  ms: number;
}

/**
 * Records an answered request: its log line and its histogram observation. The one place for both, shared by Koa's
 * first middleware (app.ts) and the cached-read fast path (cached-read.ts), so the two cannot drift apart.
 */
export function recordRequest(logger: Logger, metrics: ServerMetrics | undefined, request: AnsweredRequest): void {
  // Path only (a graph link's token cut): the query may be long, and headers (with the key) are never logged. At
  // debug: an open console tab polls every few seconds, and at info its reads would bury what an operator must see.
  logger.debug({ method: request.method, path: loggablePath(request.path), status: request.status, ms: Math.round(request.ms) }, 'request');
  metrics?.observeRequest(request.method, request.route, request.status, request.ms / 1000);
}
