import { createId, hashApiKey, hashesEqual } from '../../ids.js';
import {
  DEFAULT_CHANNEL,
  UniqueViolation,
  type AccountRecord,
  type AlertQuery,
  type AlertRecord,
  type AlertSelector,
  type AlertWrite,
  type ApiKeyRecord,
  type ChannelError,
  type ChannelQuery,
  type ChannelRecord,
  type ChannelWrite,
  type EvaluationLease,
  type HistoryQuery,
  type HistoryRecord,
  type NewHistoryEntry,
  type Page,
  type ScheduleQuery,
  type ScheduleRecord,
  type ScheduleWrite,
  type SelectResult,
  type Store,
  type StoreReadiness,
} from '../store.js';
import { withoutEscalationChannel } from '../escalation-column.js';
import * as ackRows from './ack-rows.js';
import type { AckOutcome, AckWrite } from '../ack-store.js';
import * as throttleRows from './throttle-rows.js';
import { listsHeld } from '../held-listing.js';
import { ALERT_WRITE_COLUMNS, alertFromRow, alertWriteValues, type AlertRow } from '../sqlite/alert-rows.js';
import { channelFromRow, scheduleFromRows, templateColumn, throttleText, type ChannelRow, type ScheduleRow } from '../sqlite/rows.js';
import { PostgresEvaluationRows } from './evaluation-rows.js';
import type { EvaluationAlert, EvaluationUpdate } from '../../evaluator/evaluation-store.js';
import { MIGRATIONS, migrateDatabase } from './migrations.js';
import { PgDatabase, type PoolOptions, type Queryable } from './pg-database.js';
import * as outbox from './outbox-rows.js';
import { POSTGRES_SUMMARY_SQL, toAlertSummaries, type AlertSummary, type AlertSummaryRow } from '../alert-summary.js';
import * as consoleRows from './console-rows.js';
import { PUBLIC_HISTORY_STATUSES, type ChannelTestDelivery, type TimelineRecord } from '../console-store.js';
import type {
  ClaimedDelivery,
  DeliveryClaim,
  DeliveryQuery,
  DeliveryRecord,
  FinishedDelivery,
  PendingSummary,
} from '../outbox.js';

/** An alert row with its ordered channel and schedule links as two arrays: one round trip per read. */
const ALERT_COLUMNS = `a.id, a.account_id, a.name, a.metric, a.alert_criteria, a.additional_criteria, a.expression,
  a.notification_type, a.info, a.on_query_failure, a.flap_guard, a.status, a.currently_triggered_metrics, a.muted_until,
  a.eval_state, a.created_at, a.escalation, a.ack_by, a.ack_note, a.ack_at, a.ack_until,
  a.notification_type, a.info, a.on_query_failure, a.pagerduty_severity, a.opsgenie_priority, a.status, a.currently_triggered_metrics, a.muted_until,
  a.eval_state, a.created_at,
  ARRAY(SELECT channel_id FROM alert_channels WHERE alert_id = a.id ORDER BY position) AS channel_ids,
  ARRAY(SELECT schedule_id FROM alert_schedules WHERE alert_id = a.id ORDER BY position) AS schedule_ids`;

/** An alert row as ALERT_COLUMNS selects it. */
type LinkedAlertRow = AlertRow & { channel_ids: string[]; schedule_ids: string[] };
const CHANNEL_COLUMNS = 'id, account_id, type, description, destination, auto_resolve, last_error, throttle, template';
const SCHEDULE_COLUMNS = 'id, account_id, name, start_time, duration, timezone, repeat_days, anchor';

/**
 * The Store on PostgreSQL (node-postgres, a pool of connections). The same semantics as the SQLite store in
 * every method: creation order (`seq`), per-account uniqueness enforced by the database's UNIQUE constraints,
 * search and pagination in SQL, and a transaction wherever SQLite uses one. A database that cannot be reached
 * surfaces as StoreUnavailable.
 */
export class PostgresStore implements Store {
  /** The evaluator's side (evaluation-rows.ts). */
  private readonly evaluation: PostgresEvaluationRows;

  private constructor(private readonly db: PgDatabase) {
    this.evaluation = new PostgresEvaluationRows(db);
  }

