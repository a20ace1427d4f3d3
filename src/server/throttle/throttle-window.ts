import type { ChannelThrottle } from '../../model/noise-control.js';
import { formatWindow } from '../../model/noise-control.js';
import type { EvaluationUpdate, NotificationRecord } from '../store/evaluation-store.js';
import type { NewDelivery } from '../store/outbox.js';

/**
 * A channel's throttle, the part both stores share (pure). A window opens with the first notification to the
 * channel after the previous one ended, and lasts `window_minutes`; its first `max_notifications` notifications go
 * out, the rest are held (held_notifications) and listed in one `throttled_summary` delivery when the window ends.
 * The stores decide inside saveEvaluations' transaction, under a lock on the channel's window row, so replicas that
 * save at once never both take the last slot; the summary is created by whichever delivery worker closes the window
 * first, keyed by (channel, window start), so exactly once.
 */

/** The current window of a throttled channel (epoch ms), as its row stores it. */
export interface ThrottleWindow {
  startedAt: number;
  endsAt: number;
  sent: number;
}

/** A throttled channel as the decision needs it. */
export interface ThrottledChannel {
  id: string;
  description: string;
  throttle: ChannelThrottle;
}

/** A held notification to store: what the summary lists, and the window it waits for. */
export interface HeldNotification {
  alertId: string;
  channelId: string;
  event: string;
  metric: string;
  value: number | null;
  createdAt: number;
  windowStartedAt: number;
  windowEndsAt: number;
}

/** A batch with its held deliveries taken out (and their history entries saying so), and what to store of them. */
export interface ThrottledBatch {
  items: EvaluationUpdate[];
  held: HeldNotification[];
}

/**
 * Decides one channel's deliveries of a batch, in order: the window they fall in (the current one, or a new one
 * from `at` when the current one has ended or there is none), and which of them are held.
 */
export function admitToWindow(current: ThrottleWindow | null, throttle: ChannelThrottle, at: number, count: number): { window: ThrottleWindow; held: boolean[] } {
  // A notification made a moment before the window opened (another replica's clock, a save that waited on the lock)
  // still counts in it: the window is the channel's, not the notification's.
  const window =
    current && at < current.endsAt
      ? { ...current }
      : { startedAt: at, endsAt: at + throttle.window_minutes * 60_000, sent: 0 };
  const held: boolean[] = [];
  for (let i = 0; i < count; i += 1) {
    if (window.sent < throttle.max_notifications) {
      window.sent += 1;
      held.push(false);
    } else held.push(true);
  }
  return { window, held };
}

/** Why a notification was held: `throttled: channel Ops sent 5 in the last 1h; in the summary at 14:05 UTC`. */
export function heldReason(channel: ThrottledChannel, window: ThrottleWindow): string {
  const at = new Date(window.endsAt).toISOString().slice(11, 16);
  return `throttled: channel ${channel.description} sent ${channel.throttle.max_notifications} in the last ${formatWindow(channel.throttle.window_minutes)}; in the summary at ${at} UTC`;
}

/**
 * Resolves pass every throttle and take no slot of its window: a channel that was told an alert is alerting is
 * always told it recovered (or that its failing query works again), or it would show an incident open for ever.
 * Except one that would resolve what the channel was never told: when the alerting notification of that alert is
 * itself held for a summary not made yet, the resolve is held beside it, and the summary says the alert recovered
 * meanwhile (nothing is resolved before it was announced).
 */
export const RESOLVES: ReadonlySet<string> = new Set(['recovered', 'query_recovered']);

/** The key of an (alert, channel) pair in `unannounced`. */
export function pairKey(channelId: string, alertId: string): string {
  return `${channelId}\n${alertId}`;
}

/** The (channel, alert) pairs of a batch's resolves to the given channels: whose held alerting the store must look up. */
export function resolvePairs(items: readonly EvaluationUpdate[], channelIds: ReadonlySet<string>): { channelId: string; alertId: string }[] {
  const pairs: { channelId: string; alertId: string }[] = [];
  for (const { alertId, deliveries } of items) {
    for (const delivery of deliveries ?? []) if (RESOLVES.has(delivery.event) && channelIds.has(delivery.channelId)) pairs.push({ channelId: delivery.channelId, alertId });
  }
  return pairs;
}

