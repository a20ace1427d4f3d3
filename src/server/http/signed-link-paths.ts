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

/** A request path fit for a log line: a signed link's token is cut, whatever the case of the path's letters. */
export function loggablePath(path: string): string {
  const prefix = signedLinkPathOf(path);
  return prefix === undefined ? path : `${prefix}(token)`;
}
