import pg, { type Pool } from 'pg';
import type { AccountChanges, ChangeTopic } from '../account-changes.js';
import type { PgDatabase } from './pg-database.js';

/** The channels the migration's statement triggers notify on every write by anyone (replicas, the CLI), by topic. */
const CHANNELS: Record<ChangeTopic, string> = { accounts: 'alertform_accounts', alerts: 'alertform_alerts' };
const RECONNECT_MS = 1_000;

/**
 * Changes on PostgreSQL. This process's own writes are counted by PgDatabase as they complete (so a write is seen
 * by the next read here, at once); one connection per process LISTENs to the channels the triggers notify, so a
 * write anywhere else (another replica, `alertform keys revoke`) reaches this process milliseconds after its
 * commit. While that connection is not listening (starting, lost, or left on a host the pool no longer uses after
 * a failover), version() is null and nothing is served from a cache; each reconnection counts as a change, since
 * notifications sent meanwhile are lost.
 */
export function watchPostgresAccountChanges(db: PgDatabase): AccountChanges {
  const generations: Record<ChangeTopic, number> = { accounts: 0, alerts: 0 };
  const everything = () => {
    generations.accounts += 1;
    generations.alerts += 1;
  };
  let listening: { client: pg.Client; pool: Pool } | null = null;
  let connecting = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (client: pg.Client) => {
    if (listening?.client === client) listening = null;
    everything();
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
    client.on('notification', (message) => {
      const topic = (Object.keys(CHANNELS) as ChangeTopic[]).find((name) => CHANNELS[name] === message.channel);
      if (topic) generations[topic] += 1;
      else everything();
    });
    try {
      await client.connect();
      for (const channel of Object.values(CHANNELS)) await client.query(`LISTEN ${channel}`);
      if (closed) {
        connecting = false;
        await client.end().catch(() => undefined);
        return;
      }
      everything();
      listening = { client, pool };
      connecting = false;
    } catch {
      connecting = false;
      lost(client);
    }
  };
  void connect();

  return {
    version(topic = 'accounts') {
      if (!listening) return null;
      if (listening.pool !== db.pool) {
        // The pool moved to another host (failover): listen there instead.
        lost(listening.client);
        return null;
      }
      return generations[topic] + db.completedWrites;
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
