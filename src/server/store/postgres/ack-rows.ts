import { acknowledgementFromRow, CLEAR_ACK, isWrittenEpisode, type AckOutcome, type AckWrite } from '../ack-store.js';
import type { NewHistoryEntry } from '../store.js';
import { appendHistory } from './history-rows.js';
import { countPendingDeliveries, insertDeliveries } from './outbox-rows.js';
import { refusedAckEntry, type PendingDeliveryBound } from '../pending-bound.js';
import type { PgDatabase } from './pg-database.js';

/**
 * AckStore.acknowledgeAlert on PostgreSQL: the row is locked (FOR UPDATE) while its status is judged, so a round
 * that saves a recovery meanwhile waits, and then clears this acknowledgement as it should.
 */
export async function acknowledgeAlert(db: PgDatabase, accountId: string, alertId: string, write: AckWrite, bound: PendingDeliveryBound): Promise<AckOutcome> {
  return db.transaction(async (tx): Promise<AckOutcome> => {
    const [row] = await tx.query<{
      status: string;
      eval_state: string | null;
      ack_by: string | null;
      ack_note: string | null;
      ack_at: number | null;
      ack_until: number | null;
    }>(
      'SELECT status, eval_state, ack_by, ack_note, ack_at, ack_until FROM alerts WHERE account_id = $1 AND id = $2 FOR UPDATE',
      [accountId, alertId],
    );
    if (!row) return null;
    if (row.status !== 'alerting') return { outcome: 'not_alerting' };
    if (!isWrittenEpisode(write, row)) return { outcome: 'other_episode' };
    const { acknowledgement: ack } = write;
    const held = row.ack_at !== null && (row.ack_until === null || Number(row.ack_until) > ack.at);
    if (held && write.keepHeld) return { outcome: 'already_acknowledged', acknowledgement: acknowledgementFromRow(row)! };
    await tx.query('UPDATE alerts SET ack_by = $1, ack_note = $2, ack_at = $3, ack_until = $4 WHERE id = $5', [
      ack.by,
      ack.note,
      ack.at,
      ack.until,
      alertId,
    ]);
    await appendHistory(tx, [{ ...write.history, alertId }]);
    const notify = !held && write.deliveries.length > 0;
    if (notify) {
      const fits = bound.admit(await countPendingDeliveries(tx, accountId), write.deliveries.length);
      await insertDeliveries(tx, [{ alertId, deliveries: write.deliveries.slice(0, fits) }]);
      const refused = refusedAckEntry(write, fits, bound);
      if (refused) await appendHistory(tx, [{ ...refused, alertId }]);
    }
    return { outcome: 'acknowledged', notified: notify };
  });
}

/** AckStore.withdrawAcknowledgement on PostgreSQL. */
export async function withdrawAcknowledgement(
  db: PgDatabase,
  accountId: string,
  alertId: string,
  history: Omit<NewHistoryEntry, 'alertId'>,
): Promise<'withdrawn' | 'not_acknowledged' | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ ack_at: number | null }>('SELECT ack_at FROM alerts WHERE account_id = $1 AND id = $2 FOR UPDATE', [
      accountId,
      alertId,
    ]);
    if (!row) return null;
    if (row.ack_at === null) return 'not_acknowledged';
    await tx.query(`UPDATE alerts SET ${CLEAR_ACK} WHERE id = $1`, [alertId]);
    await appendHistory(tx, [{ ...history, alertId }]);
    return 'withdrawn';
  });
}
