// @ts-check
/**
 * The console's only way to the server: the /v2 API with the API key as a Bearer header. The key lives in
 * sessionStorage (this tab only, gone when it closes); it is never put in a URL or a cookie, so there is no
 * ambient credential for another site to ride on (no CSRF surface).
 */

const KEY_NAME = 'alertform.apiKey';

/** @returns {string | null} */
export function storedKey() {
  return sessionStorage.getItem(KEY_NAME);
}

/** @param {string} key */
export function storeKey(key) {
  sessionStorage.setItem(KEY_NAME, key);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY_NAME);
}

/** An error answer of the API: status, code and the server's message. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * One API request; resolves with the parsed JSON body, rejects with ApiError. A 401 forgets the key and tells the
 * app (event `alertform:signed-out`), which shows the sign-in form again.
 * @param {string} path
 * @param {{ method?: string, body?: unknown, key?: string }} [options]
 * @returns {Promise<any>}
 */
export async function api(path, options = {}) {
  const key = options.key ?? storedKey();
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: 'omit',
    cache: 'no-store',
  });
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    if (response.status === 401 && !options.key) {
      forgetKey();
      window.dispatchEvent(new Event('alertform:signed-out'));
    }
    const error = body?.error ?? {};
    throw new ApiError(response.status, error.code ?? 'http_error', error.message ?? `HTTP ${response.status}`);
  }
  return body;
}
