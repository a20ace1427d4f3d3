import { appendHistory } from './history-rows.js';
import { deadLetterEntry } from '../delivery-rows.js';
import { createId } from '../../ids.js';
import { admitRows, claimWindow, skipLists } from '../outbox.js';
import type {
  ClaimedDelivery,
  DeliveryClaim,
  DeliveryQuery,
  DeliveryRecord,
  FinishedDelivery,
  NewDelivery,
  PendingSummary,
} from '../outbox.js';
import type { Queryable } from './pg-database.js';
import type { EvaluationUpdate } from '../evaluation-store.js';
import type { PendingDeliveryBound } from '../pending-bound.js';
import { DELIVERY_LISTING_COLUMNS, claimedDeliveryFromRow, deliveryPage, type ClaimRow, type DeliveryRow } from '../delivery-rows.js';

/** Migration: the outbox, as on SQLite (times epoch ms as BIGINT). */
export const OUTBOX_MIGRATION = `
  CREATE TABLE deliveries (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    alert_id TEXT NOT NULL,
    alert_name TEXT NOT NULL,
    event TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claimed_by TEXT,
    claim_expires_at BIGINT,
    last_error TEXT,
    last_attempt_at BIGINT,
    created_at BIGINT NOT NULL,
    finished_at BIGINT
  );
  CREATE INDEX deliveries_due ON deliveries(next_attempt_at, seq) WHERE state = 'pending';
  CREATE INDEX deliveries_chain ON deliveries(channel_id, alert_id, seq) WHERE state = 'pending';
  CREATE INDEX deliveries_account ON deliveries(account_id, state, seq);
  CREATE INDEX deliveries_finished ON deliveries(finished_at) WHERE state <> 'pending';
`;

