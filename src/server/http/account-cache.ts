import { hashApiKey } from '../ids.js';
import { RecentMap } from './recent-map.js';
import type { AccountRecord, Store } from '../store/store.js';

/** Settings of an AccountCache; tests shorten them. */
export interface AccountCacheOptions {
  /** Keys remembered at once; the oldest are forgotten first. Default 10,000 (a few MB at most). */
  maxEntries?: number;
  /**
   * How long an entry is trusted without asking the database again, ms. Default 5,000. A backstop only: changes
   * are seen through the store's AccountChanges at once (SQLite) or within milliseconds (PostgreSQL NOTIFY); this
   * bounds what a change missed by a silently dead LISTEN connection could keep alive.
   */
  maxAgeMs?: number;
  now?: () => number;
}

/** Finds the account of an API key, as Store.findAccountByKey does. */
export interface AccountCache {
  find(key: string): Promise<AccountRecord | null>;
}

/**
 * The account of each recently used API key, so that a request does not pay a database lookup (a round trip on
 * PostgreSQL) for a key it has just seen. What keeps it safe between hostile tenants:
 * - entries are keyed by the SHA-256 of the whole key (what the database looks up), and hold the account the
 *   database answered for exactly that hash: no prefix, no truncation, never another key's account;
 * - only accounts are kept, never failures: an unknown or revoked key goes to the database every time, as
 *   before (the same SHA-256 and query; a Map lookup of a hash is all that is added);
 * - any change to accounts or keys anywhere (the store's AccountChanges) empties the cache before the next
 *   lookup; a lookup that was in flight across a change is not stored; a store that cannot tell changes (or a
 *   PostgreSQL listener that is down) disables the cache;
 * - at most maxEntries entries (oldest dropped first), each trusted at most maxAgeMs.
 */
export function createAccountCache(store: Store, options: AccountCacheOptions = {}): AccountCache {
  const changes = store.accountChanges?.() ?? null;
  if (!changes) return { find: (key) => store.findAccountByKey(key) };
  const entries = new RecentMap<AccountRecord>(options.maxEntries ?? 10_000, options.maxAgeMs ?? 5_000, options.now);
  let seen: number | null = null;
  return {
    async find(key) {
      const version = changes.version();
      if (version !== seen) {
        entries.clear();
        seen = version;
      }
      if (version === null) return store.findAccountByKey(key);
      const hash = hashApiKey(key);
      const cached = entries.get(hash);
      if (cached) return cached;
      const account = await store.findAccountByKey(key);
      if (account && changes.version() === version) {
        // Shared by every request of the key from now on: frozen, so that no route can change another's account.
        if (account.metricPrefixes) Object.freeze(account.metricPrefixes);
        entries.set(hash, Object.freeze(account));
      }
      return account;
    },
  };
}
