import type { Database } from 'better-sqlite3';
import type { AccountChanges, ChangeTopic } from '../account-changes.js';

/** The tables each topic's cached reads come from. */
const TABLES: Record<ChangeTopic, string[]> = {
  accounts: ['accounts', 'api_keys'],
  alerts: ['alerts', 'alert_channels', 'alert_schedules', 'channels'],
  // What the evaluator's listing reads (evaluation-rows.ts, accounts for their metric prefixes); its own saves are
  // left out (whileEvaluatorSaves).
  evaluation: ['alerts', 'alert_channels', 'alert_schedules', 'schedules', 'maintenance_windows', 'accounts'],
};

/** SQLite's changes, and a way for the evaluator's save to write without counting as a change of its inputs. */
export interface SqliteAccountChanges extends AccountChanges {
  /**
   * Runs `work` (the evaluator's save: status, triggered metrics, state, an acknowledgement's end) without moving
   * the `evaluation` topic: the evaluator's listing cache applies its own saves (evaluation-listing-cache.ts).
   */
  whileEvaluatorSaves<T>(work: () => T): T;
}

/**
 * Changes on SQLite, seen at once whoever makes them:
 * - this connection's writes (the server's own, a store used by a test) fire temporary triggers (they exist only
 *   on this connection) that call back into this process;
 * - commits of any other connection (`alertform keys revoke` run against the same file) change
 *   `PRAGMA data_version`. Reading it takes the WAL index's shared-memory locks (system calls: about 10 us under
 *   load, the largest cost of a cached read), so it is read once per turn of the event loop: every request whose
 *   bytes were read in that turn sees the commits made before the turn began, as if it had been handled first
 *   thing in the turn; a request read later, in the next turn, sees every commit made before it.
 */
export function watchSqliteAccountChanges(db: Database): SqliteAccountChanges {
  const generations: Record<ChangeTopic, number> = { accounts: 0, alerts: 0, evaluation: 0 };
  let evaluatorSaving = false;
  db.function('alertform_data_changed', { deterministic: false }, (topic: unknown) => {
    if (!(topic === 'evaluation' && evaluatorSaving)) generations[topic as ChangeTopic] += 1;
    return null;
  });
  for (const [topic, tables] of Object.entries(TABLES)) {
    // The first topics' trigger names are kept as they were; a table's triggers are per topic.
    const prefix = topic === 'evaluation' ? 'alertform_evaluation' : 'alertform';
    for (const table of tables) {
      for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
        db.exec(
          `CREATE TEMP TRIGGER IF NOT EXISTS ${prefix}_${table}_${event.toLowerCase()}_seen AFTER ${event} ON main.${table}
           BEGIN SELECT alertform_data_changed('${topic}'); END`,
        );
      }
    }
  }
  const dataVersion = db.prepare('PRAGMA data_version');
  let lastDataVersion: unknown;
  let readThisTurn = false;
  const nextTurn = () => {
    readThisTurn = false;
  };
  const version = (topic: ChangeTopic = 'accounts') => {
    if (!readThisTurn) {
      readThisTurn = true;
      setImmediate(nextTurn);
      // db.prepare hands back its cached statement with pluck off (open-database.ts): pluck again each time.
      const current = dataVersion.pluck().get();
      if (current !== lastDataVersion) {
        lastDataVersion = current;
        generations.accounts += 1;
        generations.alerts += 1;
        generations.evaluation += 1;
      }
    }
    return generations[topic];
  };
  return {
    version,
    async settledVersion(topic) {
      // Once a cycle: read data_version now rather than once per turn, so a commit made earlier in this very turn
      // (by another process) counts too.
      readThisTurn = false;
      return version(topic);
    },
    whileEvaluatorSaves(work) {
      evaluatorSaving = true;
      try {
        return work();
      } finally {
        evaluatorSaving = false;
      }
    },
    async close() {},
  };
}
