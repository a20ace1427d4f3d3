import { ACK_LINK_PATH } from '../ack/ack-links.js';
import { GRAPH_PICTURE_PATH } from '../graph/notification-links.js';

/**
 * The open routes whose path carries a credential: a signed link's token (30 days of a tenant's graph, or the
 * acknowledgement of a page). Routing and the logs both read them from here, matched alike: case-insensitively, as
 * the router matches (`/V2/ACK-LINKS/<token>` reaches the route, so it must not reach the log either).
 */
export const SIGNED_LINK_PATHS: readonly string[] = [GRAPH_PICTURE_PATH, ACK_LINK_PATH];

const lowerCased = SIGNED_LINK_PATHS.map((prefix) => prefix.toLowerCase());

/** The signed-link prefix `path` starts with, compared as the router compares (ASCII case ignored), or undefined. */
export function signedLinkPathOf(path: string): string | undefined {
  const head = path.slice(0, 32).toLowerCase();
  const index = lowerCased.findIndex((prefix) => head.startsWith(prefix));
  return index < 0 ? undefined : SIGNED_LINK_PATHS[index];
}

/** The last segment of each signed-link prefix (`graphs`, `ack-links`): a segment the log never shows what follows. */
const LINK_SEGMENTS = new Set(SIGNED_LINK_PATHS.map((prefix) => prefix.split('/').filter(Boolean).pop()!.toLowerCase()));

/** How many rounds of percent-decoding the log undoes: `%252F` is `%2F` once decoded, `/` twice. */
const DECODE_ROUNDS = 3;

/** The shortest part of a signed token (`base64url(claims).base64url(mac)`): the MAC alone is 43 characters. */
const TOKEN_PART = 16;

/**
 * A request path fit for a log line: what follows a signed-link prefix is cut, whatever the spelling. The path is read
 * as the most lenient router or proxy in front of the server might read it, not only as ours does: percent-encoding
 * undone (a few rounds, so `%2F` and `%252F` are slashes), backslashes as slashes, runs of slashes as one, dot
 * segments resolved, matrix parameters (`;x`) and ASCII case ignored. A path with a `graphs` or `ack-links` segment
 * anywhere logs as the prefix up to that segment and `(token)`; anything shaped like a signed token elsewhere in the
 * path is cut too (the path is then logged decoded). A path with neither is logged as it came.
 */
export function loggablePath(path: string): string {
  const decoded = decodePercents(path).replace(/\\/g, '/');
  const segments = decoded.split('/').filter((segment) => segment !== '');
  const head: string[] = [];
  for (const segment of segments) {
    const name = segment.split(';')[0]!.toLowerCase();
    if (LINK_SEGMENTS.has(name)) return `/${[...head, name].join('/')}/(token)`;
    if (name === '.') continue;
    if (name === '..') head.pop();
    else head.push(name);
  }
  // Logged as it came unless a token hides in it (its dot may be spelled `%2E`): then decoded, every token cut.
  const cut = decoded.replace(/[\w.-]+/g, (word) => (isTokenShaped(word) ? '(token)' : word));
  return cut === decoded ? path : cut;
}

/** True when `word` holds two dot-separated base64url runs long enough to be a signed token's parts. */
function isTokenShaped(word: string): boolean {
  // A split and a length check, not a regular expression: `[\w-]{16,}\.[\w-]{16,}` backtracks quadratically on a long run.
  const parts = word.split('.');
  return parts.some((part, i) => part.length >= TOKEN_PART && (parts[i + 1]?.length ?? 0) >= TOKEN_PART);
}

/** `text` with its %XX escapes undone, byte by byte (a malformed escape is left as it is). */
function decodePercents(text: string): string {
  let out = text;
  for (let round = 0; round < DECODE_ROUNDS && out.includes('%'); round++) {
    out = out.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return out;
}
