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
 * One API request, named by its path in the OpenAPI document (`/v2/alerts/{id}/muted/`) with the path's parameters
 * filled in (encoded) and the query appended; its types (console/api-types.d.ts, from the generated
 * api-schema.d.ts) give the body and the answer, so reading a field the server does not answer fails
 * `npx tsc -p console`. Resolves with the parsed JSON body, rejects with ApiError. A 401 forgets the key and tells
 * the app (event `alertform:signed-out`), which shows the sign-in form again.
 * @template {import('./api-types').ApiPath} P
 * @template {import('./api-types').Method} [M='get']
 * @param {P} path
 * @param {import('./api-types').ApiOptions<P, M>} [options]
 * @returns {Promise<import('./api-types').ApiAnswer<P, M>>}
 */
export async function api(path, options = /** @type {import('./api-types').ApiOptions<P, M>} */ ({})) {
  const key = options.key ?? storedKey();
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(urlOf(path, options.params, options.query), {
    method: (options.method ?? 'get').toUpperCase(),
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

/**
 * The URL of a call: each `{name}` of the path replaced by its parameter, encoded; the query's values appended in
 * order (a list repeats its name), unset ones left out.
 * @param {string} path
 * @param {Record<string, string> | undefined} params
 * @param {Record<string, unknown> | undefined} query
 */
function urlOf(path, params, query) {
  const filled = path.replace(/\{(\w+)\}/g, (_, name) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${path} needs its ${name}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined && one !== '') search.append(name, String(one));
  }
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}
