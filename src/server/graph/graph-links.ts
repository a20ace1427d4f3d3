import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store.js';

/** How long a graph link in a notification works. */
export const GRAPH_LINK_TTL_SECONDS = 30 * 86_400;
/** The name of the signing key in the store's server_secrets (one for every replica on the database). */
const SECRET_NAME = 'graph-link-hmac-v1';

/** What a graph link grants: the picture of one alert around one time, until it expires (unix seconds). */
export interface GraphLinkClaims {
  alertId: string;
  /** The notification's time: the picture ends shortly after it. */
  time: number;
  expires: number;
}

/** Why a link is refused: tampered (or not a link at all) is 404; expired is 410. */
export type GraphLinkCheck = { ok: true; claims: GraphLinkClaims } | { ok: false; reason: 'invalid' | 'expired' };

/** A signed link's own claims checked: the signature held and it has not expired (unix seconds `e`). */
export type SignedClaimsCheck = { ok: true; claims: Record<string, unknown> } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * Signs and checks the server's links (graph pictures, acknowledgement links): `base64url(JSON claims).
 * base64url(HMAC-SHA256)` with a 32-byte key created once and kept in the database. The token is the only
 * credential (no API key in the URL): unguessable, bound to one alert, and expiring (the expiry is inside the signed
 * part). Each kind of link other than the graph's carries its kind (`k`) in the signed part, so a token of one kind
 * never passes as another.
 */
export class GraphLinkSigner {
  private constructor(private readonly key: Buffer) {}

  /** The signer of the server's key, created on first use. */
  static async load(store: Pick<Store, 'console'>): Promise<GraphLinkSigner> {
    const secret = await store.console.getServerSecret(SECRET_NAME, () => randomBytes(32).toString('base64url'));
    return new GraphLinkSigner(Buffer.from(secret, 'base64url'));
  }

  sign(claims: GraphLinkClaims): string {
    return this.signClaims({ a: claims.alertId, t: claims.time, e: claims.expires });
  }

  /** Checks a graph link's token at `now` (unix seconds). */
  verify(token: string, now: number): GraphLinkCheck {
    const check = this.verifyClaims(token, now);
    if (!check.ok) return check;
    const { a, t, e, k } = check.claims;
    if (k !== undefined || typeof a !== 'string' || typeof t !== 'number' || typeof e !== 'number') return { ok: false, reason: 'invalid' };
    return { ok: true, claims: { alertId: a, time: t, expires: e } };
  }

  /** Signs any JSON claims; `e` (unix seconds) is the expiry verifyClaims enforces. */
  signClaims(claims: Record<string, unknown> & { e: number }): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** Checks a token's signature and expiry at `now` (unix seconds) and answers its claims, not yet checked further. */
  verifyClaims(token: string, now: number): SignedClaimsCheck {
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined) return { ok: false, reason: 'invalid' };
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, reason: 'invalid' };
    const claims = parsed as Record<string, unknown>;
    if (typeof claims.e !== 'number') return { ok: false, reason: 'invalid' };
    if (claims.e <= now) return { ok: false, reason: 'expired' };
    return { ok: true, claims };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
