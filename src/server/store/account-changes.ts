/**
 * How a process learns that accounts or API keys may have changed, so that the API's cache of key -> account
 * (http/account-cache.ts) can drop what it holds. Each backend implements it: SQLite from its own connection's
 * writes (temporary triggers) and other processes' commits (`PRAGMA data_version`), PostgreSQL from a
 * LISTEN connection that statement triggers on `accounts` and `api_keys` notify (a PostgreSQL migration).
 */
export interface AccountChanges {
  /**
   * A number that differs from the one returned before whenever accounts or keys may have changed since, or null
   * while changes cannot be seen (a lost LISTEN connection): then nothing may be served from a cache.
   */
  version(): number | null;
  close(): Promise<void>;
}
