import { appendHistory } from './history-rows.js';
import { deadLetterEntry } from '../delivery-rows.js';
import type { Database } from 'better-sqlite3';
import { createId } from '../../ids.js';
import { admitRows, claimWindow, skipLists } from '../outbox.js';
import type {
  ClaimedDelivery,
  DeliveryClaim,
  DeliveryQuery,
  FinishedDelivery,
  DeliveryRecord,
  NewDelivery,
  PendingSummary,
} from '../outbox.js';
import type { EvaluationUpdate } from '../evaluation-store.js';
import type { PendingDeliveryBound } from '../pending-bound.js';
import { DELIVERY_LISTING_COLUMNS, claimedDeliveryFromRow, deliveryPage, type ClaimRow, type DeliveryRow } from '../delivery-rows.js';

/**
 * Inserts an alert's deliveries (call inside the saveEvaluations transaction). The account comes from the alert and
 * the channel must belong to it: a channel or alert deleted meanwhile inserts nothing.
 */
export function insertDeliveries(db: Database, alertId: string, deliveries: NewDelivery[]): void {
  const insert = db.prepare(
    `INSERT INTO deliveries (id, account_id, channel_id, alert_id, alert_name, event, payload, next_attempt_at, created_at)
     SELECT ?, a.account_id, c.id, a.id, a.name, ?, ?, ?, ?
     FROM alerts a JOIN channels c ON c.id = ? AND c.account_id = a.account_id WHERE a.id = ?`,
  );
  for (const delivery of deliveries) {
    insert.run(createId(), delivery.event, JSON.stringify(delivery.payload), delivery.createdAt, delivery.createdAt, delivery.channelId, alertId);
  }
}

/**
 * A round's updates within each account's bound on pending deliveries (pending-bound.ts); call inside the
 * saveEvaluations transaction, before insertDeliveries. Reads nothing when the round notifies nobody.
 */
export function boundRoundDeliveries(db: Database, items: EvaluationUpdate[], bound: PendingDeliveryBound): EvaluationUpdate[] {
  const alertIds = items.filter((item) => item.deliveries.length > 0).map((item) => item.alertId);
  if (alertIds.length === 0) return items;
  const owners = db.prepare('SELECT id, account_id FROM alerts WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(alertIds)) as {
    id: string;
    account_id: string;
  }[];
  const accounts = [...new Set(owners.map((owner) => owner.account_id))];
  return bound.applyToRound(items, new Map(owners.map((owner) => [owner.id, owner.account_id])), pendingByAccount(db, accounts));
}

/**
 * What each account has pending, as the bound counts it (inside a writing transaction): its pending deliveries and
 * its group members waiting for their group's message.
 */
export function pendingByAccount(db: Database, accounts: readonly string[]): Map<string, number> {
  const rows = db
    .prepare(
      `SELECT account_id, SUM(count) AS count FROM (
         SELECT account_id, COUNT(*) AS count FROM deliveries WHERE state = 'pending' AND account_id IN (SELECT value FROM json_each(?)) GROUP BY account_id
         UNION ALL
         SELECT account_id, COUNT(*) AS count FROM group_members WHERE delivery_id IS NULL AND account_id IN (SELECT value FROM json_each(?)) GROUP BY account_id
       ) GROUP BY account_id`,
    )
    .all(JSON.stringify(accounts), JSON.stringify(accounts)) as { account_id: string; count: number }[];
  return new Map(rows.map((row) => [row.account_id, row.count]));
}

/** The account's pending deliveries and waiting group members (inside a writing transaction, for the bound). */
export function countPendingDeliveries(db: Database, accountId: string): number {
  return pendingByAccount(db, [accountId]).get(accountId) ?? 0;
}

