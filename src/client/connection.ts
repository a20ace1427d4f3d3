import { AlertformError } from '../model/errors.js';
import { redactUrl } from '../redact/redactor.js';
import { parseHttpUrl } from '../model/url.js';

/** Where the API is and how to authenticate, with the key kept out of the URL. */
export interface Connection {
  /** Base URL without user-info and without a trailing slash, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The Authorization header value, or undefined when no key is known. */
  authorization?: string;
}

/**
 * Splits a server URL that may carry the key as user-info (`https://KEY@host`) into a clean base URL and a Basic
 * header: fetch refuses URLs with credentials, and the hosted service reads the key as the Basic user name.
 * An explicit `apiKey` wins over the URL's.
 */
export function parseServerUrl(server: string, apiKey?: string): Connection {
  const url = parseHttpUrl(server);
  if (!url) {
    const protocol = URL.canParse(server) ? new URL(server).protocol : undefined;
    if (protocol && protocol !== 'http:' && protocol !== 'https:') throw new AlertformError('invalid_server_url', `server URL must be http(s), got ${protocol}`);
    throw new AlertformError('invalid_server_url', `invalid server URL "${redactUrl(server)}"`);
  }
  const fromUrl = url.username ? decodeURIComponent(url.username) : undefined;
  url.username = '';
  url.password = '';
  const key = apiKey ?? fromUrl;
  const baseUrl = url.toString().replace(/\/+$/, '');
  return { baseUrl, ...(key ? { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` } : {}) };
}

export { redactUrl } from '../redact/redactor.js';
