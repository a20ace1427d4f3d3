import type { Context, Next } from 'koa';
import { HttpError } from '../errors.js';
import { createFailureLimiter, type FailureLimiter } from './failure-limiter.js';
import type { AccountRecord, Store } from '../store/store.js';
import { createAccountCache, type AccountCache } from './account-cache.js';

/** The state the auth middleware leaves for the routes. */
export interface AuthState {
  account: AccountRecord;
}

/**
 * The API key from an Authorization header: Basic with the key as user name (what `http://KEY@host/` sends; any
 * password, and the password when the user name is empty) or Bearer. null when there is none.
 */
export function readApiKey(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, ...rest] = header.trim().split(/\s+/);
  const value = rest.join(' ');
  if (!scheme || !value) return null;
  if (scheme.toLowerCase() === 'bearer') return value;
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon < 0 ? decoded : decoded.slice(0, colon);
    const password = colon < 0 ? '' : decoded.slice(colon + 1);
    // User-info in URLs is percent-encoded by clients; keys are base64url, so decoding is harmless.
    const key = user || password;
    try {
      return key ? decodeURIComponent(key) : null;
    } catch {
      return key || null;
    }
  }
  return null;
}

/**
 * Resolves the request's account from its API key; 401 when missing, unknown or revoked. An address with too many
 * 401s in its window is answered 429 with Retry-After for every key that does not authenticate, until the window
 * ends; a key that authenticates is always let through, so people behind one NAT or proxy are not locked out by
 * someone else's wrong keys. Telling a right guess from a wrong one at full speed does not help a guesser: operator
 * keys have at least 24 characters and generated keys 192 random bits. A success does not reset the count.
 */
export function authenticate(
  store: Store,
  limiter: FailureLimiter = createFailureLimiter(),
  accounts: AccountCache = createAccountCache(store),
) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const address = ctx.socket.remoteAddress ?? '';
    const header = ctx.get('Authorization');
    // A header that just authenticated is known as is; any other is read and looked up (failures never cached).
    const known = header ? accounts.findByHeader(header) : undefined;
    if (known) {
      (ctx.state as AuthState).account = known;
      return next();
    }
    const key = readApiKey(header || undefined);
    const account = key ? await accounts.find(key, header) : null;
    if (!account) {
      const wait = limiter.retryAfterSeconds(address);
      if (wait > 0) {
        ctx.set('Retry-After', String(wait));
        throw new HttpError('rate_limited', `too many requests with a wrong API key from this address; retry in ${wait} s`);
      }
      limiter.recordFailure(address);
      throw new HttpError('unauthorized', key ? 'unknown or revoked API key' : 'an API key is required (Basic or Bearer)');
    }
    (ctx.state as AuthState).account = account;
    await next();
  };
}
