import Database from 'better-sqlite3';
import { migrateDatabase } from './migrations.js';

/**
 * Opens (creating if needed) and migrates a SQLite database. WAL lets readers run beside the writer;
 * synchronous=FULL makes every commit fsync the WAL, so a write answered 2xx survives a power loss and not only
 * a crash of the process (NORMAL would only promise the latter). Writes are small, so the fsync is affordable.
 */
export function openDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrateDatabase(db);
  return db;
}
