import type { GraphLinkSigner } from '../graph/graph-links.js';

/** Where acknowledgement links lead (open: the token is the credential). GET shows a page, POST acknowledges. */
export const ACK_LINK_PATH = '/v2/ack-links/';

/**
 * How long an acknowledgement link works: 24 hours from the notification that carries it. Long enough for a page
 * sent at night to be answered in the morning; short enough that a link found in an old mailbox is dead. Every
 * reminder carries a fresh one.
 */
export const ACK_LINK_TTL_SECONDS = 24 * 3600;

/** What an acknowledgement link grants: acknowledging one alert's one alerting episode, until it expires. */
export interface AckLinkClaims {
  alertId: string;
  /** The episode's start (EvalState.alertingSince): a link from an earlier episode cannot acknowledge a later one. */
  episode: number | null;
  /** Unix seconds. */
  expires: number;
}

export type AckLinkCheck = { ok: true; claims: AckLinkClaims } | { ok: false; reason: 'invalid' | 'expired' };

/** The token of an acknowledgement link: the server's link signer, with kind `ack` in the signed part. */
export function signAckLink(signer: GraphLinkSigner, claims: AckLinkClaims): string {
  return signer.signClaims({ k: 'ack', a: claims.alertId, s: claims.episode, e: claims.expires });
}

/** Checks an acknowledgement link's token at `now` (unix seconds); a graph link's token is not one. */
export function verifyAckLink(signer: GraphLinkSigner, token: string, now: number): AckLinkCheck {
  const check = signer.verifyClaims(token, now);
  if (!check.ok) return check;
  const { k, a, s, e } = check.claims;
  if (k !== 'ack' || typeof a !== 'string' || (s !== null && typeof s !== 'number') || typeof e !== 'number') {
    return { ok: false, reason: 'invalid' };
  }
  return { ok: true, claims: { alertId: a, episode: s, expires: e } };
}
