import type { Database } from 'better-sqlite3';
import * as ackRows from './ack-rows.js';
import type { AckOutcome, AckWrite } from '../ack-store.js';
import * as accountRows from './account-rows.js';
import {
  type AccountRecord,
  type AlertQuery,
  type AlertRecord,
  type AlertSelector,
  type AlertWrite,
  type ApiKeyRecord,
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
import * as alertRows from './alert-rows.js';
import * as channelRows from './channel-rows.js';
import { SqliteEvaluationRows } from './evaluation-rows.js';
import { PendingDeliveryBound } from '../pending-bound.js';
import type { EvaluationAlert, EvaluationPaging, EvaluationUpdate } from '../../evaluator/evaluation-store.js';
import * as scheduleRows from './schedule-rows.js';
import * as historyRows from './history-rows.js';
import { sqliteWindowStore } from './window-rows.js';
import type { WindowStore } from '../window-store.js';
import type { WindowMute } from '../window-mutes.js';
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
import type { ChannelTestDelivery, TimelineRecord } from '../console-store.js';
import * as throttleRows from './throttle-rows.js';
import { listsHeld } from '../held-listing.js';
import { openDatabase } from './open-database.js';
import { watchSqliteAccountChanges, type SqliteAccountChanges } from './account-changes.js';
import type { AlertSummary, StateFactsGroup } from '../alert-summary.js';

/** The Store on SQLite (better-sqlite3). One connection; better-sqlite3 is synchronous, so writes serialise. */
export class SqliteStore implements Store {
  /** The evaluator's side (evaluation-rows.ts). */
  private readonly evaluation: SqliteEvaluationRows;
  readonly windows: WindowStore;
  /** Each account's bound on pending deliveries (the server sets its limit). */
  readonly pendingBound = new PendingDeliveryBound();

  private constructor(private readonly db: Database) {
    this.windows = sqliteWindowStore(db);
    this.evaluation = new SqliteEvaluationRows(db, () => this.accountChanges(), this.pendingBound);
  }
  private changes: SqliteAccountChanges | undefined;

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

  accountChanges(): SqliteAccountChanges {
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
    return scheduleRows.createSchedule(this.db, accountId, schedule);
  }

  async getSchedule(accountId: string, id: string): Promise<ScheduleRecord | null> {
    return scheduleRows.getSchedule(this.db, accountId, id);
  }

  async getSchedulesByIds(accountId: string, ids: string[]): Promise<ScheduleRecord[]> {
    return scheduleRows.getSchedulesByIds(this.db, accountId, ids);
  }

  async updateSchedule(accountId: string, id: string, schedule: ScheduleWrite): Promise<ScheduleRecord | null> {
    return scheduleRows.updateSchedule(this.db, accountId, id, schedule);
  }

  async deleteSchedule(accountId: string, id: string): Promise<boolean> {
    return scheduleRows.deleteSchedule(this.db, accountId, id);
  }

  async searchSchedules(accountId: string, query: ScheduleQuery): Promise<Page<ScheduleRecord>> {
    return scheduleRows.searchSchedules(this.db, accountId, query);
  }

  // History ----------------------------------------------------------------------------------------------------

  async searchHistory(accountId: string, query: HistoryQuery): Promise<HistoryRecord[]> {
    return historyRows.searchHistory(this.db, accountId, query);
  }

  // The evaluator's side ---------------------------------------------------------------------------------------

  async listAlertsForEvaluation(now: number, lease?: EvaluationLease, paging?: EvaluationPaging): Promise<EvaluationAlert[]> {
    return this.evaluation.listAlertsForEvaluation(now, lease, paging);
  }

  async recordWindowMutes(mutes: WindowMute[]): Promise<void> {
    return this.evaluation.recordWindowMutes(mutes);
  }

  async saveEvaluations(updates: EvaluationUpdate[]): Promise<void> {
    return this.evaluation.saveEvaluations(updates);
  }

  async appendHistory(entries: NewHistoryEntry[]): Promise<void> {
    this.db.transaction(() => historyRows.appendHistory(this.db, entries))();
  }

  // Acknowledgements -------------------------------------------------------------------------------------------

  async acknowledgeAlert(accountId: string, alertId: string, write: AckWrite): Promise<AckOutcome> {
    return ackRows.acknowledgeAlert(this.db, accountId, alertId, write, this.pendingBound);
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
    return consoleRows.findAlertOwner(this.db, alertId);
  }

  async setManagedFromGit(accountId: string, alertId: string, managed: boolean): Promise<boolean> {
    return consoleRows.setManagedFromGit(this.db, accountId, alertId, managed);
  }

  async isManagedFromGit(accountId: string, alertId: string): Promise<boolean> {
    return consoleRows.isManagedFromGit(this.db, accountId, alertId);
  }

  async getServerSecret(name: string, generate: () => string): Promise<string> {
    return consoleRows.getServerSecret(this.db, name, generate);
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

  async checkReadiness(): Promise<StoreReadiness> {
    // A real read: a closed or vanished database throws here.
    const schemaVersion = this.db.pragma('user_version', { simple: true }) as number;
    this.db.prepare('SELECT 1 FROM accounts LIMIT 1').get();
    return { schemaVersion, expectedSchemaVersion: MIGRATIONS.length };
  }

  async listAlertSummaries(accountId: string): Promise<AlertSummary[]> {
    return alertRows.listAlertSummaries(this.db, accountId);
  }

  async countAlertStateFacts(): Promise<StateFactsGroup[]> {
    return alertRows.countAlertStateFacts(this.db);
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
