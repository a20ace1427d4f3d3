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

/**
 * The bound for a round's group members (group-messages.ts: one per series of a notification to a grouping
 * channel), which count as pending deliveries until their group's message is made (then N members are one
 * delivery). Admits them in the round's order while the account has room; a refused member is counted on /metrics
 * as a refused delivery, and its notification's history says so: its `notification_sent` entry becomes
 * `notification_suppressed` when none of the notification's members fit, and gains a `notification_suppressed`
 * entry `(K of N series not grouped)` when some did.
 */
export function boundRoundMembers<M extends { alertId: string; channelId: string; event: string; createdAt: number }>(
  bound: PendingDeliveryBound,
  items: EvaluationUpdate[],
  members: readonly M[],
  accountOf: ReadonlyMap<string, string>,
  pending: ReadonlyMap<string, number>,
): { items: EvaluationUpdate[]; members: M[] } {
  const room = new Map<string, number>();
  const admitted: M[] = [];
  // Per notification (alert, channel, event): how many members it had, how many were refused.
  const tally = new Map<string, MemberTally>();
  for (const member of members) {
    const key = `${member.alertId}\u0000${member.channelId}\u0000${member.event}`;
    const counts = tally.get(key) ?? { alertId: member.alertId, channelId: member.channelId, event: member.event, time: Math.floor(member.createdAt / 1000), all: 0, refused: 0 };
    tally.set(key, counts);
    counts.all += 1;
    const account = accountOf.get(member.alertId);
    // An alert deleted meanwhile inserts nothing anyway.
    if (account === undefined) continue;
    const left = room.get(account) ?? bound.limit - (pending.get(account) ?? 0);
    if (bound.admit(bound.limit - left, 1) === 1) {
      room.set(account, left - 1);
      admitted.push(member);
    } else {
      room.set(account, left);
      counts.refused += 1;
    }
  }
  const refusedOf = new Map<string, MemberTally[]>();
  for (const counts of tally.values()) if (counts.refused > 0) refusedOf.set(counts.alertId, [...(refusedOf.get(counts.alertId) ?? []), counts]);
  if (refusedOf.size === 0) return { items, members: admitted };
  const reason = bound.reason();
  const out = items.map((item) => {
    const refused = refusedOf.get(item.alertId);
    if (!refused) return item;
    const history = [...item.history];
    for (const { channelId, event, time, all, refused: count } of refused) {
      const index = history.findIndex((entry) => entry.status === 'notification_sent' && entry.channelId === channelId && entry.reason === event);
      if (count === all && index >= 0) {
        history[index] = { ...(history[index] as NotificationRecord), status: 'notification_suppressed', reason: `${event}: ${reason}` };
      } else {
        const sent = index >= 0 ? (history[index] as NotificationRecord) : null;
        history.push({ status: 'notification_suppressed', value: sent?.value ?? null, metric: sent?.metric ?? '', time: sent?.time ?? time, channelId, reason: `${event}: ${reason} (${count} of ${all} series not grouped)` });
      }
    }
    return { ...item, history };
  });
  return { items: out, members: admitted };
}

interface MemberTally {
  alertId: string;
  channelId: string;
  event: string;
  /** Unix seconds: the notification's. */
  time: number;
  all: number;
  refused: number;
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
