import ky, { type KyInstance } from 'ky';
import { AnswerTooLargeError, maxAnswerBytes, readCappedText } from './capped-answer.js';
import { ApiResponseError, ConnectionError, isTransient } from './errors.js';
import type { Connection } from './connection.js';
import { runScoped } from '../run-scope.js';

/** How requests are retried. Delays are injectable so tests run fast. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 4). */
  retries: number;
  /** Delay before retry number `attempt` (1-based), in ms: exponential with a cap by default. */
  backoff: (attempt: number) => number;
  /** Upper bound of a Retry-After we honour, in ms (default 60 s). */
  maxRetryAfterMs: number;
  sleep: (ms: number) => Promise<void>;
  /** Told before each retry's wait; by default one line on stderr, so a slow failure is never a silent one. */
  onRetry: (notice: RetryNotice) => void;
}

/** What is being retried, and when. */
export interface RetryNotice {
  /** `GET http://host/v2/alerts` (never the key: URLs here carry no credentials). */
  request: string;
  /** Why: `got no answer: connect ECONNREFUSED 127.0.0.1:9`, `answered 503`. */
  reason: string;
  /** 1-based retry number, and how many there may be. */
  attempt: number;
  retries: number;
  delayMs: number;
}

/** `alertform: GET http://127.0.0.1:9/v2/alerts got no answer (connect ECONNREFUSED ...); retry 1 of 4 in 0.3 s` */
export function describeRetry(notice: RetryNotice): string {
  return `alertform: ${notice.request} ${notice.reason}; retry ${notice.attempt} of ${notice.retries} in ${(notice.delayMs / 1000).toFixed(1)} s\n`;
}

/** A notice for a failed attempt, from the error it threw. */
export function retryNoticeOf(error: unknown, attempt: number, retries: number, delayMs: number): RetryNotice {
  const { method, url } = error as { method?: string; url?: string };
  const message = error instanceof Error ? error.message : String(error);
  // The error's message starts with `METHOD URL`; the rest is the reason.
  const request = method && url ? `${method} ${url}` : 'a request';
  const reason = method && url && message.startsWith(request) ? message.slice(request.length + 1) : message;
  return { request, reason: reason.length > 200 ? `${reason.slice(0, 200)}…` : reason, attempt, retries, delayMs };
}

export interface HttpOptions {
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout in ms (default 30 s). */
  timeoutMs?: number;
  /** Injected fetch, for tests. */
  fetch?: typeof fetch;
  /** The most bytes one answer may have (default: maxAnswerBytes(), 64 MiB unless ALERTFORM_MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
}

export interface RequestOptions {
  json?: unknown;
  searchParams?: URLSearchParams;
  /** Retry transient failures (GET, PUT, DELETE, mutes). Creates pass false and check by name themselves. */
  idempotent: boolean;
  /** Extra request headers (e.g. the managed-from-git marker on apply's alert writes). */
  headers?: Record<string, string>;
  /** Gives the request up (a read started ahead of time that is no longer wanted). */
  signal?: AbortSignal;
}

export const defaultRetryPolicy: RetryPolicy = {
  retries: 4,
  backoff: (attempt) => Math.min(250 * 2 ** (attempt - 1), 8000),
  maxRetryAfterMs: 60_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  onRetry: (notice) => announceRetry(notice, (line) => process.stderr.write(line)),
};

const announced = runScoped(new Set<string>());

/**
 * Says a server is being retried once per run, server and reason, with the count, not once per retry of
 * every request: a plan reads three lists at once, and an unreachable server used to print twelve lines. The
 * final failure says how many retries it took (HttpClient.request).
 */
export function announceRetry(notice: RetryNotice, write: (line: string) => void, seen: Set<string> = announced): void {
  const [, url = ''] = notice.request.split(' ');
  let origin = notice.request;
  try {
    origin = new URL(url).origin;
  } catch {
    // Not a URL ('a request'): the whole text is the key.
  }
  const key = `${origin} ${notice.reason}`;
  if (seen.has(key)) return;
  seen.add(key);
  write(`alertform: ${notice.request} ${notice.reason}; retrying (up to ${notice.retries} times per request)\n`);
}

