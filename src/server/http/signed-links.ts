import type { Context } from 'koa';
import { HttpError, notFound } from '../errors.js';
import { GraphLinkSigner } from '../graph/graph-links.js';
import type { Store } from '../store/store.js';
import type { FailureLimiter } from './failure-limiter.js';

/** A token's check by one kind of link: its claims, or why it is refused. */
export type LinkCheck<Claims> = { ok: true; claims: Claims } | { ok: false; reason: 'invalid' | 'expired' };

/** What a refused link is called in its 404 and 410 answers ("graph", "acknowledgement link"). */
export interface LinkKind {
  notFound: string;
  expired: string;
}

/**
 * The open routes' signed links (graph pictures, one-click acknowledgements): the server's signer, loaded once, and
 * the address's count of tokens that do not verify. The token is the only credential of these routes, so a forged
 * one counts as a wrong API key does (the same limiter): past the limit the address's bad tokens are answered 429
 * with Retry-After until the window ends, while a token that verifies always goes through (a shared NAT is not
 * locked out of its own pages). Guessing an HMAC-SHA256 is hopeless anyway; the limit keeps a scanner from turning
 * the open routes into free signature checks at full speed. Expired links are not counted: they are real links
 * found in old mail.
 */
export function signedLinks(store: Store, limiter: FailureLimiter) {
  let signer: Promise<GraphLinkSigner> | undefined;
  const loadSigner = () =>
    (signer ??= GraphLinkSigner.load(store).catch((error: unknown) => {
      signer = undefined;
      throw error;
    }));

  /** The claims of `token` by `verify` at `now` (ms); throws 429, 404 or 410 otherwise. */
  return async function verifyLink<Claims>(
    ctx: Context,
    token: string,
    now: number,
    verify: (signer: GraphLinkSigner, token: string, nowSeconds: number) => LinkCheck<Claims>,
    kind: LinkKind,
  ): Promise<Claims> {
    const check = verify(await loadSigner(), token, Math.floor(now / 1000));
    if (check.ok) return check.claims;
    const address = ctx.socket.remoteAddress ?? '';
    const wait = limiter.retryAfterSeconds(address);
    if (wait > 0) {
      ctx.set('Retry-After', String(wait));
      throw new HttpError('rate_limited', `too many invalid links from this address; retry in ${wait} s`);
    }
    if (check.reason === 'expired') throw new HttpError('not_found', kind.expired, { status: 410 });
    limiter.recordFailure(address);
    throw notFound(kind.notFound);
  };
}

export type VerifyLink = ReturnType<typeof signedLinks>;
