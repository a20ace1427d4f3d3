import type { Database } from 'better-sqlite3';
import { createId } from '../../ids.js';
import type { ChannelTestDelivery, TimelineRecord } from '../console-store.js';
import { DELIVERY_LISTING_COLUMNS, deliveryPage, type DeliveryRow } from '../delivery-rows.js';
import type { DeliveryRecord } from '../outbox.js';
import { timelineFromRow, type TimelineRow } from '../row-mappers.js';

export function listTimeline(db: Database, accountId: string, alertId: string, since: number, limit: number): TimelineRecord[] {
  const rows = db
    .prepare(
      `SELECT h.status, h.time, h.metric, h.value, c.id AS channel_id, c.type, c.description, h.reason, h.actor
       FROM history h LEFT JOIN channels c ON c.id = h.channel_id AND c.account_id = h.account_id
       WHERE h.account_id = ? AND h.alert_id = ? AND h.time >= ?
       ORDER BY h.time DESC, h.seq DESC LIMIT ?`,
    )
    .all(accountId, alertId, since, limit) as TimelineRow[];
  return rows.map(timelineFromRow);
}

export function getDelivery(db: Database, accountId: string, id: string): DeliveryRecord | null {
  const rows = db
    .prepare(
      `SELECT ${DELIVERY_LISTING_COLUMNS} FROM deliveries d JOIN channels c ON c.id = d.channel_id
       WHERE d.account_id = ? AND d.id = ?`,
    )
    .all(accountId, id) as DeliveryRow[];
  return deliveryPage(rows, 1).items[0] ?? null;
}

export function retryDelivery(db: Database, accountId: string, id: string, now: number): 'retried' | 'not_dead' | null {
  return db.transaction(() => {
    const row = db.prepare('SELECT state FROM deliveries WHERE account_id = ? AND id = ?').get(accountId, id) as { state: string } | undefined;
    if (!row) return null;
    if (row.state !== 'dead') return 'not_dead';
    db.prepare(
      `UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?, claimed_by = NULL, claim_expires_at = NULL,
         finished_at = NULL, created_at = ? WHERE id = ?`,
    ).run(now, now, id);
    return 'retried' as const;
  })();
}

export function enqueueChannelTest(db: Database, accountId: string, channelId: string, test: ChannelTestDelivery): DeliveryRecord | null {
  const id = createId();
  const inserted = db
    .prepare(
      `INSERT INTO deliveries (id, account_id, channel_id, alert_id, alert_name, event, payload, next_attempt_at, created_at)
       SELECT ?, account_id, id, ?, ?, ?, ?, ?, ? FROM channels WHERE account_id = ? AND id = ?`,
    )
    .run(id, test.alertId, test.alertName, test.event, JSON.stringify(test.payload), test.createdAt, test.createdAt, accountId, channelId);
  return inserted.changes > 0 ? getDelivery(db, accountId, id) : null;
}

/** ConsoleStore.findAlertOwner: the alert's account and its metric prefixes, across accounts (a signed link). */
export function findAlertOwner(db: Database, alertId: string): { accountId: string; metricPrefixes: string[] } | null {
  const row = db
    .prepare('SELECT a.account_id, c.metric_prefixes FROM alerts a JOIN accounts c ON c.id = a.account_id WHERE a.id = ?')
    .get(alertId) as { account_id: string; metric_prefixes: string } | undefined;
  return row ? { accountId: row.account_id, metricPrefixes: JSON.parse(row.metric_prefixes) as string[] } : null;
}

export function setManagedFromGit(db: Database, accountId: string, alertId: string, managed: boolean): boolean {
  return db.prepare('UPDATE alerts SET managed_from_git = ? WHERE account_id = ? AND id = ?').run(managed ? 1 : 0, accountId, alertId).changes > 0;
}

export function isManagedFromGit(db: Database, accountId: string, alertId: string): boolean {
  const row = db.prepare('SELECT managed_from_git FROM alerts WHERE account_id = ? AND id = ?').get(accountId, alertId) as
    | { managed_from_git: number }
    | undefined;
  return row?.managed_from_git === 1;
}

/** ConsoleStore.getServerSecret: the first caller's generated value wins, and every later call reads it. */
export function getServerSecret(db: Database, name: string, generate: () => string): string {
  db.prepare('INSERT INTO server_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, generate());
  return (db.prepare('SELECT value FROM server_secrets WHERE name = ?').get(name) as { value: string }).value;
}
