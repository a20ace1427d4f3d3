import type { Database } from 'better-sqlite3';
import * as ackRows from './ack-rows.js';
import type { AckOutcome, AckWrite } from '../ack-store.js';
import { createId, hashApiKey, hashesEqual } from '../../ids.js';
import {
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
import { MIGRATIONS } from './migrations.js';
import { SqliteEvaluationRows } from './evaluation-rows.js';
import type { EvaluationAlert, EvaluationUpdate } from '../../evaluator/evaluation-store.js';
import {
  ALERT_WRITE_COLUMNS,
  alertSearchCondition,
  alertWriteValues,
  loadAlertRecords,
  writeAlertLinks,
  type AlertRow,
} from './alert-rows.js';
import { withoutEscalationChannel } from '../escalation-column.js';
import type {
  ClaimedDelivery,
  DeliveryClaim,
  DeliveryQuery,
  DeliveryRecord,
  FinishedDelivery,
  PendingSummary,
} from '../outbox.js';
import * as outbox from './outbox-rows.js';
import * as consoleRows from './console-rows.js';
import { PUBLIC_HISTORY_STATUSES, type ChannelTestDelivery, type TimelineRecord } from '../console-store.js';
import * as throttleRows from './throttle-rows.js';
import { listsHeld } from '../held-listing.js';
import { channelFromRow, scheduleFromRows, templateColumn, throttleText, type ChannelRow, type ScheduleRow } from './rows.js';
import { openDatabase } from './open-database.js';
import { SQLITE_SUMMARY_SQL, toAlertSummaries, type AlertSummary, type AlertSummaryRow } from '../alert-summary.js';
import { AUTO_RESOLVE_TYPES, DEFAULT_CHANNEL } from '../../../model/defaults.js';


const json = (values: readonly (string | number)[]) => JSON.stringify(values);

/** The Store on SQLite (better-sqlite3). One connection; better-sqlite3 is synchronous, so writes serialise. */
export class SqliteStore implements Store {
  /** The evaluator's side (evaluation-rows.ts). */
  private readonly evaluation: SqliteEvaluationRows;

  private constructor(private readonly db: Database) {
    this.evaluation = new SqliteEvaluationRows(db);
  }

  /** Opens a file database (created and migrated as needed) or `:memory:`. */
  static open(path: string): SqliteStore {
    return new SqliteStore(openDatabase(path));
  }

  // Accounts and keys ------------------------------------------------------------------------------------------

  async createAccount(email: string | null): Promise<AccountRecord> {
    const account = { id: createId(), email, createdAt: new Date().toISOString() };
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO accounts (id, email, created_at) VALUES (?, ?, ?)')
        .run(account.id, email, account.createdAt);
      this.db
        .prepare('INSERT INTO channels (id, account_id, type, description, destination) VALUES (?, ?, ?, ?, ?)')
        .run(createId(), account.id, 'email', DEFAULT_CHANNEL, email ?? '');
    })();
    return account;
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | null> {
    const row = this.db
      .prepare('SELECT id, email, created_at FROM accounts WHERE email = ? ORDER BY seq LIMIT 1')
      .get(email) as { id: string; email: string | null; created_at: string } | undefined;
    return row ? { id: row.id, email: row.email, createdAt: row.created_at } : null;
  }

  async addApiKey(accountId: string, key: string): Promise<ApiKeyRecord> {
    const id = createId();
    const createdAt = new Date().toISOString();
    this.db
      .prepare('INSERT INTO api_keys (id, account_id, key_hash, created_at) VALUES (?, ?, ?, ?)')
      .run(id, accountId, hashApiKey(key), createdAt);
    const email = this.db.prepare('SELECT email FROM accounts WHERE id = ?').pluck().get(accountId) as string | null;
    return { id, accountId, email, createdAt, revokedAt: null };
  }

  async findAccountByKey(key: string): Promise<AccountRecord | null> {
    const hash = hashApiKey(key);
    const row = this.db
      .prepare(
        `SELECT k.key_hash, a.id, a.email, a.created_at, a.metric_prefixes FROM api_keys k
         JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
      )
      .get(hash) as { key_hash: string; id: string; email: string | null; created_at: string; metric_prefixes: string } | undefined;
    // The lookup is by hash already; the constant-time compare guards against any future lookup by prefix.
    if (!row || !hashesEqual(row.key_hash, hash)) return null;
    const metricPrefixes = JSON.parse(row.metric_prefixes) as string[];
    return { id: row.id, email: row.email, createdAt: row.created_at, ...(metricPrefixes.length > 0 ? { metricPrefixes } : {}) };
  }

  /** Confines an account's queries to metric prefixes (`keys create --metric-prefix`); [] lifts the confinement. */
  async setMetricPrefixes(accountId: string, prefixes: string[]): Promise<void> {
    this.db.prepare('UPDATE accounts SET metric_prefixes = ? WHERE id = ?').run(JSON.stringify(prefixes), accountId);
  }

  async findApiKey(key: string): Promise<ApiKeyRecord | null> {
    return (await this.keys('WHERE k.key_hash = ?', [hashApiKey(key)]))[0] ?? null;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return this.keys('', []);
  }

  private async keys(where: string, params: unknown[]): Promise<ApiKeyRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT k.id, k.account_id, a.email, k.created_at, k.revoked_at FROM api_keys k
         JOIN accounts a ON a.id = k.account_id ${where} ORDER BY k.seq`,
      )
      .all(...params) as { id: string; account_id: string; email: string | null; created_at: string; revoked_at: string | null }[];
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      email: row.email,
      createdAt: row.created_at,
      revokedAt: row.revoked_at,
    }));
  }

  async revokeApiKey(keyId: string): Promise<boolean> {
    const found = this.db.prepare('SELECT 1 FROM api_keys WHERE id = ?').get(keyId);
    if (!found) return false;
    this.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .run(new Date().toISOString(), keyId);
    return true;
  }

  // Alerts -----------------------------------------------------------------------------------------------------

  async createAlert(accountId: string, alert: AlertWrite): Promise<AlertRecord> {
    const id = createId();
    this.unique('name', alert.name, () =>
      this.db.transaction(() => {
        this.db
          .prepare(
            `INSERT INTO alerts (id, account_id, ${ALERT_WRITE_COLUMNS.join(', ')}, created_at)
             VALUES (?, ?, ${ALERT_WRITE_COLUMNS.map(() => '?').join(', ')}, ?)`,
          )
          .run(id, accountId, ...alertWriteValues(alert), new Date().toISOString());
        writeAlertLinks(this.db, id, alert);
      })(),
    );
    return (await this.getAlert(accountId, id))!;
  }

  async getAlert(accountId: string, id: string): Promise<AlertRecord | null> {
    const row = this.db.prepare('SELECT * FROM alerts WHERE account_id = ? AND id = ?').get(accountId, id) as
      | AlertRow
      | undefined;
    return row ? loadAlertRecords(this.db, [row])[0]! : null;
  }

  async updateAlert(accountId: string, id: string, alert: AlertWrite): Promise<AlertRecord | null> {
    const changed = this.unique('name', alert.name, () =>
      this.db.transaction(() => {
        const result = this.db
          .prepare(
            `UPDATE alerts SET ${ALERT_WRITE_COLUMNS.map((column) => `${column} = ?`).join(', ')}
             WHERE account_id = ? AND id = ?`,
          )
          .run(...alertWriteValues(alert), accountId, id);
        if (result.changes === 0) return false;
        writeAlertLinks(this.db, id, alert);
        return true;
      })(),
    );
    return changed ? this.getAlert(accountId, id) : null;
  }

  async deleteAlert(accountId: string, id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM alerts WHERE account_id = ? AND id = ?').run(accountId, id).changes > 0;
  }

  async searchAlerts(accountId: string, query: AlertQuery): Promise<Page<AlertRecord>> {
    const where = ['a.account_id = ?'];
    const params: unknown[] = [accountId];
    if (query.names.length > 0 || query.ids.length > 0) {
      where.push(
        '(a.name IN (SELECT value FROM json_each(?)) OR a.id IN (SELECT value FROM json_each(?)))',
      );
      params.push(json(query.names), json(query.ids));
    }
    if (query.search) {
      const condition = alertSearchCondition(query.search);
      where.push(condition.sql);
      params.push(...condition.params);
    }
    const rows = this.db
      .prepare(`SELECT a.* FROM alerts a WHERE ${where.join(' AND ')} ORDER BY a.seq LIMIT ? OFFSET ?`)
      .all(...params, query.max + 1, (query.page - 1) * query.max) as AlertRow[];
    return { items: loadAlertRecords(this.db, rows.slice(0, query.max)), nextPage: rows.length > query.max };
  }

  async selectAlertIds(accountId: string, selector: AlertSelector): Promise<SelectResult> {
    return this.select(accountId, selector);
  }

  async setMutedUntil(accountId: string, selector: AlertSelector, mutedUntil: number | null): Promise<SelectResult> {
    return this.db.transaction(() => {
      const selected = this.select(accountId, selector);
      if (selected.missing.length > 0) return selected;
      this.db
        .prepare('UPDATE alerts SET muted_until = ? WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))')
        .run(mutedUntil, accountId, json(selected.ids));
      return selected;
    })();
  }

  /** Union of the listed ids and the search matches, oldest first; both empty selects every alert. */
  private select(accountId: string, selector: AlertSelector): SelectResult {
    const listed = [...new Set(selector.ids)];
    const known = new Set(
      this.db
        .prepare('SELECT id FROM alerts WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))')
        .pluck()
        .all(accountId, json(listed)) as string[],
    );
    const missing = listed.filter((id) => !known.has(id));
    const everything = listed.length === 0 && !selector.search;
    const conditions: string[] = [];
    const params: unknown[] = [accountId];
    if (!everything) {
      conditions.push('a.id IN (SELECT value FROM json_each(?))');
      params.push(json(listed));
      if (selector.search) {
        const condition = alertSearchCondition(selector.search);
        conditions.push(condition.sql);
        params.push(...condition.params);
      }
    }
    const ids = this.db
      .prepare(
        `SELECT a.id FROM alerts a WHERE a.account_id = ?${conditions.length ? ` AND (${conditions.join(' OR ')})` : ''}
         ORDER BY a.seq`,
      )
      .pluck()
      .all(...params) as string[];
    return { ids, missing };
  }

  // Channels ---------------------------------------------------------------------------------------------------

  async createChannel(accountId: string, channel: ChannelWrite): Promise<ChannelRecord> {
    const id = createId();
    this.unique('description', channel.description, () =>
      this.db
        .prepare(
          `INSERT INTO channels (id, account_id, type, description, destination, auto_resolve, throttle, template)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(id, accountId, channel.type, channel.description, channel.destination, channel.autoResolve ? 1 : 0, throttleText(channel), templateColumn(channel)),
    );
    return (await this.getChannel(accountId, id))!;
  }

  async getChannel(accountId: string, id: string): Promise<ChannelRecord | null> {
    const row = this.db.prepare('SELECT * FROM channels WHERE account_id = ? AND id = ?').get(accountId, id) as
      | ChannelRow
      | undefined;
    return row ? channelFromRow(row) : null;
  }

  async findChannelsByRefs(accountId: string, refs: string[]): Promise<ChannelRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT * FROM channels WHERE account_id = ?
         AND (id IN (SELECT value FROM json_each(?)) OR description IN (SELECT value FROM json_each(?)))
         ORDER BY seq`,
      )
      .all(accountId, json(refs), json(refs)) as ChannelRow[];
    return rows.map(channelFromRow);
  }

  async updateChannel(accountId: string, id: string, channel: ChannelWrite): Promise<ChannelRecord | null> {
    const result = this.unique('description', channel.description, () =>
      this.db
        .prepare(
          `UPDATE channels SET type = ?, description = ?, destination = ?, auto_resolve = ?, throttle = ?, template = ?
           WHERE account_id = ? AND id = ?`,
        )
        .run(channel.type, channel.description, channel.destination, channel.autoResolve ? 1 : 0, throttleText(channel), templateColumn(channel), accountId, id),
    );
    return result.changes > 0 ? this.getChannel(accountId, id) : null;
  }

  async deleteChannel(accountId: string, id: string): Promise<{ alertsChanged: number } | null> {
    return this.db.transaction(() => {
      const users = this.db
        .prepare('SELECT alert_id FROM alert_channels WHERE channel_id = ?')
        .pluck()
        .all(id) as string[];
      const deleted = this.db.prepare('DELETE FROM channels WHERE account_id = ? AND id = ?').run(accountId, id);
      if (deleted.changes === 0) return null;
      // Escalation steps name channels inside a JSON column: the deleted one leaves them (a step left empty goes).
      const escalating = this.db
        .prepare('SELECT id, escalation FROM alerts WHERE account_id = ? AND instr(escalation, ?) > 0')
        .all(accountId, JSON.stringify(id)) as { id: string; escalation: string }[];
      const rewrite = this.db.prepare('UPDATE alerts SET escalation = ? WHERE id = ?');
      for (const row of escalating) rewrite.run(withoutEscalationChannel(row.escalation, id), row.id);
      // An alert left without any channel falls back to the account's default, as on create.
      const fallback = this.db
        .prepare('SELECT id FROM channels WHERE account_id = ? AND description = ?')
        .pluck()
        .get(accountId, DEFAULT_CHANNEL) as string | undefined;
      if (fallback) {
        this.db
          .prepare(
            `INSERT INTO alert_channels (alert_id, channel_id, position)
             SELECT value, ?, 0 FROM json_each(?)
             WHERE NOT EXISTS (SELECT 1 FROM alert_channels WHERE alert_id = value)`,
          )
          .run(fallback, json(users));
      }
      return { alertsChanged: users.length };
    })();
  }

  async searchChannels(accountId: string, query: ChannelQuery): Promise<Page<ChannelRecord>> {
    const either: string[] = [];
    const params: unknown[] = [accountId];
    if (query.types.length) {
      either.push('type IN (SELECT value FROM json_each(?))');
      params.push(json(query.types));
    }
    if (query.descriptions.length) {
      either.push('description IN (SELECT value FROM json_each(?))');
      params.push(json(query.descriptions));
    }
    if (query.ids.length) {
      either.push('id IN (SELECT value FROM json_each(?))');
      params.push(json(query.ids));
    }
    if (query.autoResolve !== null) {
      // auto_resolve counts only on the types that resolve by themselves (a stored true elsewhere means nothing).
      either.push('(type IN (SELECT value FROM json_each(?)) AND auto_resolve = ?)');
      params.push(json([...AUTO_RESOLVE_TYPES]), query.autoResolve ? 1 : 0);
    }
    const rows = this.db
      .prepare(
        `SELECT * FROM channels WHERE account_id = ?${either.length ? ` AND (${either.join(' OR ')})` : ''}
         ORDER BY seq LIMIT ? OFFSET ?`,
      )
      .all(...params, query.max + 1, (query.page - 1) * query.max) as ChannelRow[];
    return { items: rows.slice(0, query.max).map(channelFromRow), nextPage: rows.length > query.max };
  }

  // Schedules --------------------------------------------------------------------------------------------------

  async createSchedule(accountId: string, schedule: ScheduleWrite): Promise<ScheduleRecord> {
    const id = createId();
    this.unique('name', schedule.name, () =>
      this.db
        .prepare(
          `INSERT INTO schedules (id, account_id, name, start_time, duration, timezone, repeat_days, anchor)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(id, accountId, ...scheduleValues(schedule)),
    );
    return (await this.getSchedule(accountId, id))!;
  }

  async getSchedule(accountId: string, id: string): Promise<ScheduleRecord | null> {
    return (await this.getSchedulesByIds(accountId, [id]))[0] ?? null;
  }

  async getSchedulesByIds(accountId: string, ids: string[]): Promise<ScheduleRecord[]> {
    const rows = this.db
      .prepare('SELECT * FROM schedules WHERE account_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY seq')
      .all(accountId, json(ids)) as ScheduleRow[];
    return this.schedulesWithAlerts(rows);
  }

  async updateSchedule(accountId: string, id: string, schedule: ScheduleWrite): Promise<ScheduleRecord | null> {
    const result = this.unique('name', schedule.name, () =>
      this.db
        .prepare(
          `UPDATE schedules SET name = ?, start_time = ?, duration = ?, timezone = ?, repeat_days = ?, anchor = ?
           WHERE account_id = ? AND id = ?`,
        )
        .run(...scheduleValues(schedule), accountId, id),
    );
    return result.changes > 0 ? this.getSchedule(accountId, id) : null;
  }

  async deleteSchedule(accountId: string, id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM schedules WHERE account_id = ? AND id = ?').run(accountId, id).changes > 0;
  }

  async searchSchedules(accountId: string, query: ScheduleQuery): Promise<Page<ScheduleRecord>> {
    const params: unknown[] = [accountId];
    const criteria: Array<[string, readonly (string | number)[]]> = [
      ['name IN (SELECT value FROM json_each(?))', query.names],
      ['id IN (SELECT value FROM json_each(?))', query.ids],
      ['duration IN (SELECT value FROM json_each(?))', query.durations],
      ['start_time IN (SELECT value FROM json_each(?))', query.startTimes],
      ['timezone IN (SELECT value FROM json_each(?))', query.timezones],
      ['EXISTS (SELECT 1 FROM json_each(repeat_days) d WHERE d.value IN (SELECT value FROM json_each(?)))', query.repeat],
    ];
    const given = criteria.filter(([, values]) => values.length > 0);
    let filter = '';
    if (given.length > 0) {
      filter = ` AND (${given.map(([sql]) => sql).join(' OR ')})`;
      params.push(...given.map(([, values]) => json(values)));
    }
    const rows = this.db
      .prepare(`SELECT * FROM schedules WHERE account_id = ?${filter} ORDER BY seq LIMIT ? OFFSET ?`)
      .all(...params, query.max + 1, (query.page - 1) * query.max) as ScheduleRow[];
    return { items: this.schedulesWithAlerts(rows.slice(0, query.max)), nextPage: rows.length > query.max };
  }

  private schedulesWithAlerts(rows: ScheduleRow[]): ScheduleRecord[] {
    if (rows.length === 0) return [];
    const links = this.db
      .prepare(
        `SELECT s.schedule_id, s.alert_id FROM alert_schedules s JOIN alerts a ON a.id = s.alert_id
         WHERE s.schedule_id IN (SELECT value FROM json_each(?)) ORDER BY a.seq`,
      )
      .all(json(rows.map((row) => row.id))) as { schedule_id: string; alert_id: string }[];
    return scheduleFromRows(rows, links);
  }

  // History ----------------------------------------------------------------------------------------------------

  async searchHistory(accountId: string, query: HistoryQuery): Promise<HistoryRecord[]> {
    // The console's kinds (mutes, notifications) stay out of the public answer.
    const where = ['account_id = ?', 'time >= ?', `status IN (${PUBLIC_HISTORY_STATUSES.map((s) => `'${s}'`).join(', ')})`];
    const params: unknown[] = [accountId, query.since];
    if (query.alertIds.length) {
      where.push('alert_id IN (SELECT value FROM json_each(?))');
      params.push(json(query.alertIds));
    }
    if (query.status !== null) {
      where.push('status = ?');
      params.push(query.status);
    }
    if (query.value !== null) {
      where.push('value = ?');
      params.push(query.value);
    }
    const rows = this.db
      .prepare(
        `SELECT alert_id, status, value, time, metric FROM history WHERE ${where.join(' AND ')}
         ORDER BY time DESC, seq DESC`,
      )
      .all(...params) as { alert_id: string; status: string; value: number | null; time: number; metric: string }[];
    return rows.map((row) => ({ alertId: row.alert_id, status: row.status, value: row.value, time: row.time, metric: row.metric }));
  }

  // The evaluator's side ---------------------------------------------------------------------------------------

  async listAlertsForEvaluation(now: number): Promise<EvaluationAlert[]> {
    return this.evaluation.listAlertsForEvaluation(now);
  }

  async saveEvaluations(updates: EvaluationUpdate[]): Promise<void> {
    return this.evaluation.saveEvaluations(updates);
  }

  async appendHistory(entries: NewHistoryEntry[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO history (account_id, alert_id, status, value, time, metric, channel_id, reason)
       SELECT account_id, id, ?, ?, ?, ?, ?, ? FROM alerts WHERE id = ?`,
    );
    this.db.transaction(() => {
      for (const entry of entries) insert.run(entry.status, entry.value, entry.time, entry.metric, entry.channelId ?? null, entry.reason ?? null, entry.alertId);
    })();
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
    return outbox.claimDueDeliveries(this.db, claim);
  }

  async finishDeliveries(finished: FinishedDelivery[]): Promise<void> {
    outbox.finishDeliveries(this.db, finished);
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
    const row = this.db
      .prepare('SELECT a.account_id, c.metric_prefixes FROM alerts a JOIN accounts c ON c.id = a.account_id WHERE a.id = ?')
      .get(alertId) as { account_id: string; metric_prefixes: string } | undefined;
    return row ? { accountId: row.account_id, metricPrefixes: JSON.parse(row.metric_prefixes) as string[] } : null;
  }

  async setManagedFromGit(accountId: string, alertId: string, managed: boolean): Promise<boolean> {
    return this.db.prepare('UPDATE alerts SET managed_from_git = ? WHERE account_id = ? AND id = ?').run(managed ? 1 : 0, accountId, alertId).changes > 0;
  }

  async isManagedFromGit(accountId: string, alertId: string): Promise<boolean> {
    const row = this.db.prepare('SELECT managed_from_git FROM alerts WHERE account_id = ? AND id = ?').get(accountId, alertId) as
      | { managed_from_git: number }
      | undefined;
    return row?.managed_from_git === 1;
  }

  async getServerSecret(name: string, generate: () => string): Promise<string> {
    this.db.prepare('INSERT INTO server_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, generate());
    return (this.db.prepare('SELECT value FROM server_secrets WHERE name = ?').get(name) as { value: string }).value;
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
  async acquireEvaluationLeases(replica: string): Promise<EvaluationLease> {
    return this.evaluation.acquireEvaluationLeases(replica);
  }

  async renewEvaluationLeases(replica: string): Promise<EvaluationLease> {
    return this.evaluation.renewEvaluationLeases(replica);
  }

  async releaseEvaluationLeases(): Promise<void> {
    return this.evaluation.releaseEvaluationLeases();
  }

  async setChannelLastError(channelId: string, error: ChannelError | null): Promise<void> {
    this.db
      .prepare('UPDATE channels SET last_error = ? WHERE id = ?')
      .run(error === null ? null : JSON.stringify(error), channelId);
  }

  async checkReadiness(): Promise<StoreReadiness> {
    // A real read: a closed or vanished database throws here.
    const schemaVersion = this.db.pragma('user_version', { simple: true }) as number;
    this.db.prepare('SELECT 1 FROM accounts LIMIT 1').get();
    return { schemaVersion, expectedSchemaVersion: MIGRATIONS.length };
  }

  async listAlertSummaries(accountId: string): Promise<AlertSummary[]> {
    const rows = this.db.prepare(SQLITE_SUMMARY_SQL.alerts).all(accountId) as AlertSummaryRow[];
    const links = this.db.prepare(SQLITE_SUMMARY_SQL.links).all(accountId) as { alert_id: string; schedule_id: string }[];
    return toAlertSummaries(rows, links);
  }

  async countAlertsByStatus(): Promise<Record<string, number>> {
    const rows = this.db.prepare('SELECT status, COUNT(*) AS count FROM alerts GROUP BY status').all() as { status: string; count: number }[];
    return Object.fromEntries(rows.map((row) => [row.status, row.count]));
  }

  /** Copies the database, while it is in use, to `path` (SQLite's online backup): a consistent snapshot. */
  async backup(path: string): Promise<void> {
    await this.db.backup(path);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  /** Runs a write, turning a per-account UNIQUE violation into UniqueViolation(field, value). */
  private unique<T>(field: string, value: string, write: () => T): T {
    try {
      return write();
    } catch (error) {
      if (error instanceof Error && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new UniqueViolation(field, value);
      }
      throw error;
    }
  }
}

function scheduleValues(schedule: ScheduleWrite): unknown[] {
  return [
    schedule.name,
    schedule.startTime,
    schedule.duration,
    schedule.timezone,
    JSON.stringify(schedule.repeat),
    schedule.anchor,
  ];
}
