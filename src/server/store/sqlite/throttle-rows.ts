import type { Database } from 'better-sqlite3';
import { createId } from '../../ids.js';
import type { ChannelThrottle } from '../../../model/noise-control.js';
import { notifiedChannels, pairKey, resolvePairs, throttleBatch, type ThrottledChannel, type ThrottleWindow } from '../../throttle/throttle-window.js';
import { buildThrottledSummary, THROTTLED_SUMMARY_NAME, type HeldRow } from '../../throttle/summary.js';
import type { EvaluationUpdate } from '../evaluation-store.js';
import type { DeliveryQuery, DeliveryRecord } from '../outbox.js';
import { DELIVERY_LISTING_COLUMNS, deliveryPage, type DeliveryRow } from '../delivery-rows.js';
import { HELD_LISTING_COLUMNS } from '../held-listing.js';
import { channelThrottle } from '../row-mappers.js';

/** Summarised held notifications and their summaries' keys are kept this long (for the listing), then pruned. */
const KEEP_SUMMARIZED_MS = 24 * 3_600_000;

/**
 * The channels' throttles over a round's deliveries, inside saveEvaluations' transaction (SQLite has one writer:
 * nothing else admits or closes a window meanwhile). Returns the batch without the held deliveries; those are
 * stored in held_notifications, and their history entries say why. The decision is throttle/throttle-window.ts's
 * (throttleBatch); it runs here, not in the evaluator, because taking a window's slots must be one transaction with
 * the transitions it admits: a crash between the two would lose or double a notification.
 */
export function throttleEvaluations(db: Database, items: EvaluationUpdate[]): EvaluationUpdate[] {
  const ids = [...new Set(items.flatMap((item) => (item.deliveries ?? []).map((delivery) => delivery.channelId)))];
  if (ids.length === 0) return items;
  const rows = db
    .prepare(`SELECT id, description, throttle FROM channels WHERE id IN (SELECT value FROM json_each(?)) AND throttle IS NOT NULL`)
    .all(JSON.stringify(ids)) as { id: string; description: string; throttle: string }[];
  if (rows.length === 0) return items;
  const channels = notifiedChannels(
    items,
    rows.map((row): ThrottledChannel => ({ id: row.id, description: row.description, throttle: JSON.parse(row.throttle) as ChannelThrottle })),
  );
  const read = db.prepare('SELECT started_at AS startedAt, ends_at AS endsAt, sent FROM throttle_windows WHERE channel_id = ?');
  const windows = new Map(channels.map((channel) => [channel.id, (read.get(channel.id) as ThrottleWindow | undefined) ?? null]));
  // The alerting notifications still held for a summary that the round's resolves would resolve.
  const unannounced = new Map<string, ThrottleWindow>();
  const heldAlerting = db.prepare(
    `SELECT window_started_at AS startedAt, window_ends_at AS endsAt FROM held_notifications
     WHERE channel_id = ? AND alert_id = ? AND event = 'alerting' AND summary_id IS NULL ORDER BY window_started_at DESC LIMIT 1`,
  );
  for (const { channelId, alertId } of resolvePairs(items, new Set(rows.map((row) => row.id)))) {
    const found = heldAlerting.get(channelId, alertId) as { startedAt: number; endsAt: number } | undefined;
    if (found) unannounced.set(pairKey(channelId, alertId), { ...found, sent: 0 });
  }
  const batch = throttleBatch(items, channels, windows, unannounced);
  const write = db.prepare(
    `INSERT INTO throttle_windows (channel_id, started_at, ends_at, sent) VALUES (?, ?, ?, ?)
     ON CONFLICT (channel_id) DO UPDATE SET started_at = excluded.started_at, ends_at = excluded.ends_at, sent = excluded.sent`,
  );
  for (const [channelId, window] of batch.windows) write.run(channelId, window.startedAt, window.endsAt, window.sent);
  const hold = db.prepare(
    `INSERT INTO held_notifications (id, account_id, channel_id, alert_id, alert_name, event, metric, value, created_at, window_started_at, window_ends_at)
     SELECT ?, a.account_id, c.id, a.id, a.name, ?, ?, ?, ?, ?, ?
     FROM alerts a JOIN channels c ON c.id = ? AND c.account_id = a.account_id WHERE a.id = ?`,
  );
  for (const one of batch.held) {
    hold.run(createId(), one.event, one.metric, one.value, one.createdAt, one.windowStartedAt, one.windowEndsAt, one.channelId, one.alertId);
  }
  return batch.items;
}

