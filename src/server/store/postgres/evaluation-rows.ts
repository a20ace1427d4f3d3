import type { EvaluationAlert, EvaluationStore, EvaluationUpdate } from '../../evaluator/evaluation-store.js';
import { LeaseLost, alertPartition, type EvaluationLease } from '../store.js';
import {
  EVALUATION_ALERT_COLUMNS,
  EVALUATION_ALERT_COLUMN_COUNT,
  SCHEDULE_TIMING_COLUMNS,
  evaluationAlertFromValues,
  scheduleTimings,
  type ScheduleTimingRow,
} from '../evaluation-alert.js';
import type { ScheduleTiming } from '../../../model/schedule-active.js';
import { CLEAR_ACK } from '../ack-store.js';
import { appendHistory } from './history-rows.js';
import { acquireLeases, fencePartitions, partitionSql, releaseLeases, renewLeases } from './evaluation-leases.js';
import { insertDeliveries } from './outbox-rows.js';
import { throttleEvaluations } from './throttle-rows.js';
import type { PgDatabase, Queryable } from './pg-database.js';

/** An alert row with its ordered channel and schedule links as two arrays: one round trip for the round. */
const LINKED_COLUMNS = `${EVALUATION_ALERT_COLUMNS},
  ARRAY(SELECT channel_id FROM alert_channels WHERE alert_id = a.id ORDER BY position) AS channel_ids,
  ARRAY(SELECT schedule_id FROM alert_schedules WHERE alert_id = a.id ORDER BY position) AS schedule_ids`;

/** Where the links are in an array row: after the alert's columns. */
const CHANNEL_IDS_AT = EVALUATION_ALERT_COLUMN_COUNT;
const SCHEDULE_IDS_AT = EVALUATION_ALERT_COLUMN_COUNT + 1;

/**
 * The evaluator's store on PostgreSQL: replicas share the alerts by partition leases (evaluation-leases.ts), list
 * the alerts of the partitions they hold, and save fenced by the lease they listed under.
 */
export class PostgresEvaluationRows implements EvaluationStore {
  constructor(private readonly db: PgDatabase) {}

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

  async listAlertsForEvaluation(now: number, lease?: EvaluationLease): Promise<EvaluationAlert[]> {
    // One snapshot for the alerts and schedules of the round, as SQLite's single connection sees them.
    return this.db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const partitions = lease?.tokens ? [...lease.tokens.keys()] : null;
      // Rows as arrays: cheaper for pg to build than objects of twenty-odd keys.
      const rows = partitions
        ? await tx.queryArrays(`SELECT ${LINKED_COLUMNS} FROM alerts a WHERE ${partitionSql('$1')} = ANY($2) ORDER BY a.seq`, [
            lease!.partitionCount,
            partitions,
          ])
        : await tx.queryArrays(`SELECT ${LINKED_COLUMNS} FROM alerts a ORDER BY a.seq`);
      const timings = scheduleTimings(await tx.query<ScheduleTimingRow>(`SELECT ${SCHEDULE_TIMING_COLUMNS} FROM schedules`));
      // Plain loops: this runs for every alert of the replica's share every cycle.
      const alerts: EvaluationAlert[] = new Array(rows.length);
      for (let i = 0; i < rows.length; i += 1) {
        const row = rows[i]!;
        const scheduleIds = row[SCHEDULE_IDS_AT] as string[];
        let schedules: ScheduleTiming[] = NO_SCHEDULES;
        if (scheduleIds.length > 0) {
          schedules = [];
          for (const id of scheduleIds) {
            const timing = timings.get(id);
            if (timing) schedules.push(timing);
          }
        }
        alerts[i] = evaluationAlertFromValues(row, row[CHANNEL_IDS_AT] as string[], schedules, now);
      }
      return alerts;
    });
  }

  async saveEvaluations(updates: EvaluationUpdate[], lease?: EvaluationLease): Promise<void> {
    if (updates.length === 0) return;
    // A few statements for the whole round, whatever its size: one UPDATE from arrays, one INSERT of the history.
    await this.db.transaction(async (tx) => {
      if (lease?.tokens) {
        // Fenced: a partition that moved to another replica (its token changed) is evaluated there from the state
        // it reads, so writing (and notifying) it here would repeat it. The round is saved whole or not at all.
        const held = await fencePartitions(tx, lease);
        const lost = new Set(updates.map((update) => alertPartition(update.alertId, lease.partitionCount)).filter((p) => !held.has(p)));
        if (lost.size > 0) throw new LeaseLost([...lost].sort((a, b) => a - b));
      }
      // A throttled channel's notifications beyond its window's share are held, and their history says so.
      const saved = await throttleEvaluations(tx, updates);
      await tx.query(
        `UPDATE alerts SET status = r.status, currently_triggered_metrics = r.metrics, eval_state = r.eval_state
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS r(id, status, metrics, eval_state)
         WHERE alerts.id = r.id`,
        [
          saved.map((update) => update.alertId),
          saved.map((update) => update.status),
          saved.map((update) => JSON.stringify(update.currentlyTriggeredMetrics)),
          saved.map((update) => update.evalState),
        ],
      );
      await endAcknowledgements(tx, saved);
      await insertRoundHistory(tx, saved);
      // The notifications of these transitions, in the same transaction: committed together or not at all.
      await insertDeliveries(tx, saved);
    });
  }
}

const NO_SCHEDULES: ScheduleTiming[] = [];

/** The round's history entries in one INSERT; the account is the alert's, and entries of deleted alerts are dropped. */
async function insertRoundHistory(tx: Queryable, updates: EvaluationUpdate[]): Promise<void> {
  const entries = updates.flatMap(({ alertId, history }) =>
    history.map((entry) => ({ alertId, ...entry, channelId: 'channelId' in entry ? entry.channelId : null, reason: 'reason' in entry ? entry.reason : null })),
  );
  await appendHistory(tx, entries);
}

/**
 * Inside saveEvaluations: recoveries end their alerts' acknowledgements (the next episode pages again); expired ones
 * are removed when still the ones the round read (made at endAcknowledgementAt), never newer ones.
 */
async function endAcknowledgements(tx: Queryable, updates: EvaluationUpdate[]): Promise<void> {
  const recovered = updates.filter((update) => update.status === 'healthy').map((update) => update.alertId);
  if (recovered.length > 0) {
    await tx.query(`UPDATE alerts SET ${CLEAR_ACK} WHERE id = ANY($1) AND ack_at IS NOT NULL`, [recovered]);
  }
  const expired = updates.filter((update) => update.status !== 'healthy' && update.endAcknowledgementAt !== undefined);
  if (expired.length > 0) {
    await tx.query(
      `UPDATE alerts SET ${CLEAR_ACK} FROM unnest($1::text[], $2::bigint[]) AS e(id, at) WHERE alerts.id = e.id AND alerts.ack_at = e.at`,
      [expired.map((update) => update.alertId), expired.map((update) => update.endAcknowledgementAt)],
    );
  }
}
