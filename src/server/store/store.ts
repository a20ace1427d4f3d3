import type { PendingDeliveryBound } from './pending-bound.js';
import type { AccountChanges } from './account-changes.js';
import type { AccountStore } from './account-store.js';
import type { AlertStore } from './alert-store.js';
import type { ChannelStore } from './channel-store.js';
import type { ScheduleStore } from './schedule-store.js';
import type { HistoryStore } from './history-store.js';
import type { AckStore } from './ack-store.js';
import type { OutboxStore } from './outbox.js';
import type { ConsoleStore } from './console-store.js';
import type { EvaluationStore } from './evaluation-store.js';
import type { WindowStore } from './window-store.js';

export type * from './account-store.js';
export type * from './alert-store.js';
export type * from './channel-store.js';
export type * from './schedule-store.js';
export type * from './history-store.js';
export type { Page } from './page.js';

/**
 * The server's storage, one composition for every backend (SQLite, PostgreSQL): one small interface per concern, each
 * built by its backend from that backend's `<concern>-rows.ts` and assembled in one place (sqlite/sqlite-store.ts,
 * postgres/postgres-store.ts). A consumer takes only the concerns it uses. Every method is scoped to one account
 * except the evaluator's (`evaluation`, `history.appendHistory`) and the outbox's, which work across accounts.
 * Methods are async so that a networked backend can implement the same interfaces. A method that returns without
 * throwing has made its write durable.
 */
export interface Store {
  readonly accounts: AccountStore;
  readonly alerts: AlertStore;
  readonly channels: ChannelStore;
  readonly schedules: ScheduleStore;
  readonly history: HistoryStore;
  readonly acks: AckStore;
  readonly outbox: OutboxStore;
  readonly console: ConsoleStore;
  readonly evaluation: EvaluationStore;
  readonly windows: WindowStore;

  /** Each account's bound on pending deliveries, applied where deliveries are written (the server sets its limit). */
  readonly pendingBound?: PendingDeliveryBound;
  /**
   * Tells when data a cache holds may have changed (the API's key and alert caches, the evaluator's listing); one
   * per store, made on first use and closed with it.
   */
  accountChanges?(): AccountChanges;

  // Operations (optional: /readyz and /metrics report "unknown" for a store without them).
  /** Whether the database answers and its schema is at this code's version; throws when it cannot be reached. */
  checkReadiness?(): Promise<StoreReadiness>;
  /**
   * How many replicas evaluate now (their evaluation heartbeat has not expired), for a replica without an evaluator
   * of its own to tell whether anything evaluates its alerts. Absent on a single-node store.
   */
  countLiveEvaluators?(): Promise<number>;

  close(): Promise<void>;
}

/** What /readyz asks the store. */
export interface StoreReadiness {
  /** Schema version of the database, and the one this code expects. */
  schemaVersion: number;
  expectedSchemaVersion: number;
}

/** The channel every new account gets, so that an alert's default notification_channels resolves. */
export { DEFAULT_CHANNEL } from '../../model/defaults.js';

/**
 * The database cannot be reached (refused, cut, restarting, out of connections). The API answers 503
 * `unavailable`; the store recovers by itself once the database is back. The message never carries the URL.
 */
export class StoreUnavailable extends Error {
  constructor(options: { cause?: unknown } = {}) {
    super('the database is unavailable', options);
    this.name = 'StoreUnavailable';
  }
}

/** A write that would break a per-account uniqueness rule (alert name, channel description, schedule name). */
export class UniqueViolation extends Error {
  constructor(
    readonly field: string,
    readonly value: string,
  ) {
    super(`${field} "${value}" already exists`);
    this.name = 'UniqueViolation';
  }
}
