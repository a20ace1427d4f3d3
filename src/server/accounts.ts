import type { Logger } from 'pino';
import type { Store } from './store/store.js';

/**
 * Makes sure each key exists: a key not yet known gets a new account of its own (with its `Email me` channel).
 * A known key is left as it is, even when revoked (a revocation wins over a flag on the command line).
 */
export async function ensureApiKeys(store: Store, keys: string[], logger?: Logger): Promise<void> {
  for (const key of new Set(keys.map((k) => k.trim()).filter(Boolean))) {
    const existing = await store.findApiKey(key);
    if (existing) {
      if (existing.revokedAt) logger?.warn({ keyId: existing.id }, 'a key given to serve is revoked; it stays revoked');
      continue;
    }
    const account = await store.createAccount(null);
    await store.addApiKey(account.id, key);
  }
}
