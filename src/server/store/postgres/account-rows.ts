import { createId, hashApiKey, hashesEqual } from '../../ids.js';
import { DEFAULT_CHANNEL } from '../../../model/defaults.js';
import type { AccountRecord, ApiKeyRecord } from '../store.js';
import { accountFromRow, API_KEY_SELECT, apiKeyFromRow, type AccountRow, type ApiKeyRow } from '../row-mappers.js';
import type { PgDatabase } from './pg-database.js';

/** AccountStore.createAccount on PostgreSQL: the account and its `Email me` channel in one transaction. */
export async function createAccount(db: PgDatabase, email: string | null): Promise<AccountRecord> {
  const account = { id: createId(), email, createdAt: new Date().toISOString() };
  await db.transaction(async (tx) => {
    await tx.query('INSERT INTO accounts (id, email, created_at) VALUES ($1, $2, $3)', [account.id, email, account.createdAt]);
    await tx.query('INSERT INTO channels (id, account_id, type, description, destination) VALUES ($1, $2, $3, $4, $5)', [
      createId(),
      account.id,
      'email',
      DEFAULT_CHANNEL,
      email ?? '',
    ]);
  });
  return account;
}

export async function findAccountByEmail(db: PgDatabase, email: string): Promise<AccountRecord | null> {
  const [row] = await db.query<AccountRow>('SELECT id, email, created_at FROM accounts WHERE email = $1 ORDER BY seq LIMIT 1', [email]);
  return row ? accountFromRow(row) : null;
}

/** The key and its account's email in one statement (one round trip). */
export async function addApiKey(db: PgDatabase, accountId: string, key: string): Promise<ApiKeyRecord> {
  const id = createId();
  const createdAt = new Date().toISOString();
  const [row] = await db.query<{ email: string | null }>(
    `WITH added AS (INSERT INTO api_keys (id, account_id, key_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING account_id)
     SELECT a.email FROM added JOIN accounts a ON a.id = added.account_id`,
    [id, accountId, hashApiKey(key), createdAt],
  );
  return { id, accountId, email: row?.email ?? null, createdAt, revokedAt: null };
}

export async function findAccountByKey(db: PgDatabase, key: string): Promise<AccountRecord | null> {
  const hash = hashApiKey(key);
  const [row] = await db.query<AccountRow & { key_hash: string }>(
    `SELECT k.key_hash, a.id, a.email, a.created_at, a.metric_prefixes FROM api_keys k
     JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [hash],
  );
  // The lookup is by hash already; the constant-time compare guards against any future lookup by prefix.
  return row && hashesEqual(row.key_hash, hash) ? accountFromRow(row) : null;
}

export async function setMetricPrefixes(db: PgDatabase, accountId: string, prefixes: string[]): Promise<void> {
  await db.query('UPDATE accounts SET metric_prefixes = $1 WHERE id = $2', [JSON.stringify(prefixes), accountId]);
}

export async function findApiKey(db: PgDatabase, key: string): Promise<ApiKeyRecord | null> {
  const [row] = await db.query<ApiKeyRow>(`${API_KEY_SELECT} WHERE k.key_hash = $1 ORDER BY k.seq`, [hashApiKey(key)]);
  return row ? apiKeyFromRow(row) : null;
}

export async function listApiKeys(db: PgDatabase): Promise<ApiKeyRecord[]> {
  return (await db.query<ApiKeyRow>(`${API_KEY_SELECT} ORDER BY k.seq`)).map(apiKeyFromRow);
}

/** Marks a key revoked, keeping the first revocation's time; false when no key has that id. */
export async function revokeApiKey(db: PgDatabase, keyId: string): Promise<boolean> {
  // COALESCE keeps the first revocation time, as SQLite's `AND revoked_at IS NULL` does, and still finds the row.
  const rows = await db.query('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING id', [new Date().toISOString(), keyId]);
  return rows.length > 0;
}
