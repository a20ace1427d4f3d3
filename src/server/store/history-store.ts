/** Alerts' history: the API's search (one account) and appends (over all accounts: an entry's account is its alert's). */
export interface HistoryStore {
  /** Entries of the account's alerts, newest first: the public kinds only (PUBLIC_HISTORY_STATUSES). */
  searchHistory(accountId: string, query: HistoryQuery): Promise<HistoryRecord[]>;
  /** Appends history entries in one transaction (their account is the alert's); entries of deleted alerts are dropped. */
  appendHistory(entries: NewHistoryEntry[]): Promise<void>;
}

export interface HistoryQuery {
  alertIds: string[];
  /** Epoch seconds: entries at or after. */
  since: number;
  status: string | null;
  value: number | null;
}

export interface HistoryRecord {
  alertId: string;
  status: string;
  value: number | null;
  /** Epoch seconds. */
  time: number;
  metric: string;
}

/**
 * A history entry to store. Besides the public statuses, the console's kinds (muted, unmuted, notification_sent,
 * notification_suppressed) carry the channel concerned and why.
 */
export interface NewHistoryEntry extends HistoryRecord {
  channelId?: string | null;
  reason?: string | null;
  /** Who did it (mutes and unmutes: the `by` given, or "api"). */
  actor?: string | null;
}
