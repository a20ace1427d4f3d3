import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { HttpError } from '../errors.js';
import { StoreUnavailable } from '../store/store.js';
import { loggablePath } from './signed-link-paths.js';

/**
 * The one place that turns failures into responses: an HttpError answers with its status and JSON body; any
 * unreachable database (StoreUnavailable) answers 503 `unavailable` with Retry-After; any other exception is logged
 * (message and stack, never request headers) and answered 500 `internal` without details, so that nothing
 * internal leaks. A database whose disk is full (SQLite's SQLITE_FULL, PostgreSQL's 53100 disk_full) answers 507
 * Insufficient Storage, code `unavailable`, with a message that says so.
 */
export function handleErrors(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new HttpError('not_found', `no endpoint ${ctx.method} ${ctx.path}`);
      }
    } catch (caught) {
      const error = toHttpError(caught, logger, ctx);
      ctx.status = error.status;
      ctx.body = error.toBody();
      // A route may have named its own scheme (/metrics: Bearer); the API's is Basic.
      if (error.status === 401 && !ctx.response.get('WWW-Authenticate')) ctx.set('WWW-Authenticate', 'Basic realm="alertform"');
      if (error.status === 413) ctx.set('Connection', 'close');
      if (error.code === 'unavailable') ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
      if (error.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
    }
  };
}

/** What a client told `unavailable` should wait: a database restart or failover takes seconds. */
const RETRY_AFTER_SECONDS = 2;

function toHttpError(caught: unknown, logger: Logger, ctx: Context): HttpError {
  if (caught instanceof HttpError) return caught;
  if (isStorageFull(caught)) {
    // Nothing is written, and what was acknowledged before stays: the write may be retried once space is freed.
    logger.error({ method: ctx.method, path: loggablePath(ctx.path), cause: (caught as Error).message }, 'database disk full: writes refused');
    return new HttpError('unavailable', 'the database has no space left on its disk: writes are refused until space is freed', { status: 507 });
  }
  if (caught instanceof StoreUnavailable) {
    // The cause's message (ECONNREFUSED, "terminating connection") says why; it never holds the database URL.
    logger.warn({ method: ctx.method, path: loggablePath(ctx.path), cause: (caught.cause as Error | undefined)?.message }, 'database unavailable');
    return new HttpError('unavailable');
  }
  // Koa/router HTTP errors meant for the client (e.g. 405) keep their status, with the closest code.
  const status = (caught as { status?: unknown; expose?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && (caught as { expose?: boolean }).expose) {
    return new HttpError(status === 413 ? 'payload_too_large' : 'invalid_body', (caught as Error).message, { status });
  }
  logger.error({ err: caught, method: ctx.method, path: loggablePath(ctx.path) }, 'unexpected error');
  return new HttpError('internal');
}

/** SQLite (SQLITE_FULL: the file system said ENOSPC) or PostgreSQL (53100 disk_full) could not write for want of space. */
function isStorageFull(caught: unknown): boolean {
  const code = (caught as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === '53100';
}
