import type { Database } from 'better-sqlite3';
import type { AccountChanges } from '../account-changes.js';

/**
 * Account and key changes on SQLite, seen at once whoever makes them:
 * - this connection's writes (the server's own, a store used by a test) fire temporary triggers (they exist only
 *   on this connection) that call back into this process;
 * - commits of any other connection (`alertform keys revoke` run against the same file) change
 *   `PRAGMA data_version`, read on every call: a few microseconds, no disk read (WAL index in shared memory).
 */
export function watchSqliteAccountChanges(db: Database): AccountChanges {
  let generation = 0;
  db.function('alertform_accounts_changed', { deterministic: false }, () => {
    generation += 1;
    return null;
  });
  for (const table of ['accounts', 'api_keys']) {
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS alertform_${table}_${event.toLowerCase()}_seen AFTER ${event} ON main.${table}
         BEGIN SELECT alertform_accounts_changed(); END`,
      );
    }
  }
  const dataVersion = db.prepare('PRAGMA data_version');
  let lastDataVersion: unknown;
  return {
    version() {
      // db.prepare hands back its cached statement with pluck off (open-database.ts): pluck again each time.
      const current = dataVersion.pluck().get();
      if (current !== lastDataVersion) {
        lastDataVersion = current;
        generation += 1;
      }
      return generation;
    },
    async close() {},
  };
}
