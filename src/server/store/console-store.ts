import type { DeliveryRecord } from './outbox.js';

/**
 * The store's part for the console: an alert's full timeline, retrying and testing deliveries, the
 * "managed from git" marker and the server's own secrets. Account-scoped like the rest of the Store.
 */
export interface ConsoleStore {
  /**
   * Every history entry of one alert of the account (the public kinds and the console's: mutes, notifications sent
   * and suppressed), newest first, at or after `since` (epoch seconds), at most `limit`.
   */
  listTimeline(accountId: string, alertId: string, since: number, limit: number): Promise<TimelineRecord[]>;
  /** One delivery of the account; null when unknown (or another account's). */
  getDelivery(accountId: string, id: string): Promise<DeliveryRecord | null>;
  /**
   * Puts a dead-lettered delivery back in the outbox (pending, due at `now`, attempts reset): 'retried'; 'not_dead'
   * when it exists but is not dead-lettered; null when the account has no such delivery.
   */
  retryDelivery(accountId: string, id: string, now: number): Promise<'retried' | 'not_dead' | null>;
  /**
   * Writes a test notification for one channel of the account to the outbox (due at once); null when the account
   * has no such channel. The row's alert is `alertId` (no alert: "") named `alertName`.
   */
  enqueueChannelTest(accountId: string, channelId: string, test: ChannelTestDelivery): Promise<DeliveryRecord | null>;
  /**
   * The account that owns an alert, over all accounts, with its metric prefixes: for a signed graph link, whose token
   * (checked before) is the only credential. null when the alert does not exist.
   */
  findAlertOwner(alertId: string): Promise<{ accountId: string; metricPrefixes: string[] } | null>;
  /** Sets or clears the "managed from git" marker of an alert (false when the alert is unknown). */
  setManagedFromGit(accountId: string, alertId: string, managed: boolean): Promise<boolean>;
  /** Whether the alert was last written by alertform's apply (see setManagedFromGit). */
  isManagedFromGit(accountId: string, alertId: string): Promise<boolean>;
  /**
   * The server secret called `name`, created from `generate()` on first use. Every replica on the same database gets
   * the same value (the first writer wins).
   */
  getServerSecret(name: string, generate: () => string): Promise<string>;
}

/** The kinds of history entries the public /v2/alerts/history/ shows; the others are the console's. */
export const PUBLIC_HISTORY_STATUSES = ['alerting', 'recovered', 'query_failed', 'no_data'] as const;

/** One entry of an alert's timeline. */
export interface TimelineRecord {
  /** alerting, recovered, query_failed, muted, unmuted, notification_sent, notification_suppressed. */
  kind: string;
  /** Epoch seconds. */
  time: number;
  /** The series concerned ("" when none). */
  metric: string;
  value: number | null;
  /** The channel a notification went to (null when none, or when the channel was deleted since). */
  channel: { id: string; type: string; description: string } | null;
  reason: string | null;
  /** Who muted or unmuted (null for other kinds). */
  by: string | null;
}

/** A test notification for the outbox. */
export interface ChannelTestDelivery {
  alertId: string;
  alertName: string;
  event: string;
  payload: unknown;
  /** Epoch ms. */
  createdAt: number;
}
