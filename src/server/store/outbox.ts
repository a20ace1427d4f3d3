import type { ChannelType } from '../../model/types.js';

/**
 * The outbox's side of the Store: notifications written with the transition that caused them (saveEvaluations),
 * then claimed, sent and marked by delivery workers. Times are epoch ms.
 */
export interface OutboxStore {
  /**
   * Claims up to `limit` due deliveries for `worker` until `now + leaseMs`, oldest first, with their channel. Due:
   * pending, next_attempt_at reached, not claimed (or its claim expired: its worker died), and no older pending
   * delivery of the same channel and alert, so that a resolve never overtakes its trigger.
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
}

/** A claimed delivery with what sending needs. `channel.destination` is a secret. */
export interface ClaimedDelivery {
  id: string;
  alertId: string;
  payload: unknown;
  attempts: number;
  createdAt: number;
  channel: { id: string; type: ChannelType; description: string; destination: string; autoResolve: boolean };
}

export type DeliveryState = 'pending' | 'delivered' | 'dead';

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