/** Inserts a round's deliveries in one statement, in order (inside saveEvaluations' transaction). */
export async function insertDeliveries(tx: Queryable, items: { alertId: string; deliveries?: NewDelivery[] }[]): Promise<void> {
  const rows = items.flatMap(({ alertId, deliveries }) => (deliveries ?? []).map((delivery) => ({ alertId, ...delivery })));
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO deliveries (id, account_id, channel_id, alert_id, alert_name, event, payload, next_attempt_at, created_at)
     SELECT r.id, a.account_id, c.id, a.id, a.name, r.event, r.payload, r.created_at, r.created_at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[])
          WITH ORDINALITY AS r(id, alert_id, channel_id, event, payload, created_at, ord)
     JOIN alerts a ON a.id = r.alert_id
     JOIN channels c ON c.id = r.channel_id AND c.account_id = a.account_id
     ORDER BY r.ord`,
    [
      rows.map(() => createId()),
      rows.map((row) => row.alertId),
      rows.map((row) => row.channelId),
      rows.map((row) => row.event),
      rows.map((row) => JSON.stringify(row.payload)),
      rows.map((row) => row.createdAt),
    ],
  );
}

/**
 * A round's updates within each account's bound on pending deliveries (pending-bound.ts); call inside the
 * saveEvaluations transaction, before insertDeliveries. Reads nothing when the round notifies nobody.
 */
export async function boundRoundDeliveries(tx: Queryable, items: EvaluationUpdate[], bound: PendingDeliveryBound): Promise<EvaluationUpdate[]> {
  const alertIds = items.filter((item) => item.deliveries.length > 0).map((item) => item.alertId);
  if (alertIds.length === 0) return items;
  const owners = await tx.query<{ id: string; account_id: string }>('SELECT id, account_id FROM alerts WHERE id = ANY($1::text[])', [alertIds]);
  const accounts = [...new Set(owners.map((owner) => owner.account_id))];
  return bound.applyToRound(items, new Map(owners.map((owner) => [owner.id, owner.account_id])), await pendingByAccount(tx, accounts));
}

/**
 * What each account has pending, as the bound counts it (inside a writing transaction): its pending deliveries and
 * its group members waiting for their group's message.
 */
export async function pendingByAccount(tx: Queryable, accounts: readonly string[]): Promise<Map<string, number>> {
  const rows = await tx.query<{ account_id: string; count: string }>(
    `SELECT account_id, SUM(count) AS count FROM (
       SELECT account_id, COUNT(*) AS count FROM deliveries WHERE state = 'pending' AND account_id = ANY($1::text[]) GROUP BY account_id
       UNION ALL
       SELECT account_id, COUNT(*) AS count FROM group_members WHERE delivery_id IS NULL AND account_id = ANY($1::text[]) GROUP BY account_id
     ) counted GROUP BY account_id`,
    [accounts],
  );
  return new Map(rows.map((row) => [row.account_id, Number(row.count)]));
}

/** The account's pending deliveries and waiting group members (inside a writing transaction, for the bound). */
export async function countPendingDeliveries(tx: Queryable, accountId: string): Promise<number> {
  return (await pendingByAccount(tx, [accountId])).get(accountId) ?? 0;
}

/**
 * The database's clock in epoch ms. A claim's expiry is set and compared on it, never on a replica's own clock:
 * a replica whose clock jumps ahead would otherwise find every other replica's claims expired and send their
 * deliveries a second time.
 */
const DB_NOW_MS = `(extract(epoch FROM now()) * 1000)::bigint`;

/**
 * Claims due rows with FOR UPDATE SKIP LOCKED: replicas claim disjoint rows without waiting on each other. A head
 * another replica is claiming is skipped (locked), and the row behind it is not due (its head is still pending),
 * so the ordering rule holds across replicas.
 */
export async function claimDueDeliveries(tx: Queryable, claim: DeliveryClaim): Promise<ClaimedDelivery[]> {
  const rows = claim.admit ? await claimAdmitted(tx, claim) : await tx.query<ClaimRow>(
    `WITH due AS (
       SELECT d.id FROM deliveries d
       WHERE d.state = 'pending' AND d.next_attempt_at <= $1::bigint
         AND (d.claim_expires_at IS NULL OR d.claim_expires_at <= ${DB_NOW_MS})
         AND NOT EXISTS (SELECT 1 FROM deliveries p WHERE p.channel_id = d.channel_id AND p.alert_id = d.alert_id
                         AND p.state = 'pending' AND p.seq < d.seq)
       ORDER BY d.next_attempt_at, d.seq LIMIT $2
       FOR UPDATE SKIP LOCKED
     )
     UPDATE deliveries d SET claimed_by = $3, claim_expires_at = ${DB_NOW_MS} + $4::bigint
     FROM due, channels c WHERE d.id = due.id AND c.id = d.channel_id
     RETURNING d.id, d.account_id, d.alert_id, d.payload, d.attempts, d.created_at, d.next_attempt_at, d.seq, c.id AS channel_id,
               c.type, c.description, c.destination, c.auto_resolve, c.template`,
    [claim.now, claim.limit, claim.worker, claim.leaseMs],
  );
  return rows.map(claimedDeliveryFromRow);
}

/**
 * The claim with a fair share: the window of the oldest due rows is read without locks, `admit` picks among them,
 * and the picked rows are claimed only if still unclaimed. A replica claiming the same row meanwhile holds its row
 * lock: this UPDATE waits for it, then sees the row claimed and skips it. A due row stays the head of its chain
 * until it is finished, so the ordering rule holds as in the one-statement claim.
 */
async function claimAdmitted(tx: Queryable, claim: DeliveryClaim): Promise<ClaimRow[]> {
  const window = await tx.query<{ id: string; account_id: string; channel_id: string; destination: string }>(
    `SELECT d.id, d.account_id, d.channel_id, c.destination
     FROM deliveries d JOIN channels c ON c.id = d.channel_id
     WHERE d.state = 'pending' AND d.next_attempt_at <= $1::bigint
       AND (d.claim_expires_at IS NULL OR d.claim_expires_at <= ${DB_NOW_MS})
       AND NOT (d.account_id IN (SELECT jsonb_array_elements_text($3::jsonb)))
       AND NOT (c.destination IN (SELECT jsonb_array_elements_text($4::jsonb)))
       AND NOT EXISTS (SELECT 1 FROM deliveries p WHERE p.channel_id = d.channel_id AND p.alert_id = d.alert_id
                       AND p.state = 'pending' AND p.seq < d.seq)
     ORDER BY d.next_attempt_at, d.seq LIMIT $2`,
    [claim.now, claimWindow(claim), ...skipLists(claim)],
  );
  const picked = admitRows(window, claim).map((row) => row.id);
  if (picked.length === 0) return [];
  const claimed = await tx.query<ClaimRow & { next_attempt_at: number; seq: number }>(
    `UPDATE deliveries d SET claimed_by = $2, claim_expires_at = ${DB_NOW_MS} + $3::bigint
     FROM channels c
     WHERE d.id = ANY($1::text[]) AND c.id = d.channel_id AND d.state = 'pending'
       AND (d.claim_expires_at IS NULL OR d.claim_expires_at <= ${DB_NOW_MS})
     RETURNING d.id, d.account_id, d.alert_id, d.payload, d.attempts, d.created_at, d.next_attempt_at, d.seq, c.id AS channel_id,
               c.type, c.description, c.destination, c.auto_resolve, c.template`,
    [picked, claim.worker, claim.leaseMs],
  );
  return claimed.sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at) || Number(a.seq) - Number(b.seq));
}

/** Records a batch of outcomes (one transaction), the channels' last_error, and holds rows behind a retried one. */
export async function finishDeliveries(tx: Queryable, finished: FinishedDelivery[]): Promise<void> {
  for (const { id, worker, outcome } of finished) {
    const error = outcome.state === 'delivered' ? null : outcome.error;
    const marked = await tx.query<{ channel_id: string; alert_id: string; seq: number; event: string }>(
      `UPDATE deliveries SET state = $1, attempts = attempts + 1, next_attempt_at = $2, last_error = COALESCE($3, last_error),
         last_attempt_at = $4, finished_at = $5, claimed_by = NULL, claim_expires_at = NULL
       WHERE id = $6 AND claimed_by = $7 AND state = 'pending'
       RETURNING channel_id, alert_id, seq, event`,
      [outcome.state, outcome.state === 'pending' ? outcome.nextAttemptAt : outcome.at, error, outcome.at, outcome.state === 'pending' ? null : outcome.at, id, worker],
    );
    const row = marked[0];
    if (!row) continue;
    await tx.query('UPDATE channels SET last_error = $1 WHERE id = $2', [
      error === null ? null : JSON.stringify({ time: Math.floor(outcome.at / 1000), message: error }),
      row.channel_id,
    ]);
    if (outcome.state === 'pending') {
      await tx.query(
        `UPDATE deliveries SET next_attempt_at = $1 WHERE state = 'pending' AND next_attempt_at < $1
           AND channel_id = $2 AND alert_id = $3 AND seq > $4`,
        [outcome.nextAttemptAt, row.channel_id, row.alert_id, row.seq],
      );
    }
    if (outcome.state === 'dead') await appendHistory(tx, [deadLetterEntry(row.alert_id, row.channel_id, row.event, outcome)]);
  }
}


export async function listDeliveries(db: Queryable, accountId: string, query: DeliveryQuery): Promise<{ items: DeliveryRecord[]; nextPage: boolean }> {
  const rows = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_LISTING_COLUMNS}
     FROM deliveries d JOIN channels c ON c.id = d.channel_id
     WHERE d.account_id = $1 AND d.state = ANY($2::text[]) AND ($5::text IS NULL OR d.alert_id = $5)
     ORDER BY d.seq LIMIT $3 OFFSET $4`,
    [accountId, query.states, query.max + 1, (query.page - 1) * query.max, query.alertId ?? null],
  );
  return deliveryPage(rows, query.max);
}