/**
 * The due rows, claimed in one transaction (SQLite has one writer, so nobody else can claim between the SELECT and
 * the UPDATE), the longest due first. Only the oldest pending row of each (channel, alert) can be due: the NOT
 * EXISTS is the ordering rule. The walk goes through the due rows only (finishDeliveries moves the rows queued
 * behind a retried one to its retry time), so thousands of notifications waiting out an outage cost nothing here.
 *
 * On PostgreSQL, where several replicas claim at once, the same rule is one statement:
 *
 *   UPDATE deliveries d SET claimed_by = $worker, claim_expires_at = $now + $lease
 *   FROM (SELECT id FROM deliveries o
 *         WHERE o.state = 'pending' AND o.next_attempt_at <= $now
 *           AND (o.claim_expires_at IS NULL OR o.claim_expires_at <= $now)
 *           AND NOT EXISTS (SELECT 1 FROM deliveries p WHERE p.channel_id = o.channel_id AND p.alert_id = o.alert_id
 *                           AND p.state = 'pending' AND p.seq < o.seq)
 *         ORDER BY o.next_attempt_at, o.seq LIMIT $limit
 *         FOR UPDATE SKIP LOCKED) due
 *   WHERE d.id = due.id
 *   RETURNING d.*;   -- joined with channels for type, destination and auto_resolve
 *
 * SKIP LOCKED lets replicas claim disjoint rows without waiting on each other; the claim columns (not the row
 * lock, which ends with the transaction) keep a row owned while it is being sent, until the lease expires.
 */
export function claimDueDeliveries(db: Database, claim: DeliveryClaim): ClaimedDelivery[] {
  return db.transaction(() => {
    const window = db
      .prepare(
        `SELECT d.id, d.account_id, d.alert_id, d.payload, d.attempts, d.created_at, c.id AS channel_id, c.type, c.description,
                c.destination, c.auto_resolve, c.template
         FROM deliveries d INDEXED BY deliveries_due JOIN channels c ON c.id = d.channel_id
         WHERE d.state = 'pending' AND d.next_attempt_at <= ?
           AND (d.claim_expires_at IS NULL OR d.claim_expires_at <= ?)
           AND d.account_id NOT IN (SELECT value FROM json_each(?)) AND c.destination NOT IN (SELECT value FROM json_each(?))
           AND NOT EXISTS (SELECT 1 FROM deliveries p WHERE p.channel_id = d.channel_id AND p.alert_id = d.alert_id
                           AND p.state = 'pending' AND p.seq < d.seq)
         ORDER BY d.next_attempt_at, d.seq LIMIT ?`,
      )
      .all(claim.now, claim.now, ...skipLists(claim), claimWindow(claim)) as ClaimRow[];
    const rows = admitRows(window, claim);
    const mark = db.prepare('UPDATE deliveries SET claimed_by = ?, claim_expires_at = ? WHERE id = ?');
    for (const row of rows) mark.run(claim.worker, claim.now + claim.leaseMs, row.id);
    return rows.map(claimedDeliveryFromRow);
  })();
}

/**
 * Records attempts and releases their claims in one transaction (one fsync for a whole batch); each channel's
 * last_error moves with them, in the order the attempts are given.
 */
