import { AlertformError } from '../model/errors.js';

/**
 * An HTTP answer that was not a success: carries the status and the parsed body (our server's `{error}` shape).
 * Named apart from the server's HttpError: this one is an answer received, that one an answer sent.
 */
export class ApiResponseError extends AlertformError {
  /** Whether the request carried an API key (set by the client that sent it): a 401 without one is a missing key. */
  keySent?: boolean;

  constructor(
    readonly method: string,
    /** The request URL without credentials. */
    readonly url: string,
    readonly status: number,
    readonly body: unknown,
    options?: { cause?: unknown },
  ) {
    super('api_response', `${method} ${url} answered ${status}${describeBody(body)}`, options);
  }

  /** The `error.code` of our server's error body, when there is one. */
  get serverCode(): string | undefined {
    const error = (this.body as { error?: { code?: unknown } } | null)?.error;
    return typeof error?.code === 'string' ? error.code : undefined;
  }
}

/** No answer at all: refused, reset, DNS, or timed out. The request may or may not have reached the server. */
export class ConnectionError extends AlertformError {
  /** Nothing listened at the address (ECONNREFUSED): the request never reached a server. */
  readonly refused: boolean;
  /**
   * fetch itself refused the port (the WHATWG fetch standard's "bad ports": 1, 9, 6000, 6667 and others, which
   * browsers and Node never connect to): no retry, and no address change of the server's, would make it answer.
   */
  readonly blockedPort: boolean;

  constructor(
    readonly method: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    // The innermost cause says what happened: ky's NetworkError wraps fetch's "fetch failed", which wraps the
    // socket's error (ECONNREFUSED; an AggregateError of two refused addresses has only its code to say).
    const chain: unknown[] = [];
    for (let cause = options?.cause; cause !== undefined && cause !== null && !chain.includes(cause); cause = (cause as { cause?: unknown }).cause) chain.push(cause);
    const said = chain.reverse().map((cause) => (cause instanceof Error ? cause.message || (cause as NodeJS.ErrnoException).code : undefined)).find(Boolean);
    const detail = said ?? String(options?.cause);
    super('connection_failed', `${method} ${url} got no answer: ${detail}`, options);
    this.refused = chain.some((cause) => (cause as NodeJS.ErrnoException | null)?.code === 'ECONNREFUSED');
    this.blockedPort = chain.some((cause) => cause instanceof Error && cause.message === 'bad port');
  }
}

function describeBody(body: unknown): string {
  if (body === undefined || body === null || body === '') return '';
  const error = (body as { error?: { message?: unknown; details?: { path: string; message: string }[] } }).error;
  if (error && typeof error.message === 'string') {
    const details = (error.details ?? []).map((d) => `${d.path}: ${d.message}`).join('; ');
    return `: ${error.message}${details ? ` (${details})` : ''}`;
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/**
 * Not found, as either service says it: the seed documents 400 for some missing objects (deleting an alert,
 * reading a channel) and 404 for others.
 */
export function isNotFound(error: unknown): boolean {
  if (!(error instanceof ApiResponseError)) return false;
  const code = error.serverCode;
  if (error.status === 404) return code === undefined || code === 'not_found';
  return error.status === 400 && (code === undefined || code === 'not_found');
}

/**
 * Worth retrying: no answer, rate limited, or a server-side failure. Not a connection refused on this machine:
 * nothing listens there (`alertform serve` is not running), and a few seconds of retries would not start it; a
 * remote server that refuses may be restarting behind its address, and is retried. Nor a port fetch never connects
 * to.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError) return !error.blockedPort && !(error.refused && isLoopbackUrl(error.url));
  return error instanceof ApiResponseError && (error.status === 429 || error.status >= 500);
}

/** True when `url`'s host is this machine: localhost (and *.localhost), 127.0.0.0/8 or ::1. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}
