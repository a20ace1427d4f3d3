import type { ApiErrorCode } from '../model/types.js';
import type { FieldProblem } from '../model/schemas.js';

/**
 * The one catalogue of the server's error codes: each code's usual HTTP status and its default message.
 * A route may answer a code with another status where the seed's Errors table says so (delete of a missing
 * alert is 400, read of a missing channel is 400, an invalid channel create is 404): the code still says what
 * really happened, the status is what the documented API promises.
 */
export const ERROR_CATALOGUE: Readonly<Record<ApiErrorCode, { status: number; message: string }>> = {
  unauthorized: { status: 401, message: 'missing or unknown API key' },
  not_found: { status: 404, message: 'not found' },
  invalid_body: { status: 400, message: 'invalid request body' },
  invalid_query: { status: 400, message: 'invalid query parameters' },
  conflict: { status: 409, message: 'already exists' },
  payload_too_large: { status: 413, message: 'request body too large' },
  quota_exceeded: { status: 403, message: 'the account has reached a limit set by the operator' },
  rate_limited: { status: 429, message: 'too many failed attempts; retry later' },
  internal: { status: 500, message: 'internal error' },
  // The database cannot be reached right now; the request may be retried (Retry-After says when).
  unavailable: { status: 503, message: 'the database is unavailable, retry shortly' },
};

/** At most this many field problems are listed in an error body; `details_total` then says how many there were. */
export const MAX_DETAILS = 100;
/** The longest path or message an error body carries: anything a client sent is echoed at most this long. */
export const MAX_ECHO_CHARS = 200;

/** A value from the request, cut to MAX_ECHO_CHARS (JSON-quoted when `quote`) so an error never echoes it whole. */
export function echo(value: string, quote = true): string {
  const cut = value.length > MAX_ECHO_CHARS ? `${value.slice(0, MAX_ECHO_CHARS)}…` : value;
  return quote ? `"${cut}"` : cut;
}

/** An error the server answers on purpose: status, code, a message safe to show, and the fields at fault. */
export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    message?: string,
    options: { status?: number; details?: FieldProblem[]; cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(capText(message ?? ERROR_CATALOGUE[code].message, 4 * MAX_ECHO_CHARS), { cause: options.cause });
    this.name = 'HttpError';
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    this.retryAfterSeconds = options.retryAfterSeconds;
    // Bounded whatever the caller passed: the first MAX_DETAILS problems, each cut short, and the true count.
    const details = options.details;
    this.detailsTotal = details?.length ?? 0;
    this.details = details?.slice(0, MAX_DETAILS).map((problem) => ({
      path: capText(problem.path, MAX_ECHO_CHARS),
      message: capText(problem.message, 2 * MAX_ECHO_CHARS),
    }));
  }
  readonly details: FieldProblem[] | undefined;
  /** When to try again (the Retry-After header), for a limit that frees itself. */
  readonly retryAfterSeconds: number | undefined;
  /** How many problems there were, listed or not. */
  readonly detailsTotal: number;

  /**
   * The JSON body of the response, as ../shared/design/api-semantics.md specifies it; `details_total` is added
   * when details were cut to the first MAX_DETAILS.
   */
  toBody(): { error: { code: ApiErrorCode; message: string; details?: FieldProblem[]; details_total?: number } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details && this.details.length > 0 ? { details: this.details } : {}),
        ...(this.detailsTotal > MAX_DETAILS ? { details_total: this.detailsTotal } : {}),
      },
    };
  }
}

function capText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A body that fails validation, with one problem per field. */
export function invalidBody(details: FieldProblem[], status?: number): HttpError {
  const first = details[0];
  const message = first ? `${first.path || 'body'}: ${first.message}` : ERROR_CATALOGUE.invalid_body.message;
  return new HttpError('invalid_body', message, { details, ...(status ? { status } : {}) });
}

/** Query parameters that fail validation, with one problem per parameter. */
export function invalidQuery(details: FieldProblem[]): HttpError {
  const first = details[0];
  const message = first ? `${first.path}: ${first.message}` : ERROR_CATALOGUE.invalid_query.message;
  return new HttpError('invalid_query', message, { details });
}

/** A missing resource (or one of another account, which to this account does not exist). */
export function notFound(what: string, status?: number): HttpError {
  return new HttpError('not_found', `${what} does not exist`, status ? { status } : {});
}

/** A unique name already used in this account. */
export function conflict(field: string, value: string, status?: number): HttpError {
  return new HttpError('conflict', `${field} ${echo(value)} already exists`, {
    details: [{ path: field, message: 'already exists' }],
    ...(status ? { status } : {}),
  });
}
