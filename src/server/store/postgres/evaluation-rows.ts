import {
  LeaseLost,
  alertPartition,
  type EvaluationAlert,
  type EvaluationLease,
  type EvaluationPaging,
  type EvaluationStore,
  type EvaluationUpdate,
  type SavedRound,
} from '../evaluation-store.js';
import {
  EVALUATION_ALERT_COLUMNS,
  SCHEDULE_TIMING_COLUMNS,
  alertIdOf,
  clockInputsFromValues,
  evaluationAlertFromValues,
  prepareWindowsOfValues,
  scheduleTimings,
  windowsMatchingValues,
  type ScheduleTimingRow,
} from '../evaluation-alert.js';
import { AccountWindows, type WindowMute } from '../window-mutes.js';
import { ListingMatching } from '../window-warmup.js';
import { WindowMuteMemo } from '../window-mute-memo.js';
import { listAllWindows, recordWindowMutes } from './window-rows.js';
import type { ScheduleTiming } from '../../../model/schedule-active.js';
import { CLEAR_ACK } from '../ack-store.js';
import { appendHistory } from './history-rows.js';
import { acquireLeases, fencePartitions, partitionSql, releaseLeases, renewLeases } from './evaluation-leases.js';
import { boundRoundDeliveries, insertDeliveries } from './outbox-rows.js';
import type { PendingDeliveryBound } from '../pending-bound.js';
import { throttleEvaluations } from './throttle-rows.js';
import type { PgDatabase, Queryable } from './pg-database.js';
import { EvaluationListingCache, type ListingFill } from '../evaluation-listing-cache.js';
import type { AccountChanges } from '../account-changes.js';
import { heldNotifications, holdDependents, mayHold, parentStates } from '../dependency-hold.js';
import type { DependsOnItem } from '../../../model/types.js';
import type { DependsOnRow } from '../row-mappers.js';
import { groupRoundDeliveries } from './group-rows.js';

/**
 * The evaluator's store on PostgreSQL: replicas share the alerts by partition leases (evaluation-leases.ts), list
 * the alerts of the partitions they hold, and save fenced by the lease they listed under. A paged listing (the
 * evaluator's) keeps its records between cycles and serves them again until something it reads changes
 * (evaluation-listing-cache.ts; the `evaluation` topic, read after a barrier: postgres/account-changes.ts).
 */
export class PostgresEvaluationRows implements EvaluationStore {
  private readonly cache = new EvaluationListingCache();
  private readonly windowMutes = new WindowMuteMemo();

  /** `changes`: the store's change watcher (its `evaluation` topic), made on first use. */
  constructor(
    private readonly db: PgDatabase,
    private readonly changes: () => AccountChanges,
    private readonly pendingBound: PendingDeliveryBound,
  ) {}

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