export function finishDeliveries(db: Database, finished: FinishedDelivery[]): void {
  const mark = db.prepare(
    `UPDATE deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = ?, last_error = COALESCE(?, last_error),
       last_attempt_at = ?, finished_at = ?, claimed_by = NULL, claim_expires_at = NULL
     WHERE id = ? AND claimed_by = ? AND state = 'pending'`,
  );
  const channelError = db.prepare('UPDATE channels SET last_error = ? WHERE id = (SELECT channel_id FROM deliveries WHERE id = ?)');
  // The rows behind a retried one cannot go before it: they wait for its retry time, so the claim's walk over due
  // rows does not visit them again and again while it is retried.
  const holdFollowers = db.prepare(
    `UPDATE deliveries SET next_attempt_at = @next
     WHERE state = 'pending' AND next_attempt_at < @next
       AND (channel_id, alert_id) = (SELECT channel_id, alert_id FROM deliveries WHERE id = @id)
       AND seq > (SELECT seq FROM deliveries WHERE id = @id)`,
  );
  const deliveryOf = db.prepare('SELECT alert_id, channel_id, event FROM deliveries WHERE id = ?');
  db.transaction(() => {
    for (const { id, worker, outcome } of finished) {
      const error = outcome.state === 'delivered' ? null : outcome.error;
      const changed = mark.run(
        outcome.state,
        outcome.state === 'pending' ? outcome.nextAttemptAt : outcome.at,
        error,
        outcome.at,
        outcome.state === 'pending' ? null : outcome.at,
        id,
        worker,
      ).changes;
      if (changed === 0) continue;
      channelError.run(error === null ? null : JSON.stringify({ time: Math.floor(outcome.at / 1000), message: error }), id);
      if (outcome.state === 'pending') holdFollowers.run({ next: outcome.nextAttemptAt, id });
      if (outcome.state === 'dead') {
        const row = deliveryOf.get(id) as { alert_id: string; channel_id: string; event: string };
        appendHistory(db, [deadLetterEntry(row.alert_id, row.channel_id, row.event, outcome)]);
      }
    }
  })();
}


/** One page of the account's deliveries in the given states, oldest first, without destinations or payloads. */
export function listDeliveries(db: Database, accountId: string, query: DeliveryQuery): { items: DeliveryRecord[]; nextPage: boolean } {
  const rows = db
    .prepare(
      `SELECT ${DELIVERY_LISTING_COLUMNS}
       FROM deliveries d JOIN channels c ON c.id = d.channel_id
       WHERE d.account_id = ? AND d.state IN (SELECT value FROM json_each(?)) AND (? IS NULL OR d.alert_id = ?)
       ORDER BY d.seq LIMIT ? OFFSET ?`,
    )
    .all(accountId, JSON.stringify(query.states), query.alertId ?? null, query.alertId ?? null, query.max + 1, (query.page - 1) * query.max) as DeliveryRow[];
  return deliveryPage(rows, query.max);
}

/** Pending count and oldest creation per channel (only channels with pending deliveries appear). */
export function summarizePendingDeliveries(db: Database, accountId: string, channelIds: string[]): Map<string, PendingSummary> {
  const rows = db
    .prepare(
      `SELECT channel_id, COUNT(*) AS count, MIN(created_at) AS oldest FROM deliveries
       WHERE account_id = ? AND state = 'pending' AND channel_id IN (SELECT value FROM json_each(?))
       GROUP BY channel_id`,
    )
    .all(accountId, JSON.stringify(channelIds)) as { channel_id: string; count: number; oldest: number }[];
  return new Map(rows.map((row) => [row.channel_id, { count: row.count, oldestCreatedAt: row.oldest }]));
}

/** Pending and dead deliveries by channel type, over all accounts. */
export function countDeliveriesByChannelType(db: Database): { pending: Record<string, number>; dead: Record<string, number> } {
  const rows = db
    .prepare(
      `SELECT d.state, c.type, COUNT(*) AS count FROM deliveries d JOIN channels c ON c.id = d.channel_id
       WHERE d.state IN ('pending', 'dead') GROUP BY d.state, c.type`,
    )
    .all() as { state: 'pending' | 'dead'; type: string; count: number }[];
  const counts = { pending: {} as Record<string, number>, dead: {} as Record<string, number> };
  for (const row of rows) counts[row.state][row.type] = row.count;
  return counts;
}

/** Deletes finished rows older than the given times; returns how many went. */
export function pruneDeliveries(db: Database, deliveredBefore: number, deadBefore: number): number {
  return db
    .prepare(
      `DELETE FROM deliveries WHERE (state = 'delivered' AND finished_at < ?) OR (state = 'dead' AND finished_at < ?)`,
    )
    .run(deliveredBefore, deadBefore).changes;
}
