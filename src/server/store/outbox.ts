import type { DeliveryChannel } from '../../notifications/types.js';

/**
 * The outbox's side of the Store: notifications written with the transition that caused them (saveEvaluations),
 * then claimed, sent and marked by delivery workers. Times are epoch ms.
 */
export interface OutboxStore {
  /**
   * Claims up to `limit` due deliveries for `worker` until `now + leaseMs`, oldest first, with their channel. Due:
   * pending, next_attempt_at reached, not claimed (or its claim expired: its worker died), and no older pending
   * delivery of the same channel and alert, so that a resolve never overtakes its trigger. With `admit`, the due
   * rows are offered to it in that order (a window of the oldest, at most CLAIM_LOOKAHEAD) and only those it admits
   * are claimed: the worker's fair share per account and destination, decided where the rows are read.
   */
  claimDueDeliveries(claim: DeliveryClaim): Promise<ClaimedDelivery[]>;
  /**
   * Records attempts' outcomes and releases their claims, in one transaction with the channels' last_error (set on
   * failure, cleared on success): one commit for all the attempts that ended together. An outcome whose claim was
   * lost (expired and taken by another worker) is ignored.
   */
  finishDeliveries(outcomes: FinishedDelivery[]): Promise<void>;
  /** The account's deliveries in `states`, oldest first, one page. Never returns a destination. */
  listDeliveries(accountId: string, query: DeliveryQuery): Promise<{ items: DeliveryRecord[]; nextPage: boolean }>;
  /** Per channel of the account among `channelIds` that has pending deliveries: how many and the oldest creation. */
  summarizePendingDeliveries(accountId: string, channelIds: string[]): Promise<Map<string, PendingSummary>>;
  /** Over all accounts, by channel type: deliveries pending, and dead ones still kept (for /metrics). */
  countDeliveriesByChannelType(): Promise<{ pending: Record<string, number>; dead: Record<string, number> }>;
  /**
   * Makes the summary delivery of every throttle window that ended by `now` (epoch ms) with notifications held:
   * exactly one per channel and window, however many workers and replicas call it at once. Answers how many it made.
   */
  closeThrottleWindows(now: number): Promise<number>;
  /**
   * Makes the one `grouped` delivery of every group of a grouping channel whose message is due by `now` (epoch ms):
   * each waiting member in exactly one message, however many workers and replicas call it at once. Answers how many.
   */
  closeDeliveryGroups(now: number): Promise<number>;
  /** Deletes delivered rows finished before `deliveredBefore` and dead rows finished before `deadBefore`. */
  pruneDeliveries(deliveredBefore: number, deadBefore: number): Promise<number>;
}

/** A notification to put in the outbox for one channel, inside saveEvaluations' transaction. */
export interface NewDelivery {
  channelId: string;
  event: string;
  /** The channel-independent notification (JSON-able); the provider body is built from it at send time. */
  payload: unknown;
  /** Epoch ms; the delivery is due at once. */
  createdAt: number;
}

export interface DeliveryClaim {
  worker: string;
  now: number;
  leaseMs: number;
  limit: number;
  /**
   * Called on due rows oldest first, in two passes: `share` over the window, then, while the claim has room left,
   * `spare` over the rows refused in the first (slots nobody else wants now). A row refused in both stays due and
   * unclaimed. Absent: every due row is taken.
   */
  admit?: (candidate: ClaimCandidate, pass: 'share' | 'spare') => boolean;
  /**
   * Accounts and destinations the worker cannot take more of (at their cap): their rows are passed over inside the
   * query, so one account's backlog, however long, never fills the window in front of another account's rows.
   */
  skip?: { accounts: string[]; destinations: string[] };
}

/** What `admit` sees of a due row: whose it is and where it goes (a secret: never logged). */
export interface ClaimCandidate {
  accountId: string;
  channelId: string;
  destination: string;
}

/** How many of the oldest due rows a claim with `admit` looks at: limit times this, and at least CLAIM_LOOKAHEAD_MIN. */
export const CLAIM_LOOKAHEAD_FACTOR = 16;
export const CLAIM_LOOKAHEAD_MIN = 64;

/** The JSON lists of `claim.skip` (bound as parameters: json_each on SQLite, jsonb on PostgreSQL). */
export function skipLists(claim: DeliveryClaim): [string, string] {
  return [JSON.stringify(claim.skip?.accounts ?? []), JSON.stringify(claim.skip?.destinations ?? [])];
}

/** The rows a claim with `admit` reads: enough to pass over one busy tenant's backlog, bounded. */
export function claimWindow(claim: DeliveryClaim): number {
  return claim.admit ? Math.max(claim.limit * CLAIM_LOOKAHEAD_FACTOR, CLAIM_LOOKAHEAD_MIN) : claim.limit;
}

/** The rows of a window `admit` takes (its share pass, then its spare pass), oldest first, at most `limit`. */
export function admitRows<T extends { account_id: string; channel_id: string; destination: string }>(rows: T[], claim: DeliveryClaim): T[] {
  const admit = claim.admit;
  if (!admit) return rows.slice(0, claim.limit);
  const taken = new Set<T>();
  for (const pass of ['share', 'spare'] as const) {
    for (const row of rows) {
      if (taken.size >= claim.limit) break;
      if (taken.has(row)) continue;
      if (admit({ accountId: row.account_id, channelId: row.channel_id, destination: row.destination }, pass)) taken.add(row);
    }
  }
  // Oldest first, whichever pass took them.
  return rows.filter((row) => taken.has(row));
}

/** A claimed delivery with what sending needs: the record the delivery worker sends from. `channel.destination` is a secret. */
export interface ClaimedDelivery {
  id: string;
  accountId: string;
  alertId: string;
  payload: unknown;
  attempts: number;
  createdAt: number;
  channel: DeliveryChannel;
}

/** held and summarized: notifications a channel's throttle held back (held_notifications), listed with the outbox's. */
export type DeliveryState = 'pending' | 'delivered' | 'dead' | 'held' | 'summarized';

/** The outcome of one claimed delivery's attempt, by the worker that claimed it. */
export interface FinishedDelivery {
  id: string;
  worker: string;
  outcome: DeliveryOutcome;
}

/** The outcome of one attempt (`at`: when it ended). */
export type DeliveryOutcome =
  | { state: 'delivered'; at: number }
  | { state: 'pending'; at: number; nextAttemptAt: number; error: string }
  | { state: 'dead'; at: number; error: string };

export interface DeliveryQuery {
  states: DeliveryState[];
  /** Only the deliveries of this alert. */
  alertId?: string;
  page: number;
  max: number;
}

/** A delivery as users see it: no destination, no payload. */
export interface DeliveryRecord {
  id: string;
  state: DeliveryState;
  channel: { id: string; type: string; description: string };
  alert: { id: string; name: string };
  event: string;
  attempts: number;
  createdAt: number;
  /** Null once delivered or dead. */
  nextAttemptAt: number | null;
  /** The safe message of the last failed attempt (no destination, no key). */
  lastError: string | null;
  lastAttemptAt: number | null;
}

export interface PendingSummary {
  count: number;
  oldestCreatedAt: number;
}
