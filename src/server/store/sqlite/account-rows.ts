import type { Database } from 'better-sqlite3';
import { createId, hashApiKey, hashesEqual } from '../../ids.js';
import { DEFAULT_CHANNEL } from '../../../model/defaults.js';
import type { AccountRecord, ApiKeyRecord } from '../store.js';
import { accountFromRow, API_KEY_SELECT, apiKeyFromRow, type AccountRow, type ApiKeyRow } from '../row-mappers.js';

/** AccountStore.createAccount on SQLite: the account and its `Email me` channel in one transaction. */
export function createAccount(db: Database, email: string | null): AccountRecord {
  const account = { id: createId(), email, createdAt: new Date().toISOString() };
  db.transaction(() => {
    db.prepare('INSERT INTO accounts (id, email, created_at) VALUES (?, ?, ?)').run(account.id, email, account.createdAt);
    db.prepare('INSERT INTO channels (id, account_id, type, description, destination) VALUES (?, ?, ?, ?, ?)').run(
      createId(),
      account.id,
      'email',
      DEFAULT_CHANNEL,
      email ?? '',
    );
  })();
  return account;
}

export function findAccountByEmail(db: Database, email: string): AccountRecord | null {
  const row = db.prepare('SELECT id, email, created_at FROM accounts WHERE email = ? ORDER BY seq LIMIT 1').get(email) as AccountRow | undefined;
  return row ? accountFromRow(row) : null;
}

export function addApiKey(db: Database, accountId: string, key: string): ApiKeyRecord {
  const id = createId();
  const createdAt = new Date().toISOString();
  db.prepare('INSERT INTO api_keys (id, account_id, key_hash, created_at) VALUES (?, ?, ?, ?)').run(id, accountId, hashApiKey(key), createdAt);
  const email = db.prepare('SELECT email FROM accounts WHERE id = ?').pluck().get(accountId) as string | null;
  return { id, accountId, email, createdAt, revokedAt: null };
}

export function findAccountByKey(db: Database, key: string): AccountRecord | null {
  const hash = hashApiKey(key);
  const row = db
    .prepare(
      `SELECT k.key_hash, a.id, a.email, a.created_at, a.metric_prefixes FROM api_keys k
       JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    )
    .get(hash) as (AccountRow & { key_hash: string }) | undefined;
  // The lookup is by hash already; the constant-time compare guards against any future lookup by prefix.
  return row && hashesEqual(row.key_hash, hash) ? accountFromRow(row) : null;
}

export function setMetricPrefixes(db: Database, accountId: string, prefixes: string[]): void {
  db.prepare('UPDATE accounts SET metric_prefixes = ? WHERE id = ?').run(JSON.stringify(prefixes), accountId);
}

export function findApiKey(db: Database, key: string): ApiKeyRecord | null {
  const row = db.prepare(`${API_KEY_SELECT} WHERE k.key_hash = ? ORDER BY k.seq`).get(hashApiKey(key)) as ApiKeyRow | undefined;
  return row ? apiKeyFromRow(row) : null;
}

export function listApiKeys(db: Database): ApiKeyRecord[] {
  return (db.prepare(`${API_KEY_SELECT} ORDER BY k.seq`).all() as ApiKeyRow[]).map(apiKeyFromRow);
}

/** Marks a key revoked, keeping the first revocation's time; false when no key has that id. */
export function revokeApiKey(db: Database, keyId: string): boolean {
  const found = db.prepare('SELECT 1 FROM api_keys WHERE id = ?').get(keyId);
  if (!found) return false;
  db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(new Date().toISOString(), keyId);
  return true;
}
