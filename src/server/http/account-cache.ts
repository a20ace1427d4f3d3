import { hashApiKey } from '../ids.js';
import { deepFreeze } from '../deep-freeze.js';
import { RecentMap, emptiedOnChange } from './recent-map.js';
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

/** Finds the account of an API key, as AccountStore.findAccountByKey does. */
export interface AccountCache {
  /**
   * The account of `key`. With `header` (the raw Authorization header `key` was read from), a found account is
   * also remembered under that header, for `findByHeader`.
   */
  find(key: string, header?: string): Promise<AccountRecord | null>;
  /**
   * The account last found for exactly this Authorization header, if it is still trusted; undefined otherwise
   * (then the caller reads the key and calls `find`). Saves a request the header's parsing and the key's SHA-256.
   */
  findByHeader(header: string): AccountRecord | undefined;
}

/**
 * The longest Authorization header remembered as is. A Basic header carries any password after the key: without a
 * bound, one valid key with many long passwords could fill the cache with megabytes of headers.
 */
const MAX_REMEMBERED_HEADER = 512;

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
 * The same holds for the second map, by raw Authorization header (at most 512 characters): filled only when the
 * database has just answered an account for the key read from that very header, emptied with the first, of the same
 * size and age. Looking a header up there is a Map lookup of a secret-bearing string, which is not constant-time:
 * V8 compares a candidate with a stored header only when their full string hashes are equal, and a wrong guess's
 * hash is unrelated to any stored key's, so how long a lookup takes says nothing about how close a guess is (and
 * wrong keys are limited to 20 a minute per address before this). The keys stay in memory only as long as their
 * header stays in the map (5 s at most), as they do in any request in flight.
 */
export function createAccountCache(store: Pick<Store, 'accountChanges' | 'accounts'>, options: AccountCacheOptions = {}): AccountCache {
  const changes = store.accountChanges?.() ?? null;
  if (!changes) return { find: (key) => store.accounts.findAccountByKey(key), findByHeader: () => undefined };
  const maxEntries = options.maxEntries ?? 10_000;
  const maxAgeMs = options.maxAgeMs ?? 5_000;
  const entries = new RecentMap<AccountRecord>(maxEntries, maxAgeMs, options.now);
  const byHeader = new RecentMap<AccountRecord>(maxEntries, maxAgeMs, options.now);
  const current = emptiedOnChange(() => changes.version(), entries, byHeader);
  return {
    async find(key, header) {
      const version = current();
      if (version === null) return store.accounts.findAccountByKey(key);
      const hash = hashApiKey(key);
      const cached = entries.get(hash);
      if (cached) return cached;
      const account = await store.accounts.findAccountByKey(key);
      if (account && changes.version() === version) {
        // Shared by every request of the key from now on: frozen, so that no route can change another's account.
        entries.set(hash, deepFreeze(account));
        // Stored with the hash's entry, so that it is trusted no longer than that entry.
        if (header !== undefined && header.length <= MAX_REMEMBERED_HEADER) byHeader.set(header, account);
      }
      return account;
    },
    findByHeader(header) {
      return current() === null ? undefined : byHeader.get(header);
    },
  };
}
