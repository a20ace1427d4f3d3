import type { EvaluationUpdate, NotificationRecord } from './evaluation-store.js';
import type { NewDelivery } from './outbox.js';
import type { AckWrite } from './ack-store.js';
import type { NewHistoryEntry } from './store.js';
import { DEFAULT_QUOTAS } from '../../model/defaults.js';


/** The reason /metrics counts refused deliveries under (alertform_deliveries_refused_total{reason}). */
export const OUTBOX_FULL = 'account_pending_limit';

/**
 * The bound on each account's pending deliveries, shared by both stores. Deliveries are written by an evaluation
 * round (transitions, reminders, escalations) and by acknowledgements; past the bound new ones are refused, never
 * dropped in silence: their history entry says `outbox full` and /metrics counts them. The count is read inside the
 * writing transaction; replicas that save at once may overshoot by what they write together. Other accounts'
 * deliveries are not affected: the bound is per account, and fair shares keep its backlog from holding their pages.
 */
export class PendingDeliveryBound {
  /** Set by the server from its quotas. */
  limit = DEFAULT_QUOTAS.pendingDeliveries;
  /** Deliveries refused since the process started, by reason (for /metrics). */
  readonly refused = new Map<string, number>();

  /** Why a delivery was refused, as its history entry says. */
  reason(): string {
    return `outbox full: the account has ${this.limit} deliveries pending, its limit`;
  }

  /**
   * Of `wanted` new deliveries of an account that has `pending` already, how many fit; counts the rest as refused.
   */
  admit(pending: number, wanted: number): number {
    const fits = Math.max(0, Math.min(wanted, this.limit - pending));
    if (fits < wanted) this.refused.set(OUTBOX_FULL, (this.refused.get(OUTBOX_FULL) ?? 0) + wanted - fits);
    return fits;
  }

  /**
   * A round's updates with the deliveries beyond each account's bound taken out, in the round's order; the
   * `notification_sent` entry of each one taken out becomes `notification_suppressed` with the reason.
   * `accountOf` maps alert ids to accounts, `pending` accounts to what they have pending now.
   */
  applyToRound(items: EvaluationUpdate[], accountOf: ReadonlyMap<string, string>, pending: ReadonlyMap<string, number>): EvaluationUpdate[] {
    const room = new Map<string, number>();
    return items.map((item) => {
      if (item.deliveries.length === 0) return item;
      const account = accountOf.get(item.alertId);
      // An alert deleted meanwhile inserts nothing anyway.
      if (account === undefined) return item;
      const left = room.get(account) ?? this.limit - (pending.get(account) ?? 0);
      const fits = this.admit(this.limit - left, item.deliveries.length);
      room.set(account, left - fits);
      if (fits === item.deliveries.length) return item;
      const refused = item.deliveries.slice(fits);
      return { ...item, deliveries: item.deliveries.slice(0, fits), history: markRefused(item.history, refused, this.reason()) };
    });
  }
}

/** The history of a round's update with each refused delivery's `notification_sent` entry saying why it was not sent. */
function markRefused(history: EvaluationUpdate['history'], refused: readonly NewDelivery[], reason: string): EvaluationUpdate['history'] {
  const out = [...history];
  for (const delivery of refused) {
    const index = out.findIndex((entry) => entry.status === 'notification_sent' && entry.channelId === delivery.channelId && entry.reason === delivery.event);
    if (index >= 0) out[index] = { ...(out[index] as NotificationRecord), status: 'notification_suppressed', reason: `${delivery.event}: ${reason}` };
  }
  return out;
}

/** The history entry of an acknowledgement whose deliveries did not all fit (`fits` of them did); null when all did. */
export function refusedAckEntry(write: AckWrite, fits: number, bound: PendingDeliveryBound): Omit<NewHistoryEntry, 'alertId'> | null {
  const wanted = write.deliveries.length;
  if (fits >= wanted) return null;
  const reason = `acknowledged: ${bound.reason()} (${wanted - fits} of ${wanted} channels not told)`;
  return { status: 'notification_suppressed', value: null, metric: '', time: write.acknowledgement.at, channelId: null, reason };
}
