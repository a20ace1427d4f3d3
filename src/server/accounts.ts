import type { Logger } from 'pino';
import type { Store } from './store/store.js';

/**
 * Makes sure each key exists: a key not yet known gets a new account of its own (with its `Email me` channel).
 * A known key is left as it is, even when revoked (a revocation wins over a flag on the command line).
 */
export async function ensureApiKeys(store: Pick<Store, 'accounts'>, keys: string[], logger?: Logger): Promise<void> {
  for (const key of new Set(keys.map((k) => k.trim()).filter(Boolean))) {
    const existing = await store.accounts.findApiKey(key);
    if (existing) {
      if (existing.revokedAt) logger?.warn({ keyId: existing.id }, 'a key given to serve is revoked; it stays revoked');
      continue;
    }
    const account = await store.accounts.createAccount(null);
    try {
      await store.accounts.addApiKey(account.id, key);
    } catch (error) {
      // Replicas started together with the same keys race here: the first key written wins, and the account made
      // here is left without a key (unreachable). Only a key that is still missing is a failure to start.
      if (!(await store.accounts.findApiKey(key))) throw error;
    }
  }
}
