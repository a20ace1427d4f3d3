import { OUTBOX_MIGRATION } from './outbox-rows.js';
import type { Pool, PoolClient } from 'pg';

/**
 * The PostgreSQL schema, versioned in code: migration N brings a database from version N-1 to N, and
 * schema_migrations records every version applied. Append new migrations; never edit one that has shipped.
 * The tables mirror the SQLite schema (same columns, JSON as text, ISO timestamps as text) so that both stores
 * share their row mapping; `seq` gives the creation order every listing follows.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: accounts, keys, channels, schedules, alerts and their links, history; searches walk (account_id, seq).
  `
  CREATE TABLE accounts (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    email TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX accounts_email ON accounts(email);
  CREATE TABLE api_keys (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE TABLE channels (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    description TEXT NOT NULL,
    destination TEXT NOT NULL,
    auto_resolve BOOLEAN NOT NULL DEFAULT false,
    last_error TEXT,
    CONSTRAINT channels_account_description UNIQUE (account_id, description)
  );
  CREATE INDEX channels_account_seq ON channels(account_id, seq);
  CREATE TABLE schedules (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    start_time TEXT NOT NULL,
    duration INTEGER NOT NULL,
    timezone TEXT NOT NULL,
    repeat_days TEXT NOT NULL,
    anchor BIGINT NOT NULL,
    CONSTRAINT schedules_account_name UNIQUE (account_id, name)
  );
  CREATE INDEX schedules_account_seq ON schedules(account_id, seq);
  CREATE TABLE alerts (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    metric TEXT NOT NULL,
    alert_criteria TEXT NOT NULL,
    additional_criteria TEXT NOT NULL,
    expression TEXT NOT NULL,
    notification_type TEXT NOT NULL,
    info TEXT,
    on_query_failure TEXT,
    status TEXT NOT NULL DEFAULT 'healthy',
    currently_triggered_metrics TEXT NOT NULL DEFAULT '[]',
    muted_until BIGINT,
    eval_state TEXT,
    created_at TEXT NOT NULL,
    CONSTRAINT alerts_account_name UNIQUE (account_id, name)
  );
  CREATE INDEX alerts_account_seq ON alerts(account_id, seq);
  CREATE TABLE alert_channels (
    alert_id TEXT NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (alert_id, channel_id)
  );
  CREATE INDEX alert_channels_channel ON alert_channels(channel_id);
  CREATE TABLE alert_schedules (
    alert_id TEXT NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
    schedule_id TEXT NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (alert_id, schedule_id)
  );
  CREATE INDEX alert_schedules_schedule ON alert_schedules(schedule_id);
  CREATE TABLE history (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    alert_id TEXT NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    value DOUBLE PRECISION,
    time BIGINT NOT NULL,
    metric TEXT NOT NULL
  );
  CREATE INDEX history_alert_time ON history(alert_id, time);
  CREATE INDEX history_account_time ON history(account_id, time);
  `,
  // 2: evaluation leases. Alerts fall into 64 partitions (alertPartition: a stable hash of the id); each partition
  // row says which replica evaluates it until when, and its fencing token grows every time it changes hands.
  // evaluation_replicas is the heartbeat that tells a replica how many share the work.
  `
  CREATE TABLE evaluation_leases (
    partition INTEGER PRIMARY KEY,
    owner TEXT,
    token BIGINT NOT NULL DEFAULT 0,
    expires_at TIMESTAMPTZ NOT NULL DEFAULT '-infinity'
  );
  INSERT INTO evaluation_leases (partition) SELECT generate_series(0, 63);
  CREATE TABLE evaluation_replicas (
    replica TEXT PRIMARY KEY,
    seen_until TIMESTAMPTZ NOT NULL
  );
  `,
  // 3: the metric prefixes an account's queries are confined to (JSON list; [] = not confined), as on SQLite.
  `
  ALTER TABLE accounts ADD COLUMN metric_prefixes TEXT NOT NULL DEFAULT '[]';
  `,
  // 4: the outbox of notifications (deliveries), as on SQLite.
  OUTBOX_MIGRATION,
  // 5: the console, as on SQLite: history's channel and reason, the managed-from-git marker, the
  // server's secrets, deliveries by alert.
  `
  ALTER TABLE history ADD COLUMN channel_id TEXT;
  ALTER TABLE history ADD COLUMN reason TEXT;
  ALTER TABLE alerts ADD COLUMN managed_from_git BOOLEAN NOT NULL DEFAULT false;
  CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  CREATE INDEX deliveries_alert ON deliveries(account_id, alert_id, seq);
  `,
  // 6: escalation: an alert's steps as JSON, [{after_minutes, notification_channels: [ids]}].
  `
  ALTER TABLE alerts ADD COLUMN escalation TEXT NOT NULL DEFAULT '[]';
  `,
  // 7: acknowledgements: who acknowledged the alerting episode, why, when (unix seconds) and until when
  // (null: until it recovers). All four null: not acknowledged.
  `
  ALTER TABLE alerts ADD COLUMN ack_by TEXT;
  ALTER TABLE alerts ADD COLUMN ack_note TEXT;
  ALTER TABLE alerts ADD COLUMN ack_at BIGINT;
  ALTER TABLE alerts ADD COLUMN ack_until BIGINT;
  `,
  // 8: noise control, as on SQLite: flap guard and throttle columns, throttle windows (one row per
  // throttled channel: the row lock admissions take), held notifications, one summary per channel and window.
  `
  ALTER TABLE alerts ADD COLUMN flap_guard TEXT;
  ALTER TABLE channels ADD COLUMN throttle TEXT;
  CREATE TABLE throttle_windows (
    channel_id TEXT PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
    started_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    sent INTEGER NOT NULL
  );
  CREATE TABLE held_notifications (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    alert_id TEXT NOT NULL,
    alert_name TEXT NOT NULL,
    event TEXT NOT NULL,
    metric TEXT NOT NULL,
    value DOUBLE PRECISION,
    created_at BIGINT NOT NULL,
    window_started_at BIGINT NOT NULL,
    window_ends_at BIGINT NOT NULL,
    summary_id TEXT
  );
  CREATE INDEX held_notifications_due ON held_notifications(window_ends_at) WHERE summary_id IS NULL;
  CREATE INDEX held_notifications_window ON held_notifications(channel_id, window_started_at);
  CREATE INDEX held_notifications_account ON held_notifications(account_id, seq);
  CREATE TABLE throttle_summaries (
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    window_started_at BIGINT NOT NULL,
    delivery_id TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (channel_id, window_started_at)
  );
  `,
  // 9: message templates, as on SQLite.
  `
  ALTER TABLE channels ADD COLUMN template TEXT;
  ALTER TABLE alerts ADD COLUMN pagerduty_severity TEXT;
  ALTER TABLE alerts ADD COLUMN opsgenie_priority TEXT;
  `,
  // 10: every change of accounts or API keys, and of alerts, their links or channels, by any writer (a
  // replica, `alertform keys revoke`) notifies the channel each replica LISTENs to, so that its read caches (key ->
  // account, alert reads) forget at once what they held (postgres/account-changes.ts). One notification per
  // statement; PostgreSQL folds repeats in a transaction.
  `
  CREATE FUNCTION alertform_notify_account_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('alertform_accounts', TG_TABLE_NAME);
    RETURN NULL;
  END
  $$;
  CREATE TRIGGER accounts_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_account_change();
  CREATE TRIGGER api_keys_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_account_change();
  CREATE FUNCTION alertform_notify_alert_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('alertform_alerts', TG_TABLE_NAME);
    RETURN NULL;
  END
  $$;
  CREATE TRIGGER alerts_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON alerts
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_alert_change();
  CREATE TRIGGER alert_channels_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON alert_channels
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_alert_change();
  CREATE TRIGGER alert_schedules_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON alert_schedules
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_alert_change();
  CREATE TRIGGER channels_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON channels
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_alert_change();
  `,
  // 11: what the evaluator's listing reads (alerts, their links, schedules) notifies its own channel, so
  // that a replica keeps its listing between cycles until it changes (store/evaluation-listing-cache.ts). An
  // evaluator's save marks its transaction (alertform.writer = 'evaluator') and notifies nothing: the saving replica
  // applies its own updates to its records, and no other replica holds those partitions under the same token.
  // Every other UPDATE of alerts notifies, whatever its columns.
  `
  CREATE FUNCTION alertform_notify_evaluation_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF coalesce(current_setting('alertform.writer', true), '') <> 'evaluator' THEN
      PERFORM pg_notify('alertform_evaluation', TG_TABLE_NAME);
    END IF;
    RETURN NULL;
  END
  $$;
  CREATE TRIGGER alerts_notify_evaluation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON alerts
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_evaluation_change();
  CREATE TRIGGER alert_channels_notify_evaluation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON alert_channels
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_evaluation_change();
  CREATE TRIGGER alert_schedules_notify_evaluation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON alert_schedules
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_evaluation_change();
  CREATE TRIGGER schedules_notify_evaluation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON schedules
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_evaluation_change();
  `,
  // 12: an alert's settle delay in seconds (NULL: the server's --settle-delay), as on SQLite.
  `
  ALTER TABLE alerts ADD COLUMN settle_seconds INTEGER;
  `,
  // 13: what an alert does when its queries answer no data (ignore, notify, alerting); NULL is the server's default.
  `
  ALTER TABLE alerts ADD COLUMN on_no_data TEXT;
  `,
  // 14: as SQLite's 12: an alert's parents (depends_on), a channel's grouping (group_by), the notifications waiting
  // for their group's message and each group's last message, who muted or unmuted (history.actor).
  `
  ALTER TABLE alerts ADD COLUMN depends_on TEXT;
  ALTER TABLE channels ADD COLUMN group_by TEXT;
  ALTER TABLE history ADD COLUMN actor TEXT;
  CREATE TABLE group_members (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    group_key TEXT NOT NULL,
    alert_id TEXT NOT NULL,
    alert_name TEXT NOT NULL,
    event TEXT NOT NULL,
    series TEXT NOT NULL,
    value DOUBLE PRECISION,
    created_at BIGINT NOT NULL,
    due_at BIGINT NOT NULL,
    delivery_id TEXT
  );
  CREATE INDEX group_members_waiting ON group_members(channel_id, group_key) WHERE delivery_id IS NULL;
  CREATE INDEX group_members_due ON group_members(due_at) WHERE delivery_id IS NULL;
  CREATE TABLE delivery_groups (
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    group_key TEXT NOT NULL,
    last_sent_at BIGINT NOT NULL,
    PRIMARY KEY (channel_id, group_key)
  );
  `,
  // 15: maintenance windows and the episodes their mutes were recorded for, as on SQLite (migration 13). A window's
  // change is a change of what the evaluator's listing reads (migration 11's notification).
  `
  CREATE TABLE maintenance_windows (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    reason TEXT,
    match TEXT NOT NULL,
    starts_at TEXT,
    start_time TEXT,
    repeat_days TEXT,
    timezone TEXT NOT NULL,
    duration INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    CONSTRAINT maintenance_windows_account_name UNIQUE (account_id, name)
  );
  CREATE INDEX maintenance_windows_account_seq ON maintenance_windows(account_id, seq);
  CREATE TABLE window_mutes (
    window_id TEXT NOT NULL REFERENCES maintenance_windows(id) ON DELETE CASCADE,
    alert_id TEXT NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
    started_at BIGINT NOT NULL,
    PRIMARY KEY (window_id, alert_id)
  );
  CREATE INDEX window_mutes_alert ON window_mutes(alert_id);
  CREATE TRIGGER maintenance_windows_notify_evaluation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON maintenance_windows
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_evaluation_change();
  `,
  // The pending-deliveries bound counts an account's waiting group members with its pending deliveries.
  `CREATE INDEX group_members_account_waiting ON group_members(account_id) WHERE delivery_id IS NULL;`,
  // 17: a webhook channel's signing-secret rotation, as on SQLite (migration 15).
  `
  CREATE TABLE channel_signing (
    channel_id TEXT PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
    generation INTEGER NOT NULL,
    previous_generation INTEGER,
    previous_expires_at BIGINT
  );
  `,
  // 18: an account's metric prefixes are read by the evaluator's listing (the stream confines each alert to them):
  // a change of them notifies the evaluation channel too, so that every replica lists its alerts again.
  `
  CREATE TRIGGER accounts_notify_evaluation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION alertform_notify_evaluation_change();
  `,
];

/** Any constant, the same in every replica: serialises replicas that start together on an empty database. */
const MIGRATION_LOCK = 0x616c6572;

/**
 * Brings the database to the newest schema version, one transaction per migration; refuses a database newer than
 * this code. Replicas starting at once wait for each other on a transaction-scoped advisory lock (released by the
 * commit, so it is safe on a pooled connection), and the second finds nothing left to do.
 */
export async function migrateDatabase(pool: Pool): Promise<number> {
  const client = await pool.connect();
  try {
    for (;;) {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        await client.query(
          `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
        );
        const current = await currentVersion(client);
        if (current > MIGRATIONS.length) {
          throw new Error(`database schema version ${current} is newer than this alertform (${MIGRATIONS.length})`);
        }
        if (current === MIGRATIONS.length) {
          await client.query('COMMIT');
          return current;
        }
        await client.query(MIGRATIONS[current]!);
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [current + 1]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    }
  } finally {
    client.release();
  }
}

async function currentVersion(client: PoolClient): Promise<number> {
  const result = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  return result.rows[0]?.version ?? 0;
}
