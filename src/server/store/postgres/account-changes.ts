import pg, { type Pool } from 'pg';
import type { AccountChanges } from '../account-changes.js';
import type { PgDatabase } from './pg-database.js';

/** The channel the migration's statement triggers on `accounts` and `api_keys` notify (any writer: replicas, CLI). */
export const ACCOUNT_CHANGES_CHANNEL = 'alertform_accounts';
const RECONNECT_MS = 1_000;

/**
 * Account and key changes on PostgreSQL: one connection per process LISTENs to the channel the triggers notify,
 * so a revocation anywhere (another replica, `alertform keys revoke`) reaches this process milliseconds after its
 * commit. While that connection is not listening (starting, lost, or left on a host the pool no longer uses after
 * a failover), version() is null and nothing is served from a cache; each reconnection counts as a change, since
 * notifications sent meanwhile are lost.
 */
export function watchPostgresAccountChanges(db: PgDatabase): AccountChanges {
  let generation = 0;
  let listening: { client: pg.Client; pool: Pool } | null = null;
  let connecting = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (client: pg.Client) => {
    if (listening?.client === client) listening = null;
    generation += 1;
    void client.end().catch(() => undefined);
    schedule();
  };
  const schedule = () => {
    if (closed || retry || connecting) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_MS);
    retry.unref();
  };
  const connect = async () => {
    if (closed || connecting) return;
    connecting = true;
    const pool = db.pool;
    const client = new pg.Client({
      connectionString: pool.options.connectionString,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'alertform-listen',
    });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    client.on('notification', () => {
      generation += 1;
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${ACCOUNT_CHANGES_CHANNEL}`);
      if (closed) {
        connecting = false;
        await client.end().catch(() => undefined);
        return;
      }
      generation += 1;
      listening = { client, pool };
      connecting = false;
    } catch {
      connecting = false;
      lost(client);
    }
  };
  void connect();

  return {
    version() {
      if (!listening) return null;
      if (listening.pool !== db.pool) {
        // The pool moved to another host (failover): listen there instead.
        lost(listening.client);
        return null;
      }
      return generation;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = listening;
      listening = null;
      await current?.client.end().catch(() => undefined);
    },
  };
}
