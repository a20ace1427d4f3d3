import type { Notification } from '../../notifications/types.js';
import type { Store } from '../store/store.js';
import { GRAPH_LINK_TTL_SECONDS, GraphLinkSigner } from './graph-links.js';
import { ACK_LINK_PATH, ACK_LINK_TTL_SECONDS, signAckLink } from '../ack/ack-links.js';

/** Where the picture of a graph link is served (open: the token is the credential). */
export const GRAPH_PICTURE_PATH = '/v2/graphs/';

/**
 * Sets a notification's links just before it is sent: with a public URL, `graphUrl` becomes a signed, expiring
 * link to the server's PNG of the alert's graph and `consoleUrl` the alert's console page; without one, both are
 * absent. A group's message and a throttle's summary get no graph and a console link to the group or the
 * deliveries. An alerting, reminder or escalation notification also gets `ackUrl`, a signed link that acknowledges its episode
 * (ACK_LINK_TTL_SECONDS). Whatever the stored payload held is replaced, so a Graphite URL (internal, maybe with credentials) written
 * by an older version never reaches a receiver.
 */
export function createNotificationLinker(store: Store, publicUrl: string | undefined, now: () => number = Date.now) {
  const base = publicUrl?.replace(/\/+$/, '');
  let signer: Promise<GraphLinkSigner> | undefined;
  return async (notification: Notification): Promise<Notification> => {
    const { consoleUrl: _console, ackUrl: _ack, ...rest } = notification;
    const alertId = notification.alert.id;
    if (!base || !alertId || notification.test) return { ...rest, graphUrl: null };
    // A group's message links to its group in the console (the overview grouped by the channel's nodes, searched for
    // the key) and a throttle's summary to the deliveries page: neither is an alert, so neither has a graph.
    if (notification.grouped) {
      const query = new URLSearchParams({ group: notification.grouped.nodes.join(','), search: notification.grouped.group_key });
      return { ...rest, graphUrl: null, consoleUrl: `${base}/?${query.toString()}` };
    }
    if (notification.throttled) return { ...rest, graphUrl: null, consoleUrl: `${base}/deliveries` };
    signer ??= GraphLinkSigner.load(store).catch((error: unknown) => {
      signer = undefined;
      throw error;
    });
    const nowSeconds = Math.floor(now() / 1000);
    const token = (await signer).sign({ alertId, time: notification.time, expires: nowSeconds + GRAPH_LINK_TTL_SECONDS });
    // Only notifications the evaluator marked with their episode (alerting, reminders, escalation steps) can be acknowledged.
    const ackToken =
      notification.episode !== undefined
        ? signAckLink(await signer, { alertId, episode: notification.episode, expires: nowSeconds + ACK_LINK_TTL_SECONDS })
        : null;
    return {
      ...rest,
      ...(ackToken ? { ackUrl: `${base}${ACK_LINK_PATH}${ackToken}` } : {}),
      graphUrl: `${base}${GRAPH_PICTURE_PATH}${token}.png`,
      consoleUrl: `${base}/alerts/${encodeURIComponent(alertId)}`,
    };
  };
}
