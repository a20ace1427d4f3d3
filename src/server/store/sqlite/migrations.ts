import type { Database } from 'better-sqlite3';

/**
 * The schema, versioned in code: migration N brings a database from user_version N-1 to N. Append new
 * migrations; never edit one that has shipped. Each runs in its own transaction with the version bump.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: accounts, keys, channels, schedules, alerts and their links, history.
  `
  CREATE TABLE accounts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    email TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX accounts_email ON accounts(email);
  CREATE TABLE api_keys (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE TABLE channels (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    description TEXT NOT NULL,
    destination TEXT NOT NULL,
    auto_resolve INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    UNIQUE (account_id, description)
  );
  CREATE TABLE schedules (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    start_time TEXT NOT NULL,
    duration INTEGER NOT NULL,
    timezone TEXT NOT NULL,
    repeat_days TEXT NOT NULL,
    anchor INTEGER NOT NULL,
    UNIQUE (account_id, name)
  );
  CREATE TABLE alerts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
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
    muted_until INTEGER,
    eval_state TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (account_id, name)
  );
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
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    alert_id TEXT NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    value REAL,
    time INTEGER NOT NULL,
    metric TEXT NOT NULL
  );
  CREATE INDEX history_alert_time ON history(alert_id, time);
  CREATE INDEX history_account_time ON history(account_id, time);
  `,
  // 2: searches list an account's rows in creation order; let them walk an index instead of sorting.
  `
  CREATE INDEX alerts_account_seq ON alerts(account_id, seq);
  CREATE INDEX channels_account_seq ON channels(account_id, seq);
  CREATE INDEX schedules_account_seq ON schedules(account_id, seq);
  `,
  // 3: the metric prefixes an account's queries are confined to (JSON list; [] = not confined).
  `
  ALTER TABLE accounts ADD COLUMN metric_prefixes TEXT NOT NULL DEFAULT '[]';
  `,
  // 4: the outbox. A notification is a row written with its transition, claimed by a delivery worker (claimed_by
  // until claim_expires_at), then delivered, rescheduled or dead-lettered. Times are epoch ms. The payload is the
  // channel-independent notification: the destination (a secret) is read from the channel at send time.
  `
  CREATE TABLE deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    alert_id TEXT NOT NULL,
    alert_name TEXT NOT NULL,
    event TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    claimed_by TEXT,
    claim_expires_at INTEGER,
    last_error TEXT,
    last_attempt_at INTEGER,
    created_at INTEGER NOT NULL,
    finished_at INTEGER
  );
  CREATE INDEX deliveries_due ON deliveries(next_attempt_at, seq) WHERE state = 'pending';
  CREATE INDEX deliveries_chain ON deliveries(channel_id, alert_id, seq) WHERE state = 'pending';
  CREATE INDEX deliveries_account ON deliveries(account_id, state, seq);
  CREATE INDEX deliveries_finished ON deliveries(finished_at) WHERE state <> 'pending';
  `,
  // 5: the console. History also records mutes and notifications sent or suppressed (with the channel
  // and why; /v2/alerts/history/ keeps showing only its three statuses); alerts written by alertform's apply are
  // marked managed from git; server_secrets holds the key that signs graph links; deliveries list by alert.
  `
  ALTER TABLE history ADD COLUMN channel_id TEXT;
  ALTER TABLE history ADD COLUMN reason TEXT;
  ALTER TABLE alerts ADD COLUMN managed_from_git INTEGER NOT NULL DEFAULT 0;
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
  ALTER TABLE alerts ADD COLUMN ack_at INTEGER;
  ALTER TABLE alerts ADD COLUMN ack_until INTEGER;
  `,
  // 8: noise control: an alert's flap guard and a channel's throttle (JSON, null: none); the current
  // throttle window of each throttled channel (its row is the lock admissions take); the notifications it held
  // back, until the summary of their window (summary_id) lists them; one summary per channel and window.
  `
  ALTER TABLE alerts ADD COLUMN flap_guard TEXT;
  ALTER TABLE channels ADD COLUMN throttle TEXT;
  CREATE TABLE throttle_windows (
    channel_id TEXT PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
    started_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    sent INTEGER NOT NULL
  );
  CREATE TABLE held_notifications (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    alert_id TEXT NOT NULL,
    alert_name TEXT NOT NULL,
    event TEXT NOT NULL,
    metric TEXT NOT NULL,
    value REAL,
    created_at INTEGER NOT NULL,
    window_started_at INTEGER NOT NULL,
    window_ends_at INTEGER NOT NULL,
    summary_id TEXT
  );
  CREATE INDEX held_notifications_due ON held_notifications(window_ends_at) WHERE summary_id IS NULL;
  CREATE INDEX held_notifications_window ON held_notifications(channel_id, window_started_at);
  CREATE INDEX held_notifications_account ON held_notifications(account_id, seq);
  CREATE TABLE throttle_summaries (
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    window_started_at INTEGER NOT NULL,
    delivery_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (channel_id, window_started_at)
  );
  `,
  // 9: message templates: a channel's template (JSON {title?, body?}), an alert's PagerDuty severity
  // and OpsGenie priority; NULL is the notifiers' default.
  `
  ALTER TABLE channels ADD COLUMN template TEXT;
  ALTER TABLE alerts ADD COLUMN pagerduty_severity TEXT;
  ALTER TABLE alerts ADD COLUMN opsgenie_priority TEXT;
  `,
  // 10: an alert's settle delay in seconds (NULL: the server's --settle-delay).
  `
  ALTER TABLE alerts ADD COLUMN settle_seconds INTEGER;
  `,
  // 11: what an alert does when its queries answer no data (ignore, notify, alerting); NULL is the server's default.
  `
  ALTER TABLE alerts ADD COLUMN on_no_data TEXT;
  `,
  // 12: noise that scales with the outage. An alert's parents (depends_on: JSON [{alert, nodes?, parent_nodes?}], ids);
  // a channel's grouping by path nodes (group_by: JSON); the notifications waiting for their group's message
  // (group_members: one row per series, delivery_id set when a grouped message took it) and when each group's last
  // message was made (delivery_groups); who muted or unmuted (history.actor).
  `
  ALTER TABLE alerts ADD COLUMN depends_on TEXT;
  ALTER TABLE channels ADD COLUMN group_by TEXT;
  ALTER TABLE history ADD COLUMN actor TEXT;
  CREATE TABLE group_members (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    group_key TEXT NOT NULL,
    alert_id TEXT NOT NULL,
    alert_name TEXT NOT NULL,
    event TEXT NOT NULL,
    series TEXT NOT NULL,
    value REAL,
    created_at INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    delivery_id TEXT
  );
  CREATE INDEX group_members_waiting ON group_members(channel_id, group_key) WHERE delivery_id IS NULL;
  CREATE INDEX group_members_due ON group_members(due_at) WHERE delivery_id IS NULL;
  CREATE TABLE delivery_groups (
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    group_key TEXT NOT NULL,
    last_sent_at INTEGER NOT NULL,
    PRIMARY KEY (channel_id, group_key)
  );
  `,
  // 13: maintenance windows: match (JSON: alert_names, metrics, channels as ids), once (starts_at, ISO 8601) or
  // recurring (start_time, repeat_days JSON); window_mutes keeps the episode (its start, epoch ms) each alert's mute
  // by a window was last recorded for, so that history says `muted_by_window` once per episode.
  `
  CREATE TABLE maintenance_windows (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
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
    UNIQUE (account_id, name)
  );
  CREATE INDEX maintenance_windows_account_seq ON maintenance_windows(account_id, seq);
  CREATE TABLE window_mutes (
    window_id TEXT NOT NULL REFERENCES maintenance_windows(id) ON DELETE CASCADE,
    alert_id TEXT NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
    started_at INTEGER NOT NULL,
    PRIMARY KEY (window_id, alert_id)
  );
  CREATE INDEX window_mutes_alert ON window_mutes(alert_id);
  `,
  // The pending-deliveries bound counts an account's waiting group members with its pending deliveries.
  `CREATE INDEX group_members_account_waiting ON group_members(account_id) WHERE delivery_id IS NULL;`,
  // 15: a webhook channel's signing-secret rotation: the generation its secret is derived for (no row: 0, the
  // channel's first), and the generation before it with the unix time until which it still signs.
  `
  CREATE TABLE channel_signing (
    channel_id TEXT PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
    generation INTEGER NOT NULL,
    previous_generation INTEGER,
    previous_expires_at INTEGER
  );
  `,
];

/** Brings the database to the newest schema version; refuses a database newer than this code. */
export function migrateDatabase(db: Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`database schema version ${current} is newer than this alertform (${MIGRATIONS.length})`);
  }
  for (let version = current + 1; version <= MIGRATIONS.length; version += 1) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version - 1]!);
      db.pragma(`user_version = ${version}`);
    })();
  }
  return MIGRATIONS.length;
}
