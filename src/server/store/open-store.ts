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
  // Only the backend named is loaded: `keys` and `backup` on a SQLite file never load pg, nor the reverse.
  if (isPostgresUrl(db)) return (await import('./postgres/postgres-store.js')).openPostgresStore(db);
  return (await import('./sqlite/sqlite-store.js')).openSqliteStore(db);
}

/** A database for the logs: a file path as is, a URL without its user and password. */
export function describeDatabase(db: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(db)) return db;
  try {
    const url = new URL(db);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    // A multi-host URL (`postgres://U:P@H1:P1,H2:P2/DB`) is not a WHATWG URL: drop the user-info by hand, and
    // show nothing if an '@' is left anywhere (a password with a '/' or an '@' in it, not percent-encoded).
    const stripped = db.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, '$1');
    return stripped.includes('@') ? '(unparsable database URL)' : stripped;
  }
}
