import { createId } from '../../ids.js';
import type { ChannelThrottle } from '../../../model/noise-control.js';
import { notifiedChannels, pairKey, resolvePairs, throttleBatch, type ThrottledChannel, type ThrottleWindow } from '../../throttle/throttle-window.js';
import { buildThrottledSummary, THROTTLED_SUMMARY_NAME, type HeldRow } from '../../throttle/summary.js';
import type { EvaluationUpdate } from '../evaluation-store.js';
import type { DeliveryQuery, DeliveryRecord } from '../outbox.js';
import { DELIVERY_LISTING_COLUMNS, deliveryPage, type DeliveryRow } from '../delivery-rows.js';
import { HELD_LISTING_COLUMNS } from '../held-listing.js';
import { channelThrottle } from '../row-mappers.js';
import type { PgDatabase, Queryable } from './pg-database.js';

const KEEP_SUMMARIZED_MS = 24 * 3_600_000;

/**
 * The channels' throttles over a round's deliveries, inside saveEvaluations' transaction. PostgreSQL runs READ
 * COMMITTED and replicas save at once: each throttled channel's window row is locked before it is read (an upsert,
 * so a channel's first window is created under the same lock), channels in id order (two saves never wait on each
 * other in a cycle). A second replica saving for the same channel waits for the first's commit, then reads the
 * slots it took: the Nth slot is never taken twice. The decision is throttle/throttle-window.ts's (throttleBatch);
 * it runs here, not in the evaluator, because only the save's transaction sees the window as other replicas left it.
 */
export async function throttleEvaluations(tx: Queryable, items: EvaluationUpdate[]): Promise<EvaluationUpdate[]> {
  const ids = [...new Set(items.flatMap((item) => (item.deliveries ?? []).map((delivery) => delivery.channelId)))];
  if (ids.length === 0) return items;
  const rows = await tx.query<{ id: string; description: string; throttle: string }>(
    'SELECT id, description, throttle FROM channels WHERE id = ANY($1::text[]) AND throttle IS NOT NULL',
    [ids],
  );
  if (rows.length === 0) return items;
  const channels = notifiedChannels(
    items,
    rows.map((row): ThrottledChannel => ({ id: row.id, description: row.description, throttle: JSON.parse(row.throttle) as ChannelThrottle })),
  );
  // A resolve to a throttled channel whose alerting is held for a summary is held beside it: the channel's window
  // row is locked too (a closer making that summary meanwhile waits, or has marked the held row already).
  const pairs = resolvePairs(items, new Set(rows.map((row) => row.id)));
  const locked = [...new Set([...channels.map((channel) => channel.id), ...pairs.map((pair) => pair.channelId)])].sort();
  const windows = new Map<string, ThrottleWindow | null>();
  for (const id of locked) {
    const channel = { id };
    // A new row (0, 0, 0) is "no window": the decision opens one.
    const [row] = await tx.query<ThrottleWindow>(
      `INSERT INTO throttle_windows (channel_id, started_at, ends_at, sent) VALUES ($1, 0, 0, 0)
       ON CONFLICT (channel_id) DO UPDATE SET channel_id = EXCLUDED.channel_id
       RETURNING started_at AS "startedAt", ends_at AS "endsAt", sent`,
      [channel.id],
    );
    windows.set(channel.id, row ?? null);
  }
  const unannounced = new Map<string, ThrottleWindow>();
  if (pairs.length > 0) {
    const found = await tx.query<{ channel_id: string; alert_id: string; startedAt: string; endsAt: string }>(
      `SELECT DISTINCT ON (h.channel_id, h.alert_id) h.channel_id, h.alert_id, h.window_started_at AS "startedAt", h.window_ends_at AS "endsAt"
       FROM held_notifications h JOIN unnest($1::text[], $2::text[]) AS p(channel_id, alert_id) ON h.channel_id = p.channel_id AND h.alert_id = p.alert_id
       WHERE h.event = 'alerting' AND h.summary_id IS NULL
       ORDER BY h.channel_id, h.alert_id, h.window_started_at DESC`,
      [pairs.map((pair) => pair.channelId), pairs.map((pair) => pair.alertId)],
    );
    for (const row of found) unannounced.set(pairKey(row.channel_id, row.alert_id), { startedAt: Number(row.startedAt), endsAt: Number(row.endsAt), sent: 0 });
  }
  const batch = throttleBatch(items, channels, windows, unannounced);
  for (const [channelId, window] of batch.windows) {
    await tx.query('UPDATE throttle_windows SET started_at = $2, ends_at = $3, sent = $4 WHERE channel_id = $1', [
      channelId,
      window.startedAt,
      window.endsAt,
      window.sent,
    ]);
  }
  if (batch.held.length > 0) {
    const held = batch.held;
    await tx.query(
      `INSERT INTO held_notifications (id, account_id, channel_id, alert_id, alert_name, event, metric, value, created_at, window_started_at, window_ends_at)
       SELECT r.id, a.account_id, c.id, a.id, a.name, r.event, r.metric, r.value, r.created_at, r.started_at, r.ends_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::bigint[], $8::bigint[], $9::bigint[])
            WITH ORDINALITY AS r(id, alert_id, channel_id, event, metric, value, created_at, started_at, ends_at, ord)
       JOIN alerts a ON a.id = r.alert_id
       JOIN channels c ON c.id = r.channel_id AND c.account_id = a.account_id
       ORDER BY r.ord`,
      [
        held.map(() => createId()),
        held.map((one) => one.alertId),
        held.map((one) => one.channelId),
        held.map((one) => one.event),
        held.map((one) => one.metric),
        held.map((one) => one.value),
        held.map((one) => one.createdAt),
        held.map((one) => one.windowStartedAt),
        held.map((one) => one.windowEndsAt),
      ],
    );
  }
  return batch.items;
}

