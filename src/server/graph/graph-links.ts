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

/**
 * Signs and checks graph links: `base64url(JSON claims).base64url(HMAC-SHA256)` with a 32-byte key created once and
 * kept in the database. The token is the only credential (no API key in the URL): unguessable, bound to one alert,
 * and expiring (the expiry is inside the signed part).
 */
export class GraphLinkSigner {
  private constructor(private readonly key: Buffer) {}

  /** The signer of the server's key, created on first use. */
  static async load(store: Store): Promise<GraphLinkSigner> {
    const secret = await store.getServerSecret(SECRET_NAME, () => randomBytes(32).toString('base64url'));
    return new GraphLinkSigner(Buffer.from(secret, 'base64url'));
  }

  sign(claims: GraphLinkClaims): string {
    const body = Buffer.from(JSON.stringify({ a: claims.alertId, t: claims.time, e: claims.expires })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** Checks a token at `now` (unix seconds). */
  verify(token: string, now: number): GraphLinkCheck {
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined) return { ok: false, reason: 'invalid' };
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    let parsed: { a?: unknown; t?: unknown; e?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof parsed;
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    if (typeof parsed.a !== 'string' || typeof parsed.t !== 'number' || typeof parsed.e !== 'number') return { ok: false, reason: 'invalid' };
    if (parsed.e <= now) return { ok: false, reason: 'expired' };
    return { ok: true, claims: { alertId: parsed.a, time: parsed.t, expires: parsed.e } };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
