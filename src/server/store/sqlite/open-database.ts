import { chmodSync, closeSync, constants, openSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { migrateDatabase } from './migrations.js';

/** What `serve`, `keys` and `backup` say when the optional SQLite driver is not installed (or did not build). */
export class SqliteUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      'SQLite support (the optional better-sqlite3 package) is not installed or did not build here: ' +
        'run `npm install better-sqlite3` where alertform is installed (its binaries cover Linux, macOS and Windows on x64 and arm64), ' +
        'or use PostgreSQL with --db postgres://...',
      { cause },
    );
    this.name = 'SqliteUnavailableError';
  }
}

let driver: typeof Database | undefined;

/**
 * better-sqlite3, loaded on first use: it is an optional dependency (a native module that may not build), and the
 * CLI's validate/plan/apply must run without it. A synchronous require keeps openSqliteStore synchronous.
 * Not node:sqlite: measured on Node 24 it is no faster here (100,000 inserts in a transaction, gets by id and a full
 * read within the run-to-run noise of each other), Node 22 still calls it experimental (a warning at every start),
 * and this store is written to better-sqlite3's API (its transactions, pluck). Since version 13 its binaries
 * ship inside the package (Node-API, one per platform), so nothing is compiled at install on Linux, macOS or Windows.
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
  keepStatementsAlive(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrateDatabase(db);
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

/**
 * Every Database and Statement object better-sqlite3 ever handed out, kept reachable until the process exits.
 *
 * Why: since Node 24.19, node::ObjectWrap's destructor removes an environment cleanup hook and asserts that a V8
 * context is entered. better-sqlite3 12 (13 does not load on Node 20) derives Database and Statement from
 * ObjectWrap, so a statement finalised by an idle garbage collection aborts the process with
 * "Assertion failed: (env) != nullptr" in RemoveEnvironmentCleanupHook. That would take a serving alertform down
 * at a random moment after a read. Objects that are never collected are never finalised by the GC; they are freed
 * with the process. The set is bounded: one Database per open store and one Statement per distinct SQL text
 * (searches build a few variants) plus the rare statement prepared while its cached twin is still iterating.
 */
const neverCollected: object[] = [];

/**
 * Makes `db.prepare` reuse the statement already prepared for the same SQL text (preparing, i.e. parsing and
 * planning the SQL, was the largest cost of a read: four prepares per GET of one alert), and routes `db.pragma`
 * through it, so that no statement is ever left for the garbage collector (see neverCollected). A reused statement
 * comes back with pluck, raw and expand off, as a new one would, so callers that switch them on do not leak the mode.
 */
export function keepStatementsAlive(db: Database.Database): void {
  neverCollected.push(db);
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    const cached = cache.get(sql);
    if (cached && !cached.busy) {
      if (cached.reader) cached.raw(false).pluck(false).expand(false);
      return cached;
    }
    const statement = prepare(sql);
    neverCollected.push(statement);
    if (!cached) cache.set(sql, statement);
    return statement;
  }) as typeof db.prepare;
  // better-sqlite3's own pragma() prepares on the native handle, past the cache: one new statement per call.
  db.pragma = ((source: string, options: { simple?: boolean } = {}) => {
    const statement = db.prepare(`PRAGMA ${source}`);
    if (!statement.reader) return statement.run(), [];
    return options.simple ? statement.pluck().get() : statement.all();
  }) as typeof db.pragma;
}
