import type { Database } from 'better-sqlite3';
import * as ackRows from './ack-rows.js';
import type { AckOutcome, AckWrite } from '../ack-store.js';
import { createId } from '../../ids.js';
import * as accountRows from './account-rows.js';
import {
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
  type EvaluationAlert,
  type EvaluationBatchItem,
  type EvaluationLease,
  type EvaluationResult,
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
import * as alertRows from './alert-rows.js';
import * as channelRows from './channel-rows.js';
import { loadAlertRecords } from './alert-rows.js';
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
import {
  channelFromRow,
  scheduleFromRows,
  scheduleValues,
  type AlertRow,
  type ChannelRow,
  type ScheduleRow,
} from '../row-mappers.js';
import { openDatabase } from './open-database.js';
import { watchSqliteAccountChanges } from './account-changes.js';
import type { AccountChanges } from '../account-changes.js';
import { json, unique } from './sql.js';
import type { AlertSummary } from '../alert-summary.js';


/** The Store on SQLite (better-sqlite3). One connection; better-sqlite3 is synchronous, so writes serialise. */
export class SqliteStore implements Store {
  private constructor(private readonly db: Database) {}
  private changes: AccountChanges | undefined;

  /** Opens a file database (created and migrated as needed) or `:memory:`. */
  static open(path: string): SqliteStore {
    return new SqliteStore(openDatabase(path));
  }

  // Accounts and keys ------------------------------------------------------------------------------------------

  async createAccount(email: string | null): Promise<AccountRecord> {
    return accountRows.createAccount(this.db, email);
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | null> {
    return accountRows.findAccountByEmail(this.db, email);
  }

  async addApiKey(accountId: string, key: string): Promise<ApiKeyRecord> {
    return accountRows.addApiKey(this.db, accountId, key);
  }

  async findAccountByKey(key: string): Promise<AccountRecord | null> {
    return accountRows.findAccountByKey(this.db, key);
  }

  async setMetricPrefixes(accountId: string, prefixes: string[]): Promise<void> {
    accountRows.setMetricPrefixes(this.db, accountId, prefixes);
  }

  accountChanges(): AccountChanges {
    return (this.changes ??= watchSqliteAccountChanges(this.db));
  }

  async findApiKey(key: string): Promise<ApiKeyRecord | null> {
    return accountRows.findApiKey(this.db, key);
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return accountRows.listApiKeys(this.db);
  }

  async revokeApiKey(keyId: string): Promise<boolean> {
    return accountRows.revokeApiKey(this.db, keyId);
  }

  // Alerts -----------------------------------------------------------------------------------------------------

  async createAlert(accountId: string, alert: AlertWrite): Promise<AlertRecord> {
    return alertRows.createAlert(this.db, accountId, alert);
  }

  async getAlert(accountId: string, id: string): Promise<AlertRecord | null> {
    return alertRows.getAlert(this.db, accountId, id);
  }

  async updateAlert(accountId: string, id: string, alert: AlertWrite): Promise<AlertRecord | null> {
    return alertRows.updateAlert(this.db, accountId, id, alert);
  }

  async deleteAlert(accountId: string, id: string): Promise<boolean> {
    return alertRows.deleteAlert(this.db, accountId, id);
  }

  async searchAlerts(accountId: string, query: AlertQuery): Promise<Page<AlertRecord>> {
    return alertRows.searchAlerts(this.db, accountId, query);
  }

  async setMutedUntil(accountId: string, selector: AlertSelector, mutedUntil: number | null): Promise<SelectResult> {
    return alertRows.setMutedUntil(this.db, accountId, selector, mutedUntil);
  }

  // Channels ---------------------------------------------------------------------------------------------------

  async createChannel(accountId: string, channel: ChannelWrite): Promise<ChannelRecord> {
    return channelRows.createChannel(this.db, accountId, channel);
  }

  async getChannel(accountId: string, id: string): Promise<ChannelRecord | null> {
    return channelRows.getChannel(this.db, accountId, id);
  }

  async findChannelsByRefs(accountId: string, refs: string[]): Promise<ChannelRecord[]> {
    return channelRows.findChannelsByRefs(this.db, accountId, refs);
  }

  async updateChannel(accountId: string, id: string, channel: ChannelWrite): Promise<ChannelRecord | null> {
    return channelRows.updateChannel(this.db, accountId, id, channel);
  }

  async deleteChannel(accountId: string, id: string): Promise<{ alertsChanged: number } | null> {
    return channelRows.deleteChannel(this.db, accountId, id);
  }

  async searchChannels(accountId: string, query: ChannelQuery): Promise<Page<ChannelRecord>> {
    return channelRows.searchChannels(this.db, accountId, query);
  }

  // Schedules --------------------------------------------------------------------------------------------------

  async createSchedule(accountId: string, schedule: ScheduleWrite): Promise<ScheduleRecord> {
    const id = createId();
    unique('name', schedule.name, () =>
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
    const result = unique('name', schedule.name, () =>
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

  async listAlertsForEvaluation(): Promise<EvaluationAlert[]> {
    const rows = this.db.prepare('SELECT * FROM alerts ORDER BY seq').all() as AlertRow[];
    // As on PostgreSQL: the evaluator gets the stored eval_state text, unparsed (EvaluationAlert.evalState).
    const evalStates = rows.map((row) => row.eval_state);
    for (const row of rows) row.eval_state = null;
    const alerts = loadAlertRecords(this.db, rows);
    const channels = new Map(
      (this.db.prepare('SELECT * FROM channels').all() as ChannelRow[]).map((row) => [row.id, channelFromRow(row)]),
    );
    const scheduleRows = this.db.prepare('SELECT * FROM schedules').all() as ScheduleRow[];
    const schedules = new Map(this.schedulesWithAlerts(scheduleRows).map((schedule) => [schedule.id, schedule]));
    return alerts.map((alert, index) => ({
      ...alert,
      evalState: evalStates[index] ?? null,
      channels: alert.notificationChannels.flatMap((id) => channels.get(id) ?? []),
      schedules: alert.scheduledMutes.flatMap((id) => schedules.get(id) ?? []),
    }));
  }

  async saveEvaluation(alertId: string, result: EvaluationResult): Promise<boolean> {
    return (
      this.db
        .prepare('UPDATE alerts SET status = ?, currently_triggered_metrics = ?, eval_state = ? WHERE id = ?')
        .run(
          result.status,
          JSON.stringify(result.currentlyTriggeredMetrics),
          result.evalState === undefined || result.evalState === null ? null : JSON.stringify(result.evalState),
          alertId,
        ).changes > 0
    );
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

  async saveEvaluations(results: EvaluationBatchItem[]): Promise<void> {
    const update = this.db.prepare('UPDATE alerts SET status = ?, currently_triggered_metrics = ?, eval_state = ? WHERE id = ?');
    const insert = this.db.prepare(
      `INSERT INTO history (account_id, alert_id, status, value, time, metric, channel_id, reason)
       SELECT account_id, id, ?, ?, ?, ?, ?, ? FROM alerts WHERE id = ?`,
    );
    this.db.transaction(() => {
      // A throttled channel's notifications beyond its window's share are held, and their history says so.
      results = throttleRows.throttleEvaluations(this.db, results);
      for (const { alertId, result, history, endAcknowledgementAt } of results) {
        const evalState = result.evalState === undefined || result.evalState === null ? null : JSON.stringify(result.evalState);
        update.run(result.status, JSON.stringify(result.currentlyTriggeredMetrics), evalState, alertId);
        endAcknowledgement(this.db, alertId, result.status, endAcknowledgementAt);
        for (const entry of history) insert.run(entry.status, entry.value, entry.time, entry.metric, entry.channelId ?? null, entry.reason ?? null, alertId);
      }
      for (const { alertId, deliveries } of results) if (deliveries?.length) outbox.insertDeliveries(this.db, alertId, deliveries);
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
  /** One node owns every alert: SQLite is a single process's file, so there is nobody to share with. */
  async acquireEvaluationLeases(replica: string): Promise<EvaluationLease> {
    return { replica, tokens: null, partitionCount: 1 };
  }

  async renewEvaluationLeases(replica: string): Promise<EvaluationLease> {
    return this.acquireEvaluationLeases(replica);
  }

  async releaseEvaluationLeases(): Promise<void> {}

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
    return alertRows.listAlertSummaries(this.db, accountId);
  }

  async countAlertsByStatus(): Promise<Record<string, number>> {
    return alertRows.countAlertsByStatus(this.db);
  }

  /** Copies the database, while it is in use, to `path` (SQLite's online backup): a consistent snapshot. */
  async backup(path: string): Promise<void> {
    await this.db.backup(path);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

/**
 * Inside saveEvaluations: a recovery ends the alert's acknowledgement (the next episode pages again); an expired one
 * is removed when it is still the one the round read (made at `endAt`), never a newer one.
 */
function endAcknowledgement(db: Database, alertId: string, status: string, endAt: number | undefined): void {
  if (status === 'healthy') db.prepare(`UPDATE alerts SET ${ackRows.CLEAR_ACK} WHERE id = ? AND ack_at IS NOT NULL`).run(alertId);
  else if (endAt !== undefined) db.prepare(`UPDATE alerts SET ${ackRows.CLEAR_ACK} WHERE id = ? AND ack_at = ?`).run(alertId, endAt);
}
