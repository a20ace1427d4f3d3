import { deepFreeze } from '../deep-freeze.js';
import type { AlertQuery, AlertRecord, Page, Store } from '../store/store.js';
import type { AlertStore } from '../store/alert-store.js';
import { RecentMap, emptiedOnChange } from './recent-map.js';

/** Settings of an AlertReadCache; tests shorten them. */
export interface AlertReadCacheOptions {
  /** Single alerts remembered at once (oldest dropped first). Default 10,000. */
  maxAlerts?: number;
  /** Search pages remembered at once (oldest dropped first). Default 100 (at most 100 alerts each by default). */
  maxPages?: number;
  /** How long an answer is trusted without asking the store again, ms. Default 5,000: a backstop (RecentMap). */
  maxAgeMs?: number;
  now?: () => number;
}

/** The two alert reads of the API (GET /v2/alerts/:id and a search page), as the Store answers them. */
export type AlertReads = Pick<AlertStore, 'getAlert' | 'searchAlerts'>;

/** The alert reads, plus a look at what is already remembered (the fast path of http/cached-read.ts). */
export interface AlertReadCache extends AlertReads {
  /**
   * What getAlert would answer from memory right now without asking the store: the remembered record (null: the
   * store said there is none), or undefined when nothing current is remembered (then only getAlert can tell).
   */
  peekAlert(accountId: string, id: string): AlertRecord | null | undefined;
}

/**
 * The store's answers to recent alert reads, so that reading an alert or a search page again costs no query.
 * Only store records are kept, never responses: what depends on the time (`muted`, an acknowledgement's expiry)
 * and on schedules is computed per request as before (routes/alert-json.ts reuses a record's JSON text only while
 * those per-request parts are unchanged). Correct between hostile tenants and across replicas:
 * - an entry is keyed by account id and the exact question (alert id, or every field of the search), and holds
 *   what the store answered for that account;
 * - every write to alerts, their links or channels (their descriptions are searched), by this process or any
 *   other, empties the cache before the next read (the store's AccountChanges, topic `alerts`: at once on SQLite
 *   and for this process's own writes on PostgreSQL; other PostgreSQL replicas' writes arrive by NOTIFY within
 *   milliseconds); a read that was in flight across a write is not kept; a store that cannot tell changes (or a
 *   PostgreSQL listener that is down) disables the cache;
 * - bounded by count, and each answer trusted 5 s at most (a backstop for a change that was never told: a
 *   LISTEN connection that died silently); records are frozen, since every later request shares them.
 */
export function createAlertReadCache(store: Pick<Store, 'alerts' | 'accountChanges'>, options: AlertReadCacheOptions = {}): AlertReadCache {
  const changes = store.accountChanges?.() ?? null;
  if (!changes) {
    return {
      getAlert: (accountId, id) => store.alerts.getAlert(accountId, id),
      searchAlerts: (accountId, query) => store.alerts.searchAlerts(accountId, query),
      peekAlert: () => undefined,
    };
  }
  const maxAgeMs = options.maxAgeMs ?? 5_000;
  const alerts = new RecentMap<AlertRecord | null>(options.maxAlerts ?? 10_000, maxAgeMs, options.now);
  const pages = new RecentMap<Page<AlertRecord>>(options.maxPages ?? 100, maxAgeMs, options.now);
  const current = emptiedOnChange(() => changes.version('alerts'), alerts, pages);
  return {
    async getAlert(accountId, id) {
      const version = current();
      if (version === null) return store.alerts.getAlert(accountId, id);
      const key = `${accountId}/${id}`;
      const cached = alerts.get(key);
      if (cached !== undefined) return cached;
      const alert = await store.alerts.getAlert(accountId, id);
      if (changes.version('alerts') === version) alerts.set(key, alert && deepFreeze(alert));
      return alert;
    },
    async searchAlerts(accountId, query: AlertQuery) {
      const version = current();
      if (version === null) return store.alerts.searchAlerts(accountId, query);
      const key = JSON.stringify([accountId, query.names, query.ids, query.search, query.page, query.max]);
      const cached = pages.get(key);
      if (cached) return cached;
      const page = await store.alerts.searchAlerts(accountId, query);
      if (changes.version('alerts') === version) pages.set(key, deepFreeze(page));
      return page;
    },
    peekAlert(accountId, id) {
      return current() === null ? undefined : alerts.get(`${accountId}/${id}`);
    },
  };
}