  async listAlertsForEvaluation(now: number, lease?: EvaluationLease, paging?: EvaluationPaging): Promise<EvaluationAlert[]> {
    // The evaluator's (paged) listing: the kept records when they are current, else a fill of what is read now.
    const fill = paging ? await this.cache.serveOrBegin(this.changes(), now, lease, paging) : null;
    if (paging && !fill) return [];
    // One snapshot for the alerts, their links and the schedules of the round (every page of it), as SQLite's single
    // connection sees them.
    const listed = await this.db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const partitions = lease?.tokens ? [...lease.tokens.keys()] : null;
      const where = partitions ? `WHERE ${partitionSql('$1')} = ANY($2)` : '';
      const params = partitions ? [lease!.partitionCount, partitions] : [];
      const timings = scheduleTimings(await tx.query<ScheduleTimingRow>(`SELECT ${SCHEDULE_TIMING_COLUMNS} FROM schedules`));
      const windows = new AccountWindows(await listAllWindows(tx), { everything: true });
      // Pages from one cursor: the alerts are read in one pass (keyset queries would each plan and scan again), a
      // page at a time, the next page asked before this page's records are built: the database reads on while the
      // replica builds, and the evaluator renders a page while the next is read. Rows as arrays: cheaper for pg to
      // build than objects of twenty-odd keys.
      await tx.query(`DECLARE evaluation_alerts NO SCROLL CURSOR FOR SELECT ${EVALUATION_ALERT_COLUMNS} FROM alerts a ${where} ORDER BY a.seq`, params);
      const pageSize = paging ? Math.max(1, Math.floor(paging.size)) : null;
      const readPage = () => tx.queryArrays(`FETCH ${pageSize ? `FORWARD ${pageSize}` : 'ALL'} FROM evaluation_alerts`);
      // The links come as rows of their own rather than an ARRAY(...) per alert: pg parses array literals slowly
      // (about half the listing's CPU here), and PostgreSQL runs two subqueries per alert for them. By the page's
      // ids: the links' primary key (alert_id first) finds them without reading the whole table.
      const readLinks = (table: 'alert_channels' | 'alert_schedules', column: string, ids: string[]) =>
        tx.queryArrays(`SELECT alert_id, ${column} FROM ${table} WHERE alert_id = ANY($1::text[]) ORDER BY alert_id, position`, [ids]);
      const all: EvaluationAlert[] = [];
      const matching = paging ? new ListingMatching() : undefined;
      let next = readPage();
      for (;;) {
        const rows = await next;
        if (rows.length === 0) break;
        const ids = rows.map(alertIdOf);
        // One statement at a time on the connection (pg queues no more than that without complaint).
        const channels = groupLinks(await readLinks('alert_channels', 'channel_id', ids));
        const scheduleLinks = groupLinks(await readLinks('alert_schedules', 'schedule_id', ids));
        const more = pageSize !== null && rows.length === pageSize;
        // Asked now, awaited next turn: a failure there is the transaction's, rethrown when awaited.
        next = more ? readPage() : Promise.resolve([]);
        next.catch(() => undefined);
        // Windows matched ahead, in slices and within each account's share of the listing: a tenant's first matching
        // at its quotas must neither hold the loop nor the other tenants' alerts.
        await prepareWindowsOfValues(windows, rows, (id) => channels.get(id) ?? [], matching);
        const alerts = buildAlerts(rows, channels, scheduleLinks, timings, windows, now, fill, matching?.deferred);
        if (paging) await paging.onPage(alerts);
        else for (const alert of alerts) all.push(alert);
        const deferred = matching?.takeDeferred() ?? [];
        if (deferred.length > 0) paging!.onDeferred?.(deferred);
        if (!more) {
          await next;
          break;
        }
      }
      matching?.finish(windows);
      return { all, complete: !matching || matching.deferred.size === 0 };
    });
    // Kept only once the snapshot closed without an error, and only whole: a listing with alerts left out is not
    // kept, so that the next cycle lists again and finds them matched.
    if (listed.complete) fill?.finish();
    return listed.all;
  }

  async saveEvaluations(updates: EvaluationUpdate[], lease?: EvaluationLease): Promise<SavedRound> {
    if (updates.length === 0) return { held: [] };
    let saved: EvaluationUpdate[];
    try {
      saved = await this.db.transaction((tx) => saveRound(tx, updates, lease, this.pendingBound));
    } catch (error) {
      this.cache.drop();
      throw error;
    }
    this.cache.applySaved(saved);
    return { held: heldNotifications(saved) };
  }

  async recordWindowMutes(mutes: WindowMute[]): Promise<void> {
    const fresh = this.windowMutes.unseen(mutes);
    if (fresh.length === 0) return;
    await recordWindowMutes(this.db, fresh);
    this.windowMutes.remember(fresh);
  }
}

/**
 * A round's save in one transaction: a few statements whatever its size (one UPDATE from arrays, one INSERT of the
 * history). Answers the updates saved (throttled deliveries held back).
 */
