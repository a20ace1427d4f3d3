import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

/** Whether a --db value names a PostgreSQL database (postgres:// or postgresql://) rather than a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/**
 * Opens the store a --db value names: a postgres:// URL is PostgreSQL (migrated on open), anything else a SQLite
 * file path or `:memory:`. The one place that decides, for `serve` and `keys` alike.
 */
export async function openStore(db: string): Promise<Store> {
  return isPostgresUrl(db) ? openPostgresStore(db) : openSqliteStore(db);
}
