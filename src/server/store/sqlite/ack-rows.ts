import type { Database } from 'better-sqlite3';
import { acknowledgementFromRow, CLEAR_ACK, isWrittenEpisode, type AckOutcome, type AckWrite } from '../ack-store.js';
import type { NewHistoryEntry } from '../store.js';
import { appendHistory } from './history-rows.js';
import { countPendingDeliveries, insertDeliveries } from './outbox-rows.js';
import { refusedAckEntry, type PendingDeliveryBound } from '../pending-bound.js';

/** AckStore.acknowledgeAlert on SQLite: one transaction (one writer, so the status read cannot go stale). */
export function acknowledgeAlert(db: Database, accountId: string, alertId: string, write: AckWrite, bound: PendingDeliveryBound): AckOutcome {
  return db.transaction((): AckOutcome => {
    const row = db
      .prepare('SELECT status, eval_state, ack_by, ack_note, ack_at, ack_until FROM alerts WHERE account_id = ? AND id = ?')
      .get(accountId, alertId) as
      | { status: string; eval_state: string | null; ack_by: string | null; ack_note: string | null; ack_at: number | null; ack_until: number | null }
      | undefined;
    if (!row) return null;
    if (row.status !== 'alerting') return { outcome: 'not_alerting' };
    if (!isWrittenEpisode(write, row)) return { outcome: 'other_episode' };
    const { acknowledgement: ack } = write;
    const held = row.ack_at !== null && (row.ack_until === null || row.ack_until > ack.at);
    if (held && write.keepHeld) return { outcome: 'already_acknowledged', acknowledgement: acknowledgementFromRow(row)! };
    db.prepare('UPDATE alerts SET ack_by = ?, ack_note = ?, ack_at = ?, ack_until = ? WHERE id = ?').run(ack.by, ack.note, ack.at, ack.until, alertId);
    appendHistory(db, [{ ...write.history, alertId }]);
    const notify = !held && write.deliveries.length > 0;
    if (notify) {
      const fits = bound.admit(countPendingDeliveries(db, accountId), write.deliveries.length);
      insertDeliveries(db, alertId, write.deliveries.slice(0, fits));
      const refused = refusedAckEntry(write, fits, bound);
      if (refused) appendHistory(db, [{ ...refused, alertId }]);
    }
    return { outcome: 'acknowledged', notified: notify };
  })();
}

/** AckStore.withdrawAcknowledgement on SQLite. */
export function withdrawAcknowledgement(
  db: Database,
  accountId: string,
  alertId: string,
  history: Omit<NewHistoryEntry, 'alertId'>,
): 'withdrawn' | 'not_acknowledged' | null {
  return db.transaction(() => {
    const row = db.prepare('SELECT ack_at FROM alerts WHERE account_id = ? AND id = ?').get(accountId, alertId) as { ack_at: number | null } | undefined;
    if (!row) return null;
    if (row.ack_at === null) return 'not_acknowledged';
    db.prepare(`UPDATE alerts SET ${CLEAR_ACK} WHERE id = ?`).run(alertId);
    appendHistory(db, [{ ...history, alertId }]);
    return 'withdrawn';
  })();
}