/** The deliveries of a batch a throttle counts, per channel, in batch order, each with its alert (resolves are not). */
export function deliveriesByChannel(items: readonly EvaluationUpdate[]): Map<string, { alertId: string; delivery: NewDelivery }[]> {
  const byChannel = new Map<string, { alertId: string; delivery: NewDelivery }[]>();
  for (const { alertId, deliveries } of items) {
    for (const delivery of deliveries ?? []) {
      if (RESOLVES.has(delivery.event)) continue;
      const list = byChannel.get(delivery.channelId);
      if (list) list.push({ alertId, delivery });
      else byChannel.set(delivery.channelId, [{ alertId, delivery }]);
    }
  }
  return byChannel;
}

/**
 * Takes the held deliveries out of the batch: their `notification_sent` history entry becomes
 * `notification_suppressed` with the reason, and each becomes a HeldNotification of its window.
 */
export function holdDeliveries(
  items: readonly EvaluationUpdate[],
  decisions: Map<NewDelivery, { reason: string; window: ThrottleWindow }>,
): ThrottledBatch {
  if (decisions.size === 0) return { items: [...items], held: [] };
  const held: HeldNotification[] = [];
  const out = items.map((item) => {
    const holding = (item.deliveries ?? []).filter((delivery) => decisions.has(delivery));
    if (holding.length === 0) return item;
    const history = [...item.history];
    for (const delivery of holding) {
      const { reason, window } = decisions.get(delivery)!;
      const index = history.findIndex((entry) => entry.status === 'notification_sent' && entry.channelId === delivery.channelId && entry.reason === delivery.event);
      // The entry found is a NotificationRecord (its status says so).
      if (index >= 0) history[index] = { ...(history[index] as NotificationRecord), status: 'notification_suppressed', reason: `${delivery.event}: ${reason}` };
      const first = (delivery.payload as { triggered?: { metric: string; value: number | null }[] } | null)?.triggered?.[0];
      held.push({
        alertId: item.alertId,
        channelId: delivery.channelId,
        event: delivery.event,
        metric: first?.metric ?? '',
        value: first?.value ?? null,
        createdAt: delivery.createdAt,
        windowStartedAt: window.startedAt,
        windowEndsAt: window.endsAt,
      });
    }
    return { ...item, history, deliveries: (item.deliveries ?? []).filter((delivery) => !decisions.has(delivery)) };
  });
  return { items: out, held };
}

/** The throttled channels a batch notifies, in id order (the order their window rows are locked in). */
export function notifiedChannels(items: readonly EvaluationUpdate[], channels: readonly ThrottledChannel[]): ThrottledChannel[] {
  const notified = deliveriesByChannel(items);
  return channels.filter((channel) => notified.has(channel.id)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Decides a whole batch, given each throttled channel's current window (read under a lock by the caller, inside
 * its transaction): the batch without its held deliveries, and the windows to write back.
 */
export function throttleBatch(
  items: readonly EvaluationUpdate[],
  channels: readonly ThrottledChannel[],
  windows: ReadonlyMap<string, ThrottleWindow | null>,
  /**
   * The held, not yet summarized alerting notifications of the batch's resolves (pairKey), with their window: a
   * resolve of one is held into that window, beside what it resolves.
   */
  unannounced: ReadonlyMap<string, ThrottleWindow> = new Map(),
): ThrottledBatch & { windows: Map<string, ThrottleWindow> } {
  const byChannel = deliveriesByChannel(items);
  const decisions = new Map<NewDelivery, { reason: string; window: ThrottleWindow }>();
  const written = new Map<string, ThrottleWindow>();
  for (const channel of channels) {
    const list = byChannel.get(channel.id);
    if (!list || list.length === 0) continue;
    const at = Math.min(...list.map(({ delivery }) => delivery.createdAt));
    const { window, held } = admitToWindow(windows.get(channel.id) ?? null, channel.throttle, at, list.length);
    written.set(channel.id, window);
    const reason = heldReason(channel, window);
    list.forEach(({ delivery }, i) => {
      if (held[i]) decisions.set(delivery, { reason, window });
    });
  }
  if (unannounced.size > 0) {
    for (const { alertId, deliveries } of items) {
      for (const delivery of deliveries ?? []) {
        const window = RESOLVES.has(delivery.event) ? unannounced.get(pairKey(delivery.channelId, alertId)) : undefined;
        if (!window) continue;
        const at = new Date(window.endsAt).toISOString().slice(11, 16);
        decisions.set(delivery, { reason: `throttled: what it resolves is held for the summary at ${at} UTC, which says it recovered`, window });
      }
    }
  }
  return { ...holdDeliveries(items, decisions), windows: written };
}
