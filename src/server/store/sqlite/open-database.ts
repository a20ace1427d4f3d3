import { chmodSync, closeSync, constants, openSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { migrateDatabase } from './migrations.js';

/** What `serve`, `keys` and `backup` say when the optional SQLite driver is not installed (or did not build). */
export class SqliteUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      'SQLite support (the optional better-sqlite3 package) is not installed or did not build here: ' +
        'run `npm install better-sqlite3` where alertform is installed (it needs a prebuilt binary or a C++ toolchain), ' +
        'or use PostgreSQL with --db postgres://...',
      { cause },
    );
    this.name = 'SqliteUnavailableError';
  }
}

let driver: typeof Database | undefined;

/**
 * better-sqlite3, loaded on first use: it is an optional dependency (a native module that may not build), and the
 * CLI's validate/plan/apply must run without it. A synchronous require keeps SqliteStore.open synchronous.
 */
export function loadSqliteDriver(): typeof Database {
  if (!driver) {
    try {
      driver = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
    } catch (error) {
      throw new SqliteUnavailableError(error);
    }
  }
  return driver;
}

/**
 * Opens (creating if needed) and migrates a SQLite database. WAL lets readers run beside the writer;
 * synchronous=FULL makes every commit fsync the WAL, so a write answered 2xx survives a power loss and not only
 * a crash of the process (NORMAL would only promise the latter). Writes are small, so the fsync is affordable.
 */
export function openDatabase(path: string): Database.Database {
  const Sqlite = loadSqliteDriver();
  if (path !== ':memory:' && path !== '') restrictDatabaseFiles(path);
  const db = new Sqlite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrateDatabase(db);
  cacheStatements(db);
  return db;
}

/**
 * Keeps the database readable by its owner only: it holds API key hashes, webhook URLs and integration keys.
 * SQLite creates the -wal and -shm files with the main file's permissions, so creating that one 0600 (and
 * tightening an existing one, and leftover -wal/-shm files) covers all three.
 */
function restrictDatabaseFiles(path: string): void {
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_RDWR, 0o600));
  } catch {
    // Let SQLite report what is wrong with the path (a missing directory, no permission) in its own words.
    return;
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    } catch {
      // Absent (-wal/-shm before the first write) or not ours: nothing to tighten.
    }
  }
}

/** How many distinct SQL texts keep their prepared statement; searches build a few variants, never thousands. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Makes `db.prepare` reuse the statement already prepared for the same SQL text. Preparing (parsing and planning
 * the SQL) was the largest cost of a read: four prepares per GET of one alert. A reused statement comes back with
 * pluck, raw and expand off, as a new one would, so callers that switch them on do not leak the mode.
 */
export function cacheStatements(db: Database.Database): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    const cached = cache.get(sql);
    if (cached && !cached.busy) {
      if (cached.reader) cached.raw(false).pluck(false).expand(false);
      return cached;
    }
    const statement = prepare(sql);
    if (!cached && cache.size < STATEMENT_CACHE_SIZE) cache.set(sql, statement);
    return statement;
  }) as typeof db.prepare;
}
