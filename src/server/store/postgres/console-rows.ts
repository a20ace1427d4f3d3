import { createId } from '../../ids.js';
import type { ChannelTestDelivery, TimelineRecord } from '../console-store.js';
import { DELIVERY_LISTING_COLUMNS, deliveryPage, type DeliveryRow } from '../delivery-rows.js';
import type { DeliveryRecord } from '../outbox.js';
import { timelineFromRow, type TimelineRow } from '../row-mappers.js';
import type { PgDatabase, Queryable } from './pg-database.js';

export async function listTimeline(db: Queryable, accountId: string, alertId: string, since: number, limit: number): Promise<TimelineRecord[]> {
  const rows = await db.query<TimelineRow & Record<string, unknown>>(
    `SELECT h.status, h.time, h.metric, h.value, c.id AS channel_id, c.type, c.description, h.reason, h.actor
     FROM history h LEFT JOIN channels c ON c.id = h.channel_id AND c.account_id = h.account_id
     WHERE h.account_id = $1 AND h.alert_id = $2 AND h.time >= $3
     ORDER BY h.time DESC, h.seq DESC LIMIT $4`,
    [accountId, alertId, since, limit],
  );
  return rows.map(timelineFromRow);
}

export async function getDelivery(db: Queryable, accountId: string, id: string): Promise<DeliveryRecord | null> {
  const rows = await db.query<DeliveryRow & Record<string, unknown>>(
    `SELECT ${DELIVERY_LISTING_COLUMNS} FROM deliveries d JOIN channels c ON c.id = d.channel_id
     WHERE d.account_id = $1 AND d.id = $2`,
    [accountId, id],
  );
  return deliveryPage(rows, 1).items[0] ?? null;
}

/** One statement: the row is moved only when it is dead; the state before tells the three answers apart. */
export async function retryDelivery(db: PgDatabase, accountId: string, id: string, now: number): Promise<'retried' | 'not_dead' | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ state: string }>('SELECT state FROM deliveries WHERE account_id = $1 AND id = $2 FOR UPDATE', [accountId, id]);
    if (!row) return null;
    if (row.state !== 'dead') return 'not_dead';
    await tx.query(
      `UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = $1, claimed_by = NULL, claim_expires_at = NULL,
         finished_at = NULL, created_at = $1 WHERE id = $2`,
      [now, id],
    );
    return 'retried';
  });
}

export async function enqueueChannelTest(db: Queryable, accountId: string, channelId: string, test: ChannelTestDelivery): Promise<DeliveryRecord | null> {
  const id = createId();
  const inserted = await db.query(
    `INSERT INTO deliveries (id, account_id, channel_id, alert_id, alert_name, event, payload, next_attempt_at, created_at)
     SELECT $1, account_id, id, $2, $3, $4, $5, $6, $6 FROM channels WHERE account_id = $7 AND id = $8 RETURNING id`,
    [id, test.alertId, test.alertName, test.event, JSON.stringify(test.payload), test.createdAt, accountId, channelId],
  );
  return inserted.length > 0 ? getDelivery(db, accountId, id) : null;
}

/** ConsoleStore.findAlertOwner: the alert's account and its metric prefixes, across accounts (a signed link). */
export async function findAlertOwner(db: Queryable, alertId: string): Promise<{ accountId: string; metricPrefixes: string[] } | null> {
  const [row] = await db.query<{ account_id: string; metric_prefixes: string }>(
    'SELECT a.account_id, c.metric_prefixes FROM alerts a JOIN accounts c ON c.id = a.account_id WHERE a.id = $1',
    [alertId],
  );
  return row ? { accountId: row.account_id, metricPrefixes: JSON.parse(row.metric_prefixes) as string[] } : null;
}

export async function setManagedFromGit(db: Queryable, accountId: string, alertId: string, managed: boolean): Promise<boolean> {
  const rows = await db.query('UPDATE alerts SET managed_from_git = $1 WHERE account_id = $2 AND id = $3 RETURNING id', [managed, accountId, alertId]);
  return rows.length > 0;
}

export async function isManagedFromGit(db: Queryable, accountId: string, alertId: string): Promise<boolean> {
  const [row] = await db.query<{ managed_from_git: boolean }>('SELECT managed_from_git FROM alerts WHERE account_id = $1 AND id = $2', [accountId, alertId]);
  return row?.managed_from_git === true;
}

/** ConsoleStore.getServerSecret: the first caller's generated value wins, and every later call reads it. */
export async function getServerSecret(db: Queryable, name: string, generate: () => string): Promise<string> {
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, generate()]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  return row!.value;
}
