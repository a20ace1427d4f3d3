import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { startServer, type ServerOptions } from '../../src/server/index.js';
import type { Store } from '../../src/server/store/store.js';

/** A response as the tests look at it: status, parsed JSON body (or the raw text), headers. */
export interface TestResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  /** The key to send (Basic, as `http://KEY@host` does); null sends none. Default: the server's first key. */
  key?: string | null;
  /** Send the key as a Bearer token instead of Basic. */
  bearer?: boolean;
  headers?: Record<string, string>;
}

export interface TestServer {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** The first API key (an account of its own). */
  key: string;
  /** Every key given or made, each its own account. */
  keys: string[];
  /** http://KEY@127.0.0.1:PORT: the first key as URL user-info, as the seed's clients use it. */
  authUrl: string;
  store: Store;
  /**
   * One request to the server. `body` is sent as JSON (a string is sent as it is, for malformed-body tests).
   * Never throws on a status: look at `status`.
   */
  request<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

/**
 * Starts the real server on 127.0.0.1, port 0, with an in-memory database (or `db`) and the given keys (default:
 * one random key). The logger is silent unless ALERTFORM_TEST_LOG is set.
 */
export async function startTestServer(
  options: { keys?: string[]; db?: string } & Omit<ServerOptions, 'host' | 'port' | 'apiKeys' | 'db'> = {},
): Promise<TestServer> {
  const keys = options.keys && options.keys.length > 0 ? options.keys : [randomBytes(24).toString('base64url')];
  const { keys: _keys, ...rest } = options;
  const running = await startServer({
    logger: pino({ level: process.env.ALERTFORM_TEST_LOG ?? 'silent' }),
    // Tests write the points they judge, complete: no settle delay unless a test asks for one.
    settleDelaySeconds: 0,
    ...rest,
    host: '127.0.0.1',
    port: 0,
    db: options.db ?? ':memory:',
    apiKeys: keys,
  });
  const key = keys[0]!;
  return {
    url: running.url,
    port: running.port,
    key,
    keys,
    authUrl: `http://${encodeURIComponent(key)}@127.0.0.1:${running.port}`,
    store: running.store,
    request: (method, path, body, requestOptions) => sendRequest(running.url, key, method, path, body, requestOptions),
    close: running.close,
  };
}

/** One request against any server speaking the API (also used by the conformance suite). */
export async function sendRequest<T = any>(
  baseUrl: string,
  defaultKey: string | null,
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<TestResponse<T>> {
  const key = options.key === undefined ? defaultKey : options.key;
  const headers: Record<string, string> = { ...options.headers };
  if (key !== null) {
    headers.authorization = options.bearer
      ? `Bearer ${key}`
      : `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
  }
  let payload: string | undefined;
  if (body !== undefined) {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl.replace(/\/$/, '')}${path}`, { method, headers, body: payload });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: the test sees the text.
  }
  return { status: response.status, body: parsed as T, text, headers: response.headers };
}