export async function summarizePendingDeliveries(db: Queryable, accountId: string, channelIds: string[]): Promise<Map<string, PendingSummary>> {
  const rows = await db.query<{ channel_id: string; count: number; oldest: number }>(
    `SELECT channel_id, COUNT(*)::bigint AS count, MIN(created_at) AS oldest FROM deliveries
     WHERE account_id = $1 AND state = 'pending' AND channel_id = ANY($2::text[]) GROUP BY channel_id`,
    [accountId, channelIds],
  );
  return new Map(rows.map((row) => [row.channel_id, { count: row.count, oldestCreatedAt: row.oldest }]));
}

export async function pruneDeliveries(db: Queryable, deliveredBefore: number, deadBefore: number): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM deliveries WHERE (state = 'delivered' AND finished_at < $1) OR (state = 'dead' AND finished_at < $2) RETURNING id`,
    [deliveredBefore, deadBefore],
  );
  return rows.length;
}

export async function countDeliveriesByChannelType(db: Queryable): Promise<{ pending: Record<string, number>; dead: Record<string, number> }> {
  const rows = await db.query<{ state: 'pending' | 'dead'; type: string; count: number }>(
    `SELECT d.state, c.type, COUNT(*)::bigint AS count FROM deliveries d JOIN channels c ON c.id = d.channel_id
     WHERE d.state IN ('pending', 'dead') GROUP BY d.state, c.type`,
  );
  const counts = { pending: {} as Record<string, number>, dead: {} as Record<string, number> };
  for (const row of rows) counts[row.state][row.type] = row.count;
  return counts;
}
