import { parseEvalState, type StoredEvalState } from '../../evaluation/stored-state.js';
import type { Acknowledgement } from '../../model/acknowledgement.js';
import type { NewDelivery } from './outbox.js';
import type { NewHistoryEntry } from './history-store.js';

/** An acknowledgement to write, with its history entry and the notifications that tell the channels. */
export interface AckWrite {
  acknowledgement: Acknowledgement;
  history: Omit<NewHistoryEntry, 'alertId'>;
  /**
   * One per channel of the alert (event `acknowledged`). Written only when the alert was not acknowledged already
   * (an ack that changes its note or `until` tells nobody again).
   */
  deliveries: NewDelivery[];
  /**
   * Given (the one-click link): only while this alerting episode (EvalState.alertingSince) is still the alert's
   * current one, judged inside the transaction, so an old link cannot acknowledge an episode that began meanwhile.
   */
  episode?: number | null;
  /**
   * True (the one-click link): an acknowledgement that holds is kept as it is (outcome `already_acknowledged`),
   * judged inside the transaction, so that of two people answering one page the first stands and the second is
   * told who has it. The API and the console replace it (changing a note or `until` is theirs to do).
   */
  keepHeld?: boolean;
}

/**
 * What writing an acknowledgement did: `acknowledged` (and whether the deliveries were written), `not_alerting`
 * (nothing written: only an alerting alert can be acknowledged), `other_episode` (nothing written: the write was
 * bound to an episode that is over), `already_acknowledged` (nothing written: `keepHeld` and one holds), or null when the
 * account has no such alert.
 */
export type AckOutcome =
  | { outcome: 'acknowledged'; notified: boolean }
  | { outcome: 'not_alerting' }
  | { outcome: 'other_episode' }
  | { outcome: 'already_acknowledged'; acknowledgement: Acknowledgement }
  | null;

/** Whether the stored row's current alerting episode is the one `write` is bound to (always, when it names none). */
export function isWrittenEpisode(write: AckWrite, row: { status: string; eval_state: StoredEvalState | null }): boolean {
  return write.episode === undefined || parseEvalState(row.eval_state, row.status, []).alertingSince === write.episode;
}

/** The store's part for acknowledgements. Account-scoped like the rest of the Store. */
export interface AckStore {
  /**
   * In one transaction: when the account's alert is alerting, sets its acknowledgement, appends the history entry and,
   * when no acknowledgement held at `acknowledgement.at`, writes the deliveries to the outbox.
   */
  acknowledgeAlert(accountId: string, alertId: string, write: AckWrite): Promise<AckOutcome>;
  /**
   * Removes the alert's acknowledgement and appends the history entry (only when there was one): `withdrawn`, or
   * `not_acknowledged` (nothing written), or null when the account has no such alert.
   */
  withdrawAcknowledgement(
    accountId: string,
    alertId: string,
    history: Omit<NewHistoryEntry, 'alertId'>,
  ): Promise<'withdrawn' | 'not_acknowledged' | null>;
}

/** The ack columns of an alert row (both databases), as a record field. */
export function acknowledgementFromRow(row: {
  ack_by?: string | null;
  ack_note?: string | null;
  ack_at?: number | string | null;
  ack_until?: number | string | null;
}): Acknowledgement | null {
  if (row.ack_by === null || row.ack_by === undefined || row.ack_at === null || row.ack_at === undefined) return null;
  return {
    by: row.ack_by,
    note: row.ack_note ?? null,
    at: Number(row.ack_at),
    until: row.ack_until === null || row.ack_until === undefined ? null : Number(row.ack_until),
  };
}

/** The SET clause that removes an acknowledgement (both databases). */
export const CLEAR_ACK = 'ack_by = NULL, ack_note = NULL, ack_at = NULL, ack_until = NULL';