  /**
   * Connects to `url` (postgres://USER[:PASSWORD]@HOST:PORT/DB, or several hosts with target_session_attrs, see
   * PgDatabase) and brings the schema up to date.
   */
  static async open(url: string, options: PoolOptions = {}): Promise<PostgresStore> {
    const db = new PgDatabase(url, options);
    try {
      await db.locate();
      await migrateDatabase(db.pool);
    } catch (error) {
      await db.close();
      throw error;
    }
    return new PostgresStore(db);
  }

  // Accounts and keys ------------------------------------------------------------------------------------------

  async createAccount(email: string | null): Promise<AccountRecord> {
    const account = { id: createId(), email, createdAt: new Date().toISOString() };
    await this.db.transaction(async (tx) => {
      await tx.query('INSERT INTO accounts (id, email, created_at) VALUES ($1, $2, $3)', [account.id, email, account.createdAt]);
      await tx.query(
        'INSERT INTO channels (id, account_id, type, description, destination) VALUES ($1, $2, $3, $4, $5)',
        [createId(), account.id, 'email', DEFAULT_CHANNEL, email ?? ''],
      );
    });
    return account;
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | null> {
    const [row] = await this.db.query<{ id: string; email: string | null; created_at: string }>(
      'SELECT id, email, created_at FROM accounts WHERE email = $1 ORDER BY seq LIMIT 1',
      [email],
    );
    return row ? { id: row.id, email: row.email, createdAt: row.created_at } : null;
  }

  async addApiKey(accountId: string, key: string): Promise<ApiKeyRecord> {
    const id = createId();
    const createdAt = new Date().toISOString();
    const [row] = await this.db.query<{ email: string | null }>(
      `WITH added AS (INSERT INTO api_keys (id, account_id, key_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING account_id)
       SELECT a.email FROM added JOIN accounts a ON a.id = added.account_id`,
      [id, accountId, hashApiKey(key), createdAt],
    );
    return { id, accountId, email: row?.email ?? null, createdAt, revokedAt: null };
  }

  async findAccountByKey(key: string): Promise<AccountRecord | null> {
    const hash = hashApiKey(key);
    const [row] = await this.db.query<{ key_hash: string; id: string; email: string | null; created_at: string; metric_prefixes: string }>(
      `SELECT k.key_hash, a.id, a.email, a.created_at, a.metric_prefixes FROM api_keys k
       JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    // The lookup is by hash already; the constant-time compare guards against any future lookup by prefix.
    if (!row || !hashesEqual(row.key_hash, hash)) return null;
    const metricPrefixes = JSON.parse(row.metric_prefixes) as string[];
    return { id: row.id, email: row.email, createdAt: row.created_at, ...(metricPrefixes.length > 0 ? { metricPrefixes } : {}) };
  }

  async setMetricPrefixes(accountId: string, prefixes: string[]): Promise<void> {
    await this.db.query('UPDATE accounts SET metric_prefixes = $1 WHERE id = $2', [JSON.stringify(prefixes), accountId]);
  }

  async findApiKey(key: string): Promise<ApiKeyRecord | null> {
    return (await this.keys('WHERE k.key_hash = $1', [hashApiKey(key)]))[0] ?? null;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return this.keys('', []);
  }

  private async keys(where: string, params: unknown[]): Promise<ApiKeyRecord[]> {
    const rows = await this.db.query<{
      id: string;
      account_id: string;
      email: string | null;
      created_at: string;
      revoked_at: string | null;
    }>(
      `SELECT k.id, k.account_id, a.email, k.created_at, k.revoked_at FROM api_keys k
       JOIN accounts a ON a.id = k.account_id ${where} ORDER BY k.seq`,
      params,
    );
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      email: row.email,
      createdAt: row.created_at,
      revokedAt: row.revoked_at,
    }));
  }

  async revokeApiKey(keyId: string): Promise<boolean> {
    // COALESCE keeps the first revocation time, as SQLite's `AND revoked_at IS NULL` does, and still finds the row.
    const rows = await this.db.query(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING id',
      [new Date().toISOString(), keyId],
    );
    return rows.length > 0;
  }

  // Alerts -----------------------------------------------------------------------------------------------------

  async createAlert(accountId: string, alert: AlertWrite): Promise<AlertRecord> {
    const id = createId();
    const values = [id, accountId, ...alertWriteValues(alert), new Date().toISOString()];
    const sql = new SqlBuilder([...values]);
    const channels = sql.param([...new Set(alert.notificationChannels)]);
    const schedules = sql.param([...new Set(alert.scheduledMutes)]);
    // One statement (atomic by itself): the alert and its ordered links, one round trip instead of a transaction's
    // five. The links' foreign keys are checked at the end of the statement, when the new alert is there.
    await unique('name', alert.name, () =>
      this.db.query(
        `WITH new_alert AS (
           INSERT INTO alerts (id, account_id, ${ALERT_WRITE_COLUMNS.join(', ')}, created_at)
           VALUES (${values.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING id
         ), linked_channels AS (
           INSERT INTO alert_channels (alert_id, channel_id, position)
           SELECT new_alert.id, ref, position - 1 FROM new_alert, unnest(${channels}::text[]) WITH ORDINALITY AS t(ref, position)
         ), linked_schedules AS (
           INSERT INTO alert_schedules (alert_id, schedule_id, position)
           SELECT new_alert.id, ref, position - 1 FROM new_alert, unnest(${schedules}::text[]) WITH ORDINALITY AS t(ref, position)
         )
         SELECT id FROM new_alert`,
        sql.params,
      ),
    );
    return (await this.getAlert(accountId, id))!;
  }

  async getAlert(accountId: string, id: string): Promise<AlertRecord | null> {
    const rows = await this.db.query<LinkedAlertRow>(`SELECT ${ALERT_COLUMNS} FROM alerts a WHERE a.account_id = $1 AND a.id = $2`, [
      accountId,
      id,
    ]);
    return toAlertRecords(rows)[0] ?? null;
  }

  async updateAlert(accountId: string, id: string, alert: AlertWrite): Promise<AlertRecord | null> {
    const values = alertWriteValues(alert);
    const changed = await unique('name', alert.name, () =>
      this.db.transaction(async (tx) => {
        const updated = await tx.query(
          `UPDATE alerts SET ${ALERT_WRITE_COLUMNS.map((column, index) => `${column} = $${index + 1}`).join(', ')}
           WHERE account_id = $${values.length + 1} AND id = $${values.length + 2} RETURNING id`,
          [...values, accountId, id],
        );
        if (updated.length === 0) return false;
        await writeAlertLinks(tx, id, alert);
        return true;
      }),
    );
    return changed ? this.getAlert(accountId, id) : null;
  }

  async deleteAlert(accountId: string, id: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM alerts WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id])).length > 0;
  }

  async searchAlerts(accountId: string, query: AlertQuery): Promise<Page<AlertRecord>> {
    const sql = new SqlBuilder([accountId]);
    const where = ['a.account_id = $1'];
    if (query.names.length > 0 || query.ids.length > 0) {
      where.push(`(a.name = ANY(${sql.param(query.names)}) OR a.id = ANY(${sql.param(query.ids)}))`);
    }
    if (query.search) where.push(alertSearchCondition(sql, query.search));
    const rows = await this.db.query<LinkedAlertRow>(
      `SELECT ${ALERT_COLUMNS} FROM alerts a WHERE ${where.join(' AND ')} ORDER BY a.seq
       LIMIT ${sql.param(query.max + 1)} OFFSET ${sql.param((query.page - 1) * query.max)}`,
      sql.params,
    );
    return { items: toAlertRecords(rows.slice(0, query.max)), nextPage: rows.length > query.max };
  }

  async selectAlertIds(accountId: string, selector: AlertSelector): Promise<SelectResult> {
    return select(this.db, accountId, selector);
  }

  async setMutedUntil(accountId: string, selector: AlertSelector, mutedUntil: number | null): Promise<SelectResult> {
    return this.db.transaction(async (tx) => {
      const selected = await select(tx, accountId, selector);
      if (selected.missing.length > 0) return selected;
      await tx.query('UPDATE alerts SET muted_until = $1 WHERE account_id = $2 AND id = ANY($3)', [
        mutedUntil,
        accountId,
        selected.ids,
      ]);
      return selected;
    });
  }

  // Channels ---------------------------------------------------------------------------------------------------

  async createChannel(accountId: string, channel: ChannelWrite): Promise<ChannelRecord> {
    const [row] = await unique('description', channel.description, () =>
      this.db.query<ChannelRow>(
        `INSERT INTO channels (id, account_id, type, description, destination, auto_resolve, throttle, template)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${CHANNEL_COLUMNS}`,
        [createId(), accountId, channel.type, channel.description, channel.destination, channel.autoResolve, throttleText(channel), templateColumn(channel)],
      ),
    );
    return channelFromRow(row!);
  }

  async getChannel(accountId: string, id: string): Promise<ChannelRecord | null> {
    const [row] = await this.db.query<ChannelRow>(`SELECT ${CHANNEL_COLUMNS} FROM channels WHERE account_id = $1 AND id = $2`, [
      accountId,
      id,
    ]);
    return row ? channelFromRow(row) : null;
  }

  async findChannelsByRefs(accountId: string, refs: string[]): Promise<ChannelRecord[]> {
    const rows = await this.db.query<ChannelRow>(
      `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE account_id = $1 AND (id = ANY($2) OR description = ANY($2)) ORDER BY seq`,
      [accountId, refs],
    );
    return rows.map(channelFromRow);
  }

  async updateChannel(accountId: string, id: string, channel: ChannelWrite): Promise<ChannelRecord | null> {
    const [row] = await unique('description', channel.description, () =>
      this.db.query<ChannelRow>(
        `UPDATE channels SET type = $1, description = $2, destination = $3, auto_resolve = $4, throttle = $7, template = $8
         WHERE account_id = $5 AND id = $6 RETURNING ${CHANNEL_COLUMNS}`,
        [channel.type, channel.description, channel.destination, channel.autoResolve, accountId, id, throttleText(channel), templateColumn(channel)],
      ),
    );
    return row ? channelFromRow(row) : null;
  }

  async deleteChannel(accountId: string, id: string): Promise<{ alertsChanged: number } | null> {
    return this.db.transaction(async (tx) => {
      // FOR UPDATE waits for (and then blocks) writes that link an alert to this channel, so no link is added
      // between reading the users and deleting the channel.
      const found = await tx.query('SELECT id FROM channels WHERE account_id = $1 AND id = $2 FOR UPDATE', [accountId, id]);
      if (found.length === 0) return null;
      const users = (await tx.query<{ alert_id: string }>('SELECT alert_id FROM alert_channels WHERE channel_id = $1', [id])).map(
        (row) => row.alert_id,
      );
      await tx.query('DELETE FROM channels WHERE id = $1', [id]);
      // Escalation steps name channels inside a JSON column: the deleted one leaves them (a step left empty goes).
      const escalating = await tx.query<{ id: string; escalation: string }>(
        `SELECT id, escalation FROM alerts WHERE account_id = $1 AND strpos(escalation, $2) > 0 FOR UPDATE`,
        [accountId, JSON.stringify(id)],
      );
      for (const row of escalating) {
        await tx.query('UPDATE alerts SET escalation = $1 WHERE id = $2', [withoutEscalationChannel(row.escalation, id), row.id]);
      }
      // An alert left without any channel falls back to the account's default, as on create.
      if (users.length > 0) {
        await tx.query(
          `INSERT INTO alert_channels (alert_id, channel_id, position)
           SELECT u.alert_id, c.id, 0 FROM unnest($1::text[]) AS u(alert_id)
           JOIN channels c ON c.account_id = $2 AND c.description = $3
           WHERE NOT EXISTS (SELECT 1 FROM alert_channels WHERE alert_id = u.alert_id)`,
          [users, accountId, DEFAULT_CHANNEL],
        );
      }
      return { alertsChanged: users.length };
    });
  }

  async searchChannels(accountId: string, query: ChannelQuery): Promise<Page<ChannelRecord>> {
    const sql = new SqlBuilder([accountId]);
    const either: string[] = [];
    if (query.types.length) either.push(`type = ANY(${sql.param(query.types)})`);
    if (query.descriptions.length) either.push(`description = ANY(${sql.param(query.descriptions)})`);
    if (query.ids.length) either.push(`id = ANY(${sql.param(query.ids)})`);
    if (query.autoResolve !== null) {
      either.push(`(type IN ('pagerduty', 'victorops') AND auto_resolve = ${sql.param(query.autoResolve)})`);
    }
    const rows = await this.db.query<ChannelRow>(
      `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE account_id = $1${either.length ? ` AND (${either.join(' OR ')})` : ''}
       ORDER BY seq LIMIT ${sql.param(query.max + 1)} OFFSET ${sql.param((query.page - 1) * query.max)}`,
      sql.params,
    );
    return { items: rows.slice(0, query.max).map(channelFromRow), nextPage: rows.length > query.max };
  }

  // Schedules --------------------------------------------------------------------------------------------------

  async createSchedule(accountId: string, schedule: ScheduleWrite): Promise<ScheduleRecord> {
    const id = createId();
    await unique('name', schedule.name, () =>
      this.db.query(
        `INSERT INTO schedules (id, account_id, name, start_time, duration, timezone, repeat_days, anchor)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [id, accountId, ...scheduleValues(schedule)],
      ),
    );
    return (await this.getSchedule(accountId, id))!;
  }

  async getSchedule(accountId: string, id: string): Promise<ScheduleRecord | null> {
    return (await this.getSchedulesByIds(accountId, [id]))[0] ?? null;
  }

  async getSchedulesByIds(accountId: string, ids: string[]): Promise<ScheduleRecord[]> {
    const rows = await this.db.query<ScheduleRow>(
      `SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE account_id = $1 AND id = ANY($2) ORDER BY seq`,
      [accountId, ids],
    );
    return this.schedulesWithAlerts(rows);
  }

  async updateSchedule(accountId: string, id: string, schedule: ScheduleWrite): Promise<ScheduleRecord | null> {
    const updated = await unique('name', schedule.name, () =>
      this.db.query(
        `UPDATE schedules SET name = $1, start_time = $2, duration = $3, timezone = $4, repeat_days = $5, anchor = $6
         WHERE account_id = $7 AND id = $8 RETURNING id`,
        [...scheduleValues(schedule), accountId, id],
      ),
    );
    return updated.length > 0 ? this.getSchedule(accountId, id) : null;
  }

  async deleteSchedule(accountId: string, id: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM schedules WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id])).length > 0;
  }

  async searchSchedules(accountId: string, query: ScheduleQuery): Promise<Page<ScheduleRecord>> {
    const sql = new SqlBuilder([accountId]);
    // The given filters are ORed, as on SQLite; repeat matches a schedule repeating on any of the days.
    const criteria: Array<[(param: string) => string, readonly (string | number)[], string]> = [
      [(param) => `name = ANY(${param})`, query.names, 'text'],
      [(param) => `id = ANY(${param})`, query.ids, 'text'],
      [(param) => `duration = ANY(${param})`, query.durations, 'int'],
      [(param) => `start_time = ANY(${param})`, query.startTimes, 'text'],
      [(param) => `timezone = ANY(${param})`, query.timezones, 'text'],
      [(param) => `EXISTS (SELECT 1 FROM json_array_elements_text(repeat_days::json) d WHERE d = ANY(${param}))`, query.repeat, 'text'],
    ];
    const given = criteria.filter(([, values]) => values.length > 0);
    const filter = given.length
      ? ` AND (${given.map(([condition, values, type]) => condition(`${sql.param(values)}::${type}[]`)).join(' OR ')})`
      : '';
    const rows = await this.db.query<ScheduleRow>(
      `SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE account_id = $1${filter} ORDER BY seq
       LIMIT ${sql.param(query.max + 1)} OFFSET ${sql.param((query.page - 1) * query.max)}`,
      sql.params,
    );
    return { items: await this.schedulesWithAlerts(rows.slice(0, query.max)), nextPage: rows.length > query.max };
  }

  private async schedulesWithAlerts(rows: ScheduleRow[]): Promise<ScheduleRecord[]> {
    if (rows.length === 0) return [];
    const links = await this.db.query<{ schedule_id: string; alert_id: string }>(
      `SELECT s.schedule_id, s.alert_id FROM alert_schedules s JOIN alerts a ON a.id = s.alert_id
       WHERE s.schedule_id = ANY($1) ORDER BY a.seq`,
      [rows.map((row) => row.id)],
    );
    return scheduleFromRows(rows, links);
  }

  // History ----------------------------------------------------------------------------------------------------

  async searchHistory(accountId: string, query: HistoryQuery): Promise<HistoryRecord[]> {
    const sql = new SqlBuilder([accountId, query.since]);
    // The console's kinds (mutes, notifications) stay out of the public answer.
    const where = ['account_id = $1', 'time >= $2', `status = ANY(${sql.param([...PUBLIC_HISTORY_STATUSES])})`];
    if (query.alertIds.length) where.push(`alert_id = ANY(${sql.param(query.alertIds)})`);
    if (query.status !== null) where.push(`status = ${sql.param(query.status)}`);
    if (query.value !== null) where.push(`value = ${sql.param(query.value)}`);
    const rows = await this.db.query<{ alert_id: string; status: string; value: number | null; time: number; metric: string }>(
      `SELECT alert_id, status, value, time, metric FROM history WHERE ${where.join(' AND ')} ORDER BY time DESC, seq DESC`,
      sql.params,
    );
    return rows.map((row) => ({ alertId: row.alert_id, status: row.status, value: row.value, time: row.time, metric: row.metric }));
  }

  // The evaluator's side ---------------------------------------------------------------------------------------

  async listAlertsForEvaluation(now: number, lease?: EvaluationLease): Promise<EvaluationAlert[]> {
    return this.evaluation.listAlertsForEvaluation(now, lease);
  }

  async saveEvaluations(updates: EvaluationUpdate[], lease?: EvaluationLease): Promise<void> {
    return this.evaluation.saveEvaluations(updates, lease);
  }

  async appendHistory(entries: NewHistoryEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await insertHistory(this.db, entries);
  }

  // Acknowledgements -------------------------------------------------------------------------------------------

  async acknowledgeAlert(accountId: string, alertId: string, write: AckWrite): Promise<AckOutcome> {
    return ackRows.acknowledgeAlert(this.db, accountId, alertId, write);
  }

  async withdrawAcknowledgement(accountId: string, alertId: string, history: Omit<NewHistoryEntry, 'alertId'>) {
    return ackRows.withdrawAcknowledgement(this.db, accountId, alertId, history);
  }

  // The outbox -------------------------------------------------------------------------------------------------

  async claimDueDeliveries(claim: DeliveryClaim): Promise<ClaimedDelivery[]> {
    return this.db.transaction((tx) => outbox.claimDueDeliveries(tx, claim));
  }

  async finishDeliveries(finished: FinishedDelivery[]): Promise<void> {
    await this.db.transaction((tx) => outbox.finishDeliveries(tx, finished));
  }

  async closeThrottleWindows(now: number): Promise<number> {
    return throttleRows.closeThrottleWindows(this.db, now);
  }

  async listDeliveries(accountId: string, query: DeliveryQuery): Promise<Page<DeliveryRecord>> {
    if (listsHeld(query)) return throttleRows.listDeliveriesWithHeld(this.db, accountId, query);
    return outbox.listDeliveries(this.db, accountId, query);
  }

  // The console ------------------------------------------------------------------------------------------------

  async listTimeline(accountId: string, alertId: string, since: number, limit: number): Promise<TimelineRecord[]> {
    return consoleRows.listTimeline(this.db, accountId, alertId, since, limit);
  }

  async getDelivery(accountId: string, id: string): Promise<DeliveryRecord | null> {
    return consoleRows.getDelivery(this.db, accountId, id);
  }

  async retryDelivery(accountId: string, id: string, now: number): Promise<'retried' | 'not_dead' | null> {
    return consoleRows.retryDelivery(this.db, accountId, id, now);
  }

  async enqueueChannelTest(accountId: string, channelId: string, test: ChannelTestDelivery): Promise<DeliveryRecord | null> {
    return consoleRows.enqueueChannelTest(this.db, accountId, channelId, test);
  }

  async findAlertOwner(alertId: string): Promise<{ accountId: string; metricPrefixes: string[] } | null> {
    const [row] = await this.db.query<{ account_id: string; metric_prefixes: string }>(
      'SELECT a.account_id, c.metric_prefixes FROM alerts a JOIN accounts c ON c.id = a.account_id WHERE a.id = $1',
      [alertId],
    );
    return row ? { accountId: row.account_id, metricPrefixes: JSON.parse(row.metric_prefixes) as string[] } : null;
  }

  async setManagedFromGit(accountId: string, alertId: string, managed: boolean): Promise<boolean> {
    const rows = await this.db.query('UPDATE alerts SET managed_from_git = $1 WHERE account_id = $2 AND id = $3 RETURNING id', [managed, accountId, alertId]);
    return rows.length > 0;
  }

  async isManagedFromGit(accountId: string, alertId: string): Promise<boolean> {
    const [row] = await this.db.query<{ managed_from_git: boolean }>('SELECT managed_from_git FROM alerts WHERE account_id = $1 AND id = $2', [accountId, alertId]);
    return row?.managed_from_git === true;
  }

  async getServerSecret(name: string, generate: () => string): Promise<string> {
    await this.db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, generate()]);
    const [row] = await this.db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
    return row!.value;
  }

  async summarizePendingDeliveries(accountId: string, channelIds: string[]): Promise<Map<string, PendingSummary>> {
    return outbox.summarizePendingDeliveries(this.db, accountId, channelIds);
  }

  async countDeliveriesByChannelType(): Promise<{ pending: Record<string, number>; dead: Record<string, number> }> {
    return outbox.countDeliveriesByChannelType(this.db);
  }

  async pruneDeliveries(deliveredBefore: number, deadBefore: number): Promise<number> {
    return outbox.pruneDeliveries(this.db, deliveredBefore, deadBefore);
  }

  async acquireEvaluationLeases(replica: string, ttlMs: number): Promise<EvaluationLease> {
    return this.evaluation.acquireEvaluationLeases(replica, ttlMs);
  }

  async renewEvaluationLeases(replica: string, ttlMs: number): Promise<EvaluationLease> {
    return this.evaluation.renewEvaluationLeases(replica, ttlMs);
  }

  async releaseEvaluationLeases(replica: string): Promise<void> {
    return this.evaluation.releaseEvaluationLeases(replica);
  }

  async setChannelLastError(channelId: string, error: ChannelError | null): Promise<void> {
    await this.db.query('UPDATE channels SET last_error = $1 WHERE id = $2', [error === null ? null : JSON.stringify(error), channelId]);
  }

  // Operations -------------------------------------------------------------------------------------------------

  async checkReadiness(): Promise<StoreReadiness> {
    // A real read: an unreachable database throws StoreUnavailable here.
    const [row] = await this.db.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
    return { schemaVersion: row?.version ?? 0, expectedSchemaVersion: MIGRATIONS.length };
  }

  async listAlertSummaries(accountId: string): Promise<AlertSummary[]> {
    const [rows, links] = await Promise.all([
      this.db.query<AlertSummaryRow>(POSTGRES_SUMMARY_SQL.alerts, [accountId]),
      this.db.query<{ alert_id: string; schedule_id: string }>(POSTGRES_SUMMARY_SQL.links, [accountId]),
    ]);
    return toAlertSummaries(rows, links);
  }

  async countAlertsByStatus(): Promise<Record<string, number>> {
    const rows = await this.db.query<{ status: string; count: number }>('SELECT status, count(*)::int AS count FROM alerts GROUP BY status');
    return Object.fromEntries(rows.map((row) => [row.status, row.count]));
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

/** Numbered parameters for SQL built piece by piece: param() adds a value and answers its `$n`. */
class SqlBuilder {
  constructor(readonly params: unknown[] = []) {}
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

/**
 * A case-insensitive substring search over the alert's name, metric, its additional criteria's metrics and channel
 * descriptions (alias `a`).
 * strpos() rather than LIKE, so `%` and `_` in the search are literal, as instr() on SQLite.
 */
function alertSearchCondition(sql: SqlBuilder, search: string): string {
  const needle = sql.param(search.toLowerCase());
  return `(strpos(lower(a.name), ${needle}) > 0 OR strpos(lower(a.metric), ${needle}) > 0 OR EXISTS (
            SELECT 1 FROM json_each(a.additional_criteria::json) extra
            WHERE strpos(lower(extra.value ->> 'metric'), ${needle}) > 0) OR EXISTS (
            SELECT 1 FROM alert_channels ac JOIN channels c ON c.id = ac.channel_id
            WHERE ac.alert_id = a.id AND strpos(lower(c.description), ${needle}) > 0))`;
}

/** Union of the listed ids and the search matches, oldest first; both empty selects every alert. */
async function select(db: Queryable, accountId: string, selector: AlertSelector): Promise<SelectResult> {
  const listed = [...new Set(selector.ids)];
  const known = new Set(
    (await db.query<{ id: string }>('SELECT id FROM alerts WHERE account_id = $1 AND id = ANY($2)', [accountId, listed])).map(
      (row) => row.id,
    ),
  );
  const missing = listed.filter((id) => !known.has(id));
  const sql = new SqlBuilder([accountId]);
  const conditions: string[] = [];
  if (listed.length > 0 || selector.search) {
    conditions.push(`a.id = ANY(${sql.param(listed)})`);
    if (selector.search) conditions.push(alertSearchCondition(sql, selector.search));
  }
  const rows = await db.query<{ id: string }>(
    `SELECT a.id FROM alerts a WHERE a.account_id = $1${conditions.length ? ` AND (${conditions.join(' OR ')})` : ''} ORDER BY a.seq`,
    sql.params,
  );
  return { ids: rows.map((row) => row.id), missing };
}

/** Rows (with their link arrays) into records. */
function toAlertRecords(rows: LinkedAlertRow[]): AlertRecord[] {
  return rows.map((row) => alertFromRow(row, row.channel_ids, row.schedule_ids));
}

/** Replaces an alert's channel and schedule links, keeping the given order (duplicates dropped, first wins). */
async function writeAlertLinks(tx: Queryable, alertId: string, alert: AlertWrite): Promise<void> {
  await tx.query('DELETE FROM alert_channels WHERE alert_id = $1', [alertId]);
  await tx.query('DELETE FROM alert_schedules WHERE alert_id = $1', [alertId]);
  const channels = [...new Set(alert.notificationChannels)];
  const schedules = [...new Set(alert.scheduledMutes)];
  if (channels.length > 0) {
    await tx.query(
      `INSERT INTO alert_channels (alert_id, channel_id, position)
       SELECT $1, ref, position - 1 FROM unnest($2::text[]) WITH ORDINALITY AS t(ref, position)`,
      [alertId, channels],
    );
  }
  if (schedules.length > 0) {
    await tx.query(
      `INSERT INTO alert_schedules (alert_id, schedule_id, position)
       SELECT $1, ref, position - 1 FROM unnest($2::text[]) WITH ORDINALITY AS t(ref, position)`,
      [alertId, schedules],
    );
  }
}

/** History entries in one INSERT; the account is the alert's, and entries of deleted alerts are dropped. */
async function insertHistory(db: Queryable, entries: NewHistoryEntry[]): Promise<void> {
  if (entries.length === 0) return;
  // WITH ORDINALITY keeps the given order in seq, which breaks ties between entries of one second.
  await db.query(
    `INSERT INTO history (account_id, alert_id, status, value, time, metric, channel_id, reason)
     SELECT a.account_id, e.alert_id, e.status, e.value, e.time, e.metric, e.channel_id, e.reason
     FROM unnest($1::text[], $2::text[], $3::float8[], $4::bigint[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY
       AS e(alert_id, status, value, time, metric, channel_id, reason, n)
     JOIN alerts a ON a.id = e.alert_id ORDER BY e.n`,
    [
      entries.map((entry) => entry.alertId),
      entries.map((entry) => entry.status),
      entries.map((entry) => entry.value),
      entries.map((entry) => entry.time),
      entries.map((entry) => entry.metric),
      entries.map((entry) => entry.channelId ?? null),
      entries.map((entry) => entry.reason ?? null),
    ],
  );
}

function scheduleValues(schedule: ScheduleWrite): unknown[] {
  return [schedule.name, schedule.startTime, schedule.duration, schedule.timezone, JSON.stringify(schedule.repeat), schedule.anchor];
}

/** Runs a write, turning a UNIQUE violation (SQLSTATE 23505) into UniqueViolation(field, value). */
async function unique<T>(field: string, value: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === '23505') throw new UniqueViolation(field, value);
    throw error;
  }
}
