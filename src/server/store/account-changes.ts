/**
 * What the caches depend on: `accounts` (accounts and API keys: http/account-cache.ts), `alerts` (alerts, their
 * links, and channels, whose descriptions searches match: http/alert-read-cache.ts), and `evaluation` (what the
 * evaluator's listing reads: alerts, their links and schedules, written by anyone but the evaluator's own saves;
 * store/evaluation-listing-cache.ts).
 */
export type ChangeTopic = 'accounts' | 'alerts' | 'evaluation';

/**
 * How a process learns that data a cache holds may have changed, so that the cache drops it. Each backend
 * implements it: SQLite from its own connection's writes (temporary triggers) and other processes' commits
 * (`PRAGMA data_version`), PostgreSQL from this process's own writes (counted by PgDatabase as they complete) and
 * a LISTEN connection that statement triggers notify on every write by anyone (a PostgreSQL migration).
 */
export interface AccountChanges {
  /**
   * A number that differs from the one returned before whenever the topic's data may have changed since, or null
   * while changes cannot be seen (a lost LISTEN connection): then nothing may be served from a cache.
   */
  version(topic?: ChangeTopic): number | null;
  /**
   * The topic's version once every change committed before this call has been seen (read-your-writes for a cache
   * consulted once per cycle): at once on SQLite; on PostgreSQL after a barrier notification on the LISTEN
   * connection comes back. null when that cannot be told (no answer in time, no LISTEN connection).
   */
  settledVersion(topic: ChangeTopic): Promise<number | null>;
  close(): Promise<void>;
}
