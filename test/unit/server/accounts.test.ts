import { afterEach, expect, it } from 'vitest';
import { ensureApiKeys } from '../../../src/server/accounts.js';
import { openStore } from '../../../src/server/store/open-store.js';
import type { Store } from '../../../src/server/store/store.js';

let store: Store | undefined;
afterEach(() => store?.close());

it('lets replicas started together with the same keys all start, with one account per key', async () => {
  store = await openStore(':memory:');
  const keys = ['replica-key-0123456789abcdef', 'other-key-0123456789abcdefgh'];
  // Each call reads "no such key" before either writes it, as two replicas starting at once do.
  await Promise.all([ensureApiKeys(store, keys), ensureApiKeys(store, keys), ensureApiKeys(store, keys)]);
  const listed = await store.accounts.listApiKeys();
  expect(listed).toHaveLength(2);
  for (const key of keys) expect(await store.accounts.findAccountByKey(key)).not.toBeNull();
});