/**
 * Makes the summary delivery of each window that ended by `now` with held notifications: in one transaction per
 * window, the window row is closed (a late admission opens a new one), the (channel, window) key is inserted (a
 * second closer's insert does nothing, so it makes no second summary), the held rows are marked with the summary's
 * id, and the summary goes in the outbox, due now.
 */
export function closeThrottleWindows(db: Database, now: number): number {
  const due = db
    .prepare(
      `SELECT DISTINCT channel_id, window_started_at, window_ends_at FROM held_notifications
       WHERE summary_id IS NULL AND window_ends_at <= ?`,
    )
    .all(now) as { channel_id: string; window_started_at: number; window_ends_at: number }[];
  let made = 0;
  for (const window of due) {
    const close = db.transaction(() => {
      const channel = db.prepare('SELECT account_id, description, throttle FROM channels WHERE id = ?').get(window.channel_id) as
        | { account_id: string; description: string; throttle: string | null }
        | undefined;
      if (!channel) return false;
      db.prepare('DELETE FROM throttle_windows WHERE channel_id = ? AND started_at = ?').run(window.channel_id, window.window_started_at);
      const summaryId = createId();
      const keyed = db
        .prepare(
          `INSERT INTO throttle_summaries (channel_id, window_started_at, delivery_id, created_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (channel_id, window_started_at) DO NOTHING`,
        )
        .run(window.channel_id, window.window_started_at, summaryId, now).changes;
      if (keyed === 0) return false;
      const held = db
        .prepare(
          `UPDATE held_notifications SET summary_id = ? WHERE channel_id = ? AND window_started_at = ? AND summary_id IS NULL
           RETURNING seq, alert_id, alert_name, event, metric, value, created_at`,
        )
        .all(summaryId, window.channel_id, window.window_started_at) as HeldRow[];
      if (held.length === 0) return false;
      const throttle = channelThrottle(channel.throttle, window.window_started_at, window.window_ends_at);
      const summary = buildThrottledSummary(
        { channelId: window.channel_id, description: channel.description, throttle, startedAt: window.window_started_at, endsAt: window.window_ends_at },
        held,
        now,
      );
      db.prepare(
        `INSERT INTO deliveries (id, account_id, channel_id, alert_id, alert_name, event, payload, next_attempt_at, created_at)
         VALUES (?, ?, ?, '', ?, 'throttled_summary', ?, ?, ?)`,
      ).run(summaryId, channel.account_id, window.channel_id, THROTTLED_SUMMARY_NAME, JSON.stringify(summary), now, now);
      return true;
    });
    if (close()) made += 1;
  }
  // Pruned when a window closes (not on every poll): old summarised rows go with the traffic that made them.
  if (made > 0) {
    db.prepare('DELETE FROM held_notifications WHERE summary_id IS NOT NULL AND window_ends_at < ?').run(now - KEEP_SUMMARIZED_MS);
    db.prepare('DELETE FROM throttle_summaries WHERE created_at < ?').run(now - KEEP_SUMMARIZED_MS);
  }
  return made;
}

/** A deliveries listing that asks for held notifications too: both tables, oldest first. */
export function listDeliveriesWithHeld(db: Database, accountId: string, query: DeliveryQuery): { items: DeliveryRecord[]; nextPage: boolean } {
  const states = JSON.stringify(query.states);
  const alert = query.alertId ?? null;
  const rows = db
    .prepare(
      `SELECT * FROM (
         SELECT d.seq AS seq, 0 AS kind, ${DELIVERY_LISTING_COLUMNS}
         FROM deliveries d JOIN channels c ON c.id = d.channel_id
         WHERE d.account_id = ? AND d.state IN (SELECT value FROM json_each(?)) AND (? IS NULL OR d.alert_id = ?)
         UNION ALL
         SELECT h.seq AS seq, 1 AS kind, ${HELD_LISTING_COLUMNS}
         FROM held_notifications h JOIN channels c ON c.id = h.channel_id
         WHERE h.account_id = ? AND (CASE WHEN h.summary_id IS NULL THEN 'held' ELSE 'summarized' END) IN (SELECT value FROM json_each(?))
           AND (? IS NULL OR h.alert_id = ?)
       ) ORDER BY created_at, kind, seq LIMIT ? OFFSET ?`,
    )
    .all(accountId, states, alert, alert, accountId, states, alert, alert, query.max + 1, (query.page - 1) * query.max) as DeliveryRow[];
  return deliveryPage(rows, query.max);
}
