import type { Store, StoreReadiness } from '../store.js';
import type { AccountStore } from '../account-store.js';
import type { AlertStore } from '../alert-store.js';
import type { ChannelStore } from '../channel-store.js';
import type { ScheduleStore } from '../schedule-store.js';
import type { HistoryStore } from '../history-store.js';
import type { AckStore } from '../ack-store.js';
import type { OutboxStore } from '../outbox.js';
import type { ConsoleStore } from '../console-store.js';
import type { AccountChanges } from '../account-changes.js';
import { bindRows } from '../bind-rows.js';
import * as accountRows from './account-rows.js';
import * as alertRows from './alert-rows.js';
import * as channelRows from './channel-rows.js';
import * as scheduleRows from './schedule-rows.js';
import * as historyRows from './history-rows.js';
import * as ackRows from './ack-rows.js';
import * as outboxRows from './outbox-rows.js';
import * as throttleRows from './throttle-rows.js';
import * as consoleRows from './console-rows.js';
import { PostgresEvaluationRows } from './evaluation-rows.js';
import { PendingDeliveryBound } from '../pending-bound.js';
import { listsHeld } from '../held-listing.js';
import { MIGRATIONS, migrateDatabase } from './migrations.js';
import { watchPostgresAccountChanges } from './account-changes.js';
import { PgDatabase, type PoolOptions } from './pg-database.js';
import { closeDeliveryGroups } from './group-rows.js';
import { postgresWindowStore } from './window-rows.js';
import type { WindowStore } from '../window-store.js';

/** The Store on PostgreSQL. */
export interface PostgresStore extends Store {
  readonly pendingBound: PendingDeliveryBound;
  accountChanges(): AccountChanges;
  countLiveEvaluators(): Promise<number>;
}

/**
 * Connects to `url` (postgres://USER[:PASSWORD]@HOST:PORT/DB, or several hosts with target_session_attrs, see
 * PgDatabase), brings the schema up to date and answers the Store on PostgreSQL (node-postgres, a pool of
 * connections). The same semantics as the SQLite store in every method: creation order (`seq`), per-account
 * uniqueness enforced by the database's UNIQUE constraints, search and pagination in SQL, and a transaction wherever
 * SQLite uses one. A database that cannot be reached surfaces as StoreUnavailable.
 */
export async function openPostgresStore(url: string, options: PoolOptions = {}): Promise<PostgresStore> {
  const db = new PgDatabase(url, options);
  try {
    await db.locate();
    await migrateDatabase(db.pool);
  } catch (error) {
    await db.close();
    throw error;
  }
  return assemblePostgresStore(db);
}

/**
 * Each concern is its rows file bound to the pool (bindRows); the few lines below are where a backend does more
 * than one rows call.
 */
function assemblePostgresStore(db: PgDatabase): PostgresStore {
  let changes: AccountChanges | undefined;
  const accountChanges = (): AccountChanges => (changes ??= watchPostgresAccountChanges(db));
  const pendingBound = new PendingDeliveryBound();
  return {
    accounts: bindRows(db, accountRows) satisfies AccountStore,
    alerts: bindRows(db, alertRows) satisfies AlertStore,
    channels: bindRows(db, channelRows) satisfies ChannelStore,
    schedules: bindRows(db, scheduleRows) satisfies ScheduleStore,
    history: bindRows(db, historyRows) satisfies HistoryStore,
    acks: {
      ...bindRows(db, ackRows),
      acknowledgeAlert: async (accountId, alertId, write) => ackRows.acknowledgeAlert(db, accountId, alertId, write, pendingBound),
    } satisfies AckStore,
    outbox: {
      ...bindRows(db, outboxRows),
      // A claim and a finish each read then write their rows: one transaction, so two workers never take one row.
      claimDueDeliveries: async (claim) => db.transaction((tx) => outboxRows.claimDueDeliveries(tx, claim)),
      finishDeliveries: async (finished) => db.transaction((tx) => outboxRows.finishDeliveries(tx, finished)),
      closeThrottleWindows: async (now) => throttleRows.closeThrottleWindows(db, now),
      closeDeliveryGroups: async (now) => closeDeliveryGroups(db, now),
      listDeliveries: async (accountId, query) =>
        listsHeld(query) ? throttleRows.listDeliveriesWithHeld(db, accountId, query) : outboxRows.listDeliveries(db, accountId, query),
    } satisfies OutboxStore,
    console: bindRows(db, consoleRows) satisfies ConsoleStore,
    windows: postgresWindowStore(db) satisfies WindowStore,
    evaluation: new PostgresEvaluationRows(db, accountChanges, pendingBound),
    pendingBound,
    accountChanges,
    checkReadiness: async (): Promise<StoreReadiness> => {
      // A real read: an unreachable database throws StoreUnavailable here.
      const [row] = await db.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
      return { schemaVersion: row?.version ?? 0, expectedSchemaVersion: MIGRATIONS.length };
    },
    countLiveEvaluators: async () => {
      const rows = await db.query<{ live: number }>('SELECT count(*)::int AS live FROM evaluation_replicas WHERE seen_until > now()');
      return rows[0]?.live ?? 0;
    },
    close: async () => {
      await changes?.close();
      await db.close();
    },
  };
}