/**
 * JSON over HTTP on ky, with our own retry loop and errors with status + body. Why not ky's own `retry` (which
 * reads Retry-After too): a create is retried only after looking the object up by name (api.ts createOnce), a step
 * ky's retry has no place for, so one loop serves both kinds of request with the same delays; and the wait goes
 * through `RetryPolicy.sleep`, which the fault-injection suites (test/reliability, faulty-proxy) replace to run
 * hundreds of retries in seconds and to assert the Retry-After they were told. ky sleeps on a timer of its own.
 */
export class HttpClient {
  readonly retry: RetryPolicy;
  private readonly ky: KyInstance;
  private readonly maxAnswerBytes: number;

  constructor(
    readonly connection: Connection,
    options: HttpOptions = {},
  ) {
    this.retry = { ...defaultRetryPolicy, ...options.retry };
    this.maxAnswerBytes = options.maxAnswerBytes ?? maxAnswerBytes();
    this.ky = ky.create({
      prefix: connection.baseUrl,
      headers: { accept: 'application/json', ...(connection.authorization ? { authorization: connection.authorization } : {}) },
      retry: 0,
      throwHttpErrors: false,
      timeout: options.timeoutMs ?? 30_000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** One attempt: resolves with the parsed body of a 2xx, throws ApiResponseError or ConnectionError otherwise. */
  async once<T>(method: string, path: string, options: Omit<RequestOptions, 'idempotent'> = {}): Promise<T> {
    const url = `${this.connection.baseUrl}/${path}${options.searchParams?.size ? `?${options.searchParams}` : ''}`;
    let response: Response;
    try {
      response = await this.ky(path, {
        method,
        ...(options.json !== undefined ? { json: options.json } : {}),
        ...(options.searchParams ? { searchParams: options.searchParams } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throw new ConnectionError(method, url, { cause: error });
    }
    let text: string;
    try {
      text = await readCappedText(response, this.maxAnswerBytes, { method, url });
    } catch (error) {
      // Too large is an answer, not a failure to get one: never retried (it would be the same answer again).
      if (error instanceof AnswerTooLargeError) throw error;
      throw new ConnectionError(method, url, { cause: error });
    }
    let body: unknown = text;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON (a proxy's HTML page, say): keep the text for the error message.
      }
    }
    if (!response.ok) {
      const error = new ApiResponseError(method, url, response.status, body);
      error.keySent = this.connection.authorization !== undefined;
      (error as ApiResponseError & { retryAfterMs?: number }).retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      throw error;
    }
    return body as T;
  }

  /** A request retried on transient failures when it is idempotent, honouring Retry-After on 429/503. */
  async request<T>(method: string, path: string, options: RequestOptions): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.once<T>(method, path, options);
      } catch (error) {
        // A request given up by its caller is not retried (nor announced as a retry).
        if (!options.idempotent || !isTransient(error) || attempt >= this.retry.retries || options.signal?.aborted) {
          if (attempt > 0 && error instanceof Error && !options.signal?.aborted) error.message += ` (gave up after ${attempt} ${attempt === 1 ? 'retry' : 'retries'})`;
          throw error;
        }
        await this.waitToRetry(error, attempt + 1, options.signal);
      }
    }
  }

  /** Says what is retried, then waits before retry `attempt`, or less when `signal` gives the request up. */
  async waitToRetry(error: unknown, attempt: number, signal?: AbortSignal): Promise<void> {
    const delayMs = this.delayFor(error, attempt);
    this.retry.onRetry(retryNoticeOf(error, attempt, this.retry.retries, delayMs));
    await untilAborted(this.retry.sleep(delayMs), signal);
  }

  /** The wait before retry `attempt`: the server's Retry-After when it gave one, else the backoff. */
  delayFor(error: unknown, attempt: number): number {
    const retryAfter = (error as { retryAfterMs?: number }).retryAfterMs;
    if (retryAfter !== undefined) return Math.min(retryAfter, this.retry.maxRetryAfterMs);
    return this.retry.backoff(attempt);
  }
}

/** `wait`, cut short when `signal` aborts (the attempt after it then fails at once, and is not retried). */
function untilAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return wait;
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    if (signal.aborted) done();
    void wait.then(done, done);
  });
}

/** Retry-After as seconds or an HTTP date, in ms. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