async function saveRound(
  tx: Queryable,
  updates: EvaluationUpdate[],
  lease: EvaluationLease | undefined,
  pendingBound: PendingDeliveryBound,
): Promise<EvaluationUpdate[]> {
  // An evaluator's save notifies no listing cache (migration 11): the saving replica's cache applies it itself.
  await tx.query(`SELECT set_config('alertform.writer', 'evaluator', true)`);
  if (lease?.tokens) {
    // Fenced: a partition that moved to another replica (its token changed) is evaluated there from the state
    // it reads, so writing (and notifying) it here would repeat it. The round is saved whole or not at all.
    const held = await fencePartitions(tx, lease);
    const lost = new Set(updates.map((update) => alertPartition(update.alertId, lease.partitionCount)).filter((p) => !held.has(p)));
    if (lost.size > 0) throw new LeaseLost([...lost].sort((a, b) => a - b));
  }
  // A throttled channel's notifications beyond its window's share are held, and their history says so.
  // Past an account's bound on pending deliveries, its new ones are refused, and their history says so.
  // A child's pages are held while a parent alerts (decided here, from the committed states, so replicas and
  // partitions agree); a grouping channel's wait for their group's message.
  const grouped = await groupRoundDeliveries(tx, await holdRoundDependents(tx, updates), pendingBound);
  const saved = await boundRoundDeliveries(tx, await throttleEvaluations(tx, grouped), pendingBound);
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
  return saved;
}

const NO_SCHEDULES: ScheduleTiming[] = [];

/** Inside saveRound: the round with the pages of children of alerting parents held (dependency-hold.ts). */
async function holdRoundDependents(tx: Queryable, updates: EvaluationUpdate[]): Promise<EvaluationUpdate[]> {
  const notifying = mayHold(updates);
  if (notifying.length === 0) return updates;
  const children = await tx.query<DependsOnRow>('SELECT id, depends_on FROM alerts WHERE id = ANY($1) AND depends_on IS NOT NULL', [notifying]);
  if (children.length === 0) return updates;
  const edges = new Map(children.map((row) => [row.id, JSON.parse(row.depends_on) as DependsOnItem[]]));
  const parentIds = [...new Set([...edges.values()].flatMap((deps) => deps.map((dep) => dep.alert)))];
  const parents = await tx.query<{ id: string; name: string; status: string; triggered: string }>(
    'SELECT id, name, status, currently_triggered_metrics AS triggered FROM alerts WHERE id = ANY($1)',
    [parentIds],
  );
  const states = parentStates(parents.map((row) => ({ ...row, triggered: JSON.parse(row.triggered) as string[] })), updates);
  return holdDependents(updates, edges, states);
}

/** One page's evaluator records. Plain loops: this runs for every alert of the replica's share every cycle. */
function buildAlerts(
  rows: unknown[][],
  channels: Map<string, string[]>,
  scheduleLinks: Map<string, string[]>,
  timings: Map<string, ScheduleTiming>,
  windows: AccountWindows,
  now: number,
  fill: ListingFill | null,
  deferred?: ReadonlySet<string>,
): EvaluationAlert[] {
  const alerts: EvaluationAlert[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    const id = alertIdOf(row);
    if (deferred?.has(id)) continue;
    const scheduleIds = scheduleLinks.get(id);
    let schedules: ScheduleTiming[] = NO_SCHEDULES;
    if (scheduleIds) {
      schedules = [];
      for (const scheduleId of scheduleIds) {
        const timing = timings.get(scheduleId);
        if (timing) schedules.push(timing);
      }
    }
    const channelIds = channels.get(id) ?? [];
    const clock = clockInputsFromValues(row, schedules, windowsMatchingValues(windows, row, channelIds));
    const alert = evaluationAlertFromValues(row, channelIds, clock, now);
    alerts.push(alert);
    fill?.keep(alert, clock);
  }
  return alerts;
}

/** Link rows (alert id, linked id), ordered by alert and position, as each alert's ids in order. */
function groupLinks(rows: unknown[][]): Map<string, string[]> {
  const byAlert = new Map<string, string[]>();
  for (const [alertId, ref] of rows as [string, string][]) {
    const ids = byAlert.get(alertId);
    if (ids) ids.push(ref);
    else byAlert.set(alertId, [ref]);
  }
  return byAlert;
}

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
