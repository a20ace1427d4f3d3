import * as accountRows from './account-rows.js';
import * as alertRows from './alert-rows.js';
import * as channelRows from './channel-rows.js';
import * as scheduleRows from './schedule-rows.js';
import * as historyRows from './history-rows.js';
import { SCHEDULE_COLUMNS } from './schedule-rows.js';
import { CHANNEL_COLUMNS } from './channel-rows.js';
import { ALERT_COLUMNS, type LinkedAlertRow } from './alert-rows.js';
import {
  LeaseLost,
  alertPartition,
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
import * as ackRows from './ack-rows.js';
import { CLEAR_ACK } from '../sqlite/ack-rows.js';
import type { AckOutcome, AckWrite } from '../ack-store.js';
import * as throttleRows from './throttle-rows.js';
import { listsHeld } from '../held-listing.js';
import { alertFromRow, channelFromRow, scheduleFromRows, type ChannelRow, type ScheduleRow } from '../row-mappers.js';
import { acquireLeases, fencePartitions, partitionSql, releaseLeases, renewLeases } from './evaluation-leases.js';
import { MIGRATIONS, migrateDatabase } from './migrations.js';
import { watchPostgresAccountChanges } from './account-changes.js';
import type { AccountChanges } from '../account-changes.js';
import { PgDatabase, type PoolOptions, type Queryable } from './pg-database.js';
import * as outbox from './outbox-rows.js';
import type { AlertSummary } from '../alert-summary.js';
import * as consoleRows from './console-rows.js';
import type { ChannelTestDelivery, TimelineRecord } from '../console-store.js';
import type {
  ClaimedDelivery,
  DeliveryClaim,
  DeliveryQuery,
  DeliveryRecord,
  FinishedDelivery,
  PendingSummary,
} from '../outbox.js';


/**
 * The Store on PostgreSQL (node-postgres, a pool of connections). The same semantics as the SQLite store in
 * every method: creation order (`seq`), per-account uniqueness enforced by the database's UNIQUE constraints,
 * search and pagination in SQL, and a transaction wherever SQLite uses one. A database that cannot be reached
 * surfaces as StoreUnavailable.
 */
export class PostgresStore implements Store {
  private constructor(private readonly db: PgDatabase) {}
  private changes: AccountChanges | undefined;

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
    await accountRows.setMetricPrefixes(this.db, accountId, prefixes);
  }

  accountChanges(): AccountChanges {
    return (this.changes ??= watchPostgresAccountChanges(this.db));
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

  async listAlertsForEvaluation(lease?: EvaluationLease): Promise<EvaluationAlert[]> {
    // One snapshot for the alerts, channels and schedules of the round, as SQLite's single connection sees them.
    return this.db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const partitions = lease?.tokens ? [...lease.tokens.keys()] : null;
      const alertRows = partitions
        ? await tx.query<LinkedAlertRow>(
            `SELECT ${ALERT_COLUMNS} FROM alerts a WHERE ${partitionSql('$1')} = ANY($2) ORDER BY a.seq`,
            [lease!.partitionCount, partitions],
          )
        : await tx.query<LinkedAlertRow>(`SELECT ${ALERT_COLUMNS} FROM alerts a ORDER BY a.seq`);
      const channels = new Map(
        (await tx.query<ChannelRow>(`SELECT ${CHANNEL_COLUMNS} FROM channels`)).map((row) => [row.id, channelFromRow(row)]),
      );
      const scheduleRows = await tx.query<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM schedules`);
      const links = await tx.query<{ schedule_id: string; alert_id: string }>(
        `SELECT s.schedule_id, s.alert_id FROM alert_schedules s JOIN alerts a ON a.id = s.alert_id ORDER BY a.seq`,
      );
      const schedules = new Map(scheduleFromRows(scheduleRows, links).map((schedule) => [schedule.id, schedule]));
      // Plain loops and one object per alert: this runs for every alert of the replica's share every cycle.
      const pick = <T>(ids: string[], from: Map<string, T>): T[] => {
        const found: T[] = [];
        for (const id of ids) {
          const one = from.get(id);
          if (one) found.push(one);
        }
        return found;
      };
      return alertRows.map((row): EvaluationAlert => {
        // evalState is opaque to the store: the evaluator gets the stored text as it is and parses it once itself
        // (readEvalState), and compares its new state with that text without serializing the old one again.
        const evalStateText = row.eval_state;
        row.eval_state = null;
        const alert = alertFromRow(row, row.channel_ids, row.schedule_ids) as EvaluationAlert;
        alert.evalState = evalStateText;
        alert.channels = pick(row.channel_ids, channels);
        alert.schedules = pick(row.schedule_ids, schedules);
        return alert;
      });
    });
  }

  async saveEvaluation(alertId: string, result: EvaluationResult): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE alerts SET status = $1, currently_triggered_metrics = $2, eval_state = $3 WHERE id = $4 RETURNING id',
      [result.status, JSON.stringify(result.currentlyTriggeredMetrics), evalStateText(result.evalState), alertId],
    );
    return rows.length > 0;
  }

  async appendHistory(entries: NewHistoryEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await insertHistory(this.db, entries);
  }

  async saveEvaluations(all: EvaluationBatchItem[], lease?: EvaluationLease): Promise<void> {
    if (all.length === 0) return;
    // Two statements for the whole round, whatever its size: one UPDATE from arrays, one INSERT of the history.
    await this.db.transaction(async (tx) => {
      let results = all;
      if (lease?.tokens) {
        // Fenced: a partition that moved to another replica (its token changed) is evaluated there from the state
        // it reads, so writing (and notifying) it here would repeat it. The round is saved whole or not at all.
        const held = await fencePartitions(tx, lease);
        const lost = new Set(results.map((item) => alertPartition(item.alertId, lease.partitionCount)).filter((p) => !held.has(p)));
        if (lost.size > 0) throw new LeaseLost([...lost].sort((a, b) => a - b));
      }
      // A throttled channel's notifications beyond its window's share are held, and their history says so.
      results = await throttleRows.throttleEvaluations(tx, results);
      await tx.query(
        `UPDATE alerts SET status = r.status, currently_triggered_metrics = r.metrics, eval_state = r.eval_state
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS r(id, status, metrics, eval_state)
         WHERE alerts.id = r.id`,
        [
          results.map((item) => item.alertId),
          results.map((item) => item.result.status),
          results.map((item) => JSON.stringify(item.result.currentlyTriggeredMetrics)),
          results.map((item) => evalStateText(item.result.evalState)),
        ],
      );
      await endAcknowledgements(tx, results);
      await insertHistory(
        tx,
        results.flatMap(({ alertId, history }) => history.map((entry) => ({ ...entry, alertId }))),
      );
      // The notifications of these transitions, in the same transaction: committed together or not at all.
      await outbox.insertDeliveries(tx, results);
    });
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

  async acquireEvaluationLeases(replica: string, ttlMs: number): Promise<EvaluationLease> {
    return this.db.transaction((tx) => acquireLeases(tx, replica, ttlMs));
  }

  async renewEvaluationLeases(replica: string, ttlMs: number): Promise<EvaluationLease> {
    const renewed = await this.db.transaction((tx) => renewLeases(tx, replica, ttlMs));
    // Only when something lies free and this replica is below its share does it lock the lease table to take it.
    return renewed ?? this.db.transaction((tx) => acquireLeases(tx, replica, ttlMs, { shed: false }));
  }

  async releaseEvaluationLeases(replica: string): Promise<void> {
    await this.db.transaction((tx) => releaseLeases(tx, replica));
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
    return alertRows.listAlertSummaries(this.db, accountId);
  }

  async countAlertsByStatus(): Promise<Record<string, number>> {
    return alertRows.countAlertsByStatus(this.db);
  }

  async close(): Promise<void> {
    await this.changes?.close();
    await this.db.close();
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

function evalStateText(evalState: unknown): string | null {
  return evalState === undefined || evalState === null ? null : JSON.stringify(evalState);
}

/**
 * Inside saveEvaluations: recoveries end their alerts' acknowledgements (the next episode pages again); expired ones
 * are removed when still the ones the round read (made at endAcknowledgementAt), never newer ones.
 */
async function endAcknowledgements(tx: Queryable, results: EvaluationBatchItem[]): Promise<void> {
  const recovered = results.filter((item) => item.result.status === 'healthy').map((item) => item.alertId);
  if (recovered.length > 0) {
    await tx.query(`UPDATE alerts SET ${CLEAR_ACK} WHERE id = ANY($1) AND ack_at IS NOT NULL`, [recovered]);
  }
  const expired = results.filter((item) => item.result.status !== 'healthy' && item.endAcknowledgementAt !== undefined);
  if (expired.length > 0) {
    await tx.query(
      `UPDATE alerts SET ${CLEAR_ACK} FROM unnest($1::text[], $2::bigint[]) AS e(id, at) WHERE alerts.id = e.id AND alerts.ack_at = e.at`,
      [expired.map((item) => item.alertId), expired.map((item) => item.endAcknowledgementAt)],
    );
  }
}