/**
 * Makes the summary of each window that ended by `now` with held notifications, one transaction per window: the
 * channel's window row is locked first (an admission in flight into that window commits before, so its held rows
 * are seen; one after finds the window closed and opens a new one), then the (channel, window) key is inserted:
 * a second worker or replica closing the same window waits on that key and then inserts nothing, so it makes no
 * second summary.
 */
export async function closeThrottleWindows(db: PgDatabase, now: number): Promise<number> {
  const due = await db.query<{ channel_id: string; window_started_at: number; window_ends_at: number }>(
    `SELECT DISTINCT channel_id, window_started_at, window_ends_at FROM held_notifications
     WHERE summary_id IS NULL AND window_ends_at <= $1`,
    [now],
  );
  let made = 0;
  for (const window of due) {
    const closed = await db.transaction(async (tx) => {
      const [current] = await tx.query<{ started_at: number }>('SELECT started_at FROM throttle_windows WHERE channel_id = $1 FOR UPDATE', [window.channel_id]);
      if (current && Number(current.started_at) === Number(window.window_started_at)) {
        await tx.query('DELETE FROM throttle_windows WHERE channel_id = $1', [window.channel_id]);
      }
      const summaryId = createId();
      const keyed = await tx.query(
        `INSERT INTO throttle_summaries (channel_id, window_started_at, delivery_id, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (channel_id, window_started_at) DO NOTHING RETURNING delivery_id`,
        [window.channel_id, window.window_started_at, summaryId, now],
      );
      if (keyed.length === 0) return false;
      const held = await tx.query<HeldRow>(
        `UPDATE held_notifications SET summary_id = $1 WHERE channel_id = $2 AND window_started_at = $3 AND summary_id IS NULL
         RETURNING seq, alert_id, alert_name, event, metric, value, created_at`,
        [summaryId, window.channel_id, window.window_started_at],
      );
      const [channel] = await tx.query<{ account_id: string; description: string; throttle: string | null }>(
        'SELECT account_id, description, throttle FROM channels WHERE id = $1',
        [window.channel_id],
      );
      if (held.length === 0 || !channel) return false;
      const startedAt = Number(window.window_started_at);
      const endsAt = Number(window.window_ends_at);
      const summary = buildThrottledSummary(
        { channelId: window.channel_id, description: channel.description, throttle: channelThrottle(channel.throttle, startedAt, endsAt), startedAt, endsAt },
        held.map((row) => ({ ...row, seq: Number(row.seq), created_at: Number(row.created_at) })),
        now,
      );
      await tx.query(
        `INSERT INTO deliveries (id, account_id, channel_id, alert_id, alert_name, event, payload, next_attempt_at, created_at)
         VALUES ($1, $2, $3, '', $4, 'throttled_summary', $5, $6, $6)`,
        [summaryId, channel.account_id, window.channel_id, THROTTLED_SUMMARY_NAME, JSON.stringify(summary), now],
      );
      return true;
    });
    if (closed) made += 1;
  }
  if (made > 0) {
    await db.query('DELETE FROM held_notifications WHERE summary_id IS NOT NULL AND window_ends_at < $1', [now - KEEP_SUMMARIZED_MS]);
    await db.query('DELETE FROM throttle_summaries WHERE created_at < $1', [now - KEEP_SUMMARIZED_MS]);
  }
  return made;
}

/** A deliveries listing that asks for held notifications too: both tables, oldest first. */
export async function listDeliveriesWithHeld(db: Queryable, accountId: string, query: DeliveryQuery): Promise<{ items: DeliveryRecord[]; nextPage: boolean }> {
  const rows = await db.query<DeliveryRow>(
    `SELECT * FROM (
       SELECT d.seq AS seq, 0 AS kind, ${DELIVERY_LISTING_COLUMNS}
       FROM deliveries d JOIN channels c ON c.id = d.channel_id
       WHERE d.account_id = $1 AND d.state = ANY($2::text[]) AND ($5::text IS NULL OR d.alert_id = $5)
       UNION ALL
       SELECT h.seq AS seq, 1 AS kind, ${HELD_LISTING_COLUMNS}
       FROM held_notifications h JOIN channels c ON c.id = h.channel_id
       WHERE h.account_id = $1 AND (CASE WHEN h.summary_id IS NULL THEN 'held' ELSE 'summarized' END) = ANY($2::text[])
         AND ($5::text IS NULL OR h.alert_id = $5)
     ) listing ORDER BY created_at, kind, seq LIMIT $3 OFFSET $4`,
    [accountId, query.states, query.max + 1, (query.page - 1) * query.max, query.alertId ?? null],
  );
  return deliveryPage(rows, query.max);
}
