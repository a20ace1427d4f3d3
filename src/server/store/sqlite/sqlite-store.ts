import type { Database } from 'better-sqlite3';
import type { Store, StoreReadiness } from '../store.js';
import type { AccountStore } from '../account-store.js';
import type { AlertStore } from '../alert-store.js';
import type { ChannelStore } from '../channel-store.js';
import type { ScheduleStore } from '../schedule-store.js';
import type { HistoryStore } from '../history-store.js';
import type { AckStore } from '../ack-store.js';
import type { OutboxStore } from '../outbox.js';
import type { ConsoleStore } from '../console-store.js';
import { bindRows } from '../bind-rows.js';
import { MIGRATIONS } from './migrations.js';
import * as accountRows from './account-rows.js';
import * as alertRows from './alert-rows.js';
import * as channelRows from './channel-rows.js';
import * as scheduleRows from './schedule-rows.js';
import * as historyRows from './history-rows.js';
import * as ackRows from './ack-rows.js';
import * as outboxRows from './outbox-rows.js';
import * as throttleRows from './throttle-rows.js';
import * as consoleRows from './console-rows.js';
import { SqliteEvaluationRows } from './evaluation-rows.js';
import { PendingDeliveryBound } from '../pending-bound.js';
import { listsHeld } from '../held-listing.js';
import { openDatabase } from './open-database.js';
import { watchSqliteAccountChanges, type SqliteAccountChanges } from './account-changes.js';
import { closeDeliveryGroups } from './group-rows.js';
import { sqliteWindowStore } from './window-rows.js';
import type { WindowStore } from '../window-store.js';

/** The Store on SQLite, with what only SQLite can do: an online backup. */
export interface SqliteStore extends Store {
  readonly pendingBound: PendingDeliveryBound;
  accountChanges(): SqliteAccountChanges;
  /** Copies the database, while it is in use, to `path` (SQLite's online backup): a consistent snapshot. */
  backup(path: string): Promise<void>;
}

/**
 * Opens a file database (created and migrated as needed) or `:memory:` as the Store on SQLite (better-sqlite3). One
 * connection; better-sqlite3 is synchronous, so writes serialise. Each concern is its rows file bound to the
 * connection (bindRows); the few lines below are where a backend does more than one rows call.
 */
export function openSqliteStore(path: string): SqliteStore {
  const db = openDatabase(path);
  let changes: SqliteAccountChanges | undefined;
  const accountChanges = (): SqliteAccountChanges => (changes ??= watchSqliteAccountChanges(db));
  const pendingBound = new PendingDeliveryBound();
  return {
    accounts: bindRows(db, accountRows) satisfies AccountStore,
    alerts: bindRows(db, alertRows) satisfies AlertStore,
    channels: bindRows(db, channelRows) satisfies ChannelStore,
    schedules: bindRows(db, scheduleRows) satisfies ScheduleStore,
    history: {
      ...bindRows(db, historyRows),
      // One transaction for the lot: one disk sync, and all entries or none.
      appendHistory: async (entries) => db.transaction(() => historyRows.appendHistory(db, entries))(),
    } satisfies HistoryStore,
    acks: {
      ...bindRows(db, ackRows),
      acknowledgeAlert: async (accountId, alertId, write) => ackRows.acknowledgeAlert(db, accountId, alertId, write, pendingBound),
    } satisfies AckStore,
    outbox: {
      ...bindRows(db, outboxRows),
      closeThrottleWindows: async (now) => throttleRows.closeThrottleWindows(db, now),
      closeDeliveryGroups: async (now) => closeDeliveryGroups(db, now),
      listDeliveries: async (accountId, query) =>
        listsHeld(query) ? throttleRows.listDeliveriesWithHeld(db, accountId, query) : outboxRows.listDeliveries(db, accountId, query),
    } satisfies OutboxStore,
    console: bindRows(db, consoleRows) satisfies ConsoleStore,
    windows: sqliteWindowStore(db) satisfies WindowStore,
    evaluation: new SqliteEvaluationRows(db, accountChanges, pendingBound),
    pendingBound,
    accountChanges,
    checkReadiness: async () => checkSqliteReadiness(db),
    backup: async (to) => {
      await db.backup(to);
    },
    close: async () => {
      if (db.open) db.close();
    },
  };
}

function checkSqliteReadiness(db: Database): StoreReadiness {
  // A real read: a closed or vanished database throws here.
  const schemaVersion = db.pragma('user_version', { simple: true }) as number;
  db.prepare('SELECT 1 FROM accounts LIMIT 1').get();
  return { schemaVersion, expectedSchemaVersion: MIGRATIONS.length };
}
