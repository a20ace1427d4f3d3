import { randomBytes } from 'node:crypto';
import pg, { type Pool } from 'pg';
import type { AccountChanges, ChangeTopic } from '../account-changes.js';
import type { PgDatabase } from './pg-database.js';

/** The channels the migration's statement triggers notify on every write by anyone (replicas, the CLI), by topic. */
const CHANNELS: Record<ChangeTopic, string> = { accounts: 'alertform_accounts', alerts: 'alertform_alerts', evaluation: 'alertform_evaluation' };
const RECONNECT_MS = 1_000;
/** How long settledVersion waits for its barrier to come back before it answers null (the caller reads the store). */
const BARRIER_MS = 2_000;
/** A barrier's payload on a topic's channel (a table name otherwise): ignored by every other listener. */
const BARRIER = 'barrier:';

/**
 * Changes on PostgreSQL. This process's own writes are counted by PgDatabase as they complete (so a write is seen
 * by the next read here, at once); one connection per process LISTENs to the channels the triggers notify, so a
 * write anywhere else (another replica, `alertform keys revoke`) reaches this process milliseconds after its
 * commit. While that connection is not listening (starting, lost, or left on a host the pool no longer uses after
 * a failover), version() is null and nothing is served from a cache; each reconnection counts as a change, since
 * notifications sent meanwhile are lost.
 *
 * The `evaluation` topic (migration 11: alerts, their links and schedules, written by anyone but an evaluator's
 * save) does not count this process's writes as PgDatabase completes them: the evaluator's own saves and leases
 * must not move it. Its reader asks settledVersion instead, a barrier: it notifies a nonce on the topic's channel
 * from the LISTEN connection and waits for it there; PostgreSQL delivers a session's notifications in commit order,
 * so every write committed before (this process's API writes included) has been counted when the nonce arrives.
 */
export function watchPostgresAccountChanges(db: PgDatabase): AccountChanges {
  const generations: Record<ChangeTopic, number> = { accounts: 0, alerts: 0, evaluation: 0 };
  const everything = () => {
    generations.accounts += 1;
    generations.alerts += 1;
    generations.evaluation += 1;
  };
  /** Barriers waiting for their nonce, by nonce. */
  const barriers = new Map<string, () => void>();
  let listening: { client: pg.Client; pool: Pool } | null = null;
  let connecting = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (client: pg.Client) => {
    if (listening?.client === client) listening = null;
    everything();
    // Their nonces went with the connection: they answer null at their deadline.
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
      if (message.payload?.startsWith(BARRIER)) {
        barriers.get(message.payload.slice(BARRIER.length))?.();
        return;
      }
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

  /** The LISTEN connection when it listens on the pool's host, else null (a failover: listen there instead). */
  const current = () => {
    if (!listening) return null;
    if (listening.pool !== db.pool) {
      lost(listening.client);
      return null;
    }
    return listening;
  };
  const version = (topic: ChangeTopic = 'accounts') => {
    if (!current()) return null;
    return topic === 'evaluation' ? generations.evaluation : generations[topic] + db.completedWrites;
  };
  return {
    version,
    async settledVersion(topic) {
      const at = current();
      if (!at) return null;
      const nonce = randomBytes(8).toString('hex');
      let timer: NodeJS.Timeout | undefined;
      const arrived = new Promise<boolean>((resolve) => {
        barriers.set(nonce, () => resolve(true));
        timer = setTimeout(() => resolve(false), BARRIER_MS);
      });
      try {
        await at.client.query('SELECT pg_notify($1, $2)', [CHANNELS[topic], BARRIER + nonce]);
        // The connection may have been lost or replaced meanwhile: then what it counted is not all there was.
        if (!(await arrived) || listening !== at) return null;
      } catch {
        return null;
      } finally {
        clearTimeout(timer);
        barriers.delete(nonce);
      }
      return version(topic);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const open = listening;
      listening = null;
      await open?.client.end().catch(() => undefined);
    },
  };
}
