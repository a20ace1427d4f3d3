import type { Database } from 'better-sqlite3';
import type { EvaluationAlert, EvaluationLease, EvaluationPaging, EvaluationStore, EvaluationUpdate, SavedRound } from '../evaluation-store.js';
import {
  EVALUATION_ALERT_COLUMNS,
  SCHEDULE_TIMING_COLUMNS,
  alertIdOf,
  clockInputsFromValues,
  evaluationAlertFromValues,
  scheduleTimings,
  prepareWindowsOfValues,
  windowsMatchingValues,
  type ScheduleTimingRow,
} from '../evaluation-alert.js';
import { AccountWindows, type WindowMute } from '../window-mutes.js';
import { ListingMatching } from '../window-warmup.js';
import { WindowMuteMemo } from '../window-mute-memo.js';
import { listAllWindows, recordWindowMutes } from './window-rows.js';
import type { ScheduleTiming } from '../../../model/schedule-active.js';
import { CLEAR_ACK } from '../ack-store.js';
import { groupLinks, type LinkRow } from './alert-rows.js';
import { appendHistory } from './history-rows.js';
import { boundRoundDeliveries, insertDeliveries } from './outbox-rows.js';
import type { PendingDeliveryBound } from '../pending-bound.js';
import { throttleEvaluations } from './throttle-rows.js';
import { EvaluationListingCache } from '../evaluation-listing-cache.js';
import type { SqliteAccountChanges } from './account-changes.js';
import { heldNotifications, holdDependents, mayHold, parentStates } from '../dependency-hold.js';
import type { DependsOnItem } from '../../../model/types.js';
import type { DependsOnRow } from '../row-mappers.js';
import { groupRoundDeliveries } from './group-rows.js';

/**
 * The evaluator's store on SQLite. One node owns every alert (SQLite is one process's file, so there is nobody to
 * share with): the lease is on everything and saves are not fenced. better-sqlite3 is synchronous, so a listing
 * is one consistent snapshot without a transaction. A paged listing (the evaluator's) keeps its records between
 * cycles and serves them again until something it reads changes (evaluation-listing-cache.ts).
 */
export class SqliteEvaluationRows implements EvaluationStore {
  private readonly cache = new EvaluationListingCache();
  private readonly windowMutes = new WindowMuteMemo();

  /** `changes`: the store's change watcher (its `evaluation` topic), made on first use. */
  constructor(
    private readonly db: Database,
    private readonly changes: () => SqliteAccountChanges,
    private readonly pendingBound: PendingDeliveryBound,
  ) {}

  async acquireEvaluationLeases(replica: string): Promise<EvaluationLease> {
    return { replica, tokens: null, partitionCount: 1 };
  }

  async renewEvaluationLeases(replica: string): Promise<EvaluationLease> {
    return this.acquireEvaluationLeases(replica);
  }

  async releaseEvaluationLeases(): Promise<void> {}

  async listAlertsForEvaluation(now: number, lease?: EvaluationLease, paging?: EvaluationPaging): Promise<EvaluationAlert[]> {
    // The evaluator's (paged) listing: the kept records when they are current, else a fill of what is read now.
    const fill = paging ? await this.cache.serveOrBegin(this.changes(), now, lease, paging) : null;
    if (paging && !fill) return [];
    // Rows as arrays (raw): better-sqlite3 builds them at a third of the cost of objects of twenty-odd keys. All
    // rows are read at once (the snapshot: the connection is the server's too, so no read transaction can stay open
    // across pages); with paging, the records are built a page at a time, yielding between pages so that the
    // requests of one page are out while the next is built.
    const rows = this.db.prepare(`SELECT ${EVALUATION_ALERT_COLUMNS} FROM alerts a ORDER BY a.seq`).raw(true).all() as unknown[][];
    const channels = groupLinks(
      this.db.prepare('SELECT alert_id, channel_id AS ref FROM alert_channels ORDER BY alert_id, position').all() as LinkRow[],
    );
    const scheduleLinks = groupLinks(
      this.db.prepare('SELECT alert_id, schedule_id AS ref FROM alert_schedules ORDER BY alert_id, position').all() as LinkRow[],
    );
    const timings = scheduleTimings(this.db.prepare(`SELECT ${SCHEDULE_TIMING_COLUMNS} FROM schedules`).all() as ScheduleTimingRow[]);
    const windows = new AccountWindows(listAllWindows(this.db), { everything: true });
    const build = (from: number, to: number, deferred?: ReadonlySet<string>): EvaluationAlert[] => {
      const alerts: EvaluationAlert[] = [];
      for (let i = from; i < to; i += 1) {
        const row = rows[i]!;
        const id = alertIdOf(row);
        if (deferred?.has(id)) continue;
        const linked = scheduleLinks.get(id);
        const channelIds = channels.get(id) ?? [];
        const matched = windowsMatchingValues(windows, row, channelIds);
        const clock = clockInputsFromValues(row, linked ? linked.flatMap((ref) => timings.get(ref) ?? []) : NO_SCHEDULES, matched);
        const alert = evaluationAlertFromValues(row, channelIds, clock, now);
        alerts.push(alert);
        fill?.keep(alert, clock);
      }
      return alerts;
    };
    if (!paging) return build(0, rows.length);
    const size = Math.max(1, paging.size);
    const matching = new ListingMatching();
    for (let from = 0; from < rows.length; from += size) {
      if (from > 0) await new Promise((resolve) => setImmediate(resolve));
      const to = Math.min(rows.length, from + size);
      // Windows matched ahead, in slices and within each account's share of the listing: a tenant's first matching
      // at its quotas must neither hold the loop nor the other tenants' alerts.
      await prepareWindowsOfValues(windows, rows.slice(from, to), (id) => channels.get(id) ?? [], matching);
      await paging.onPage(build(from, to, matching.deferred));
      const deferred = matching.takeDeferred();
      if (deferred.length > 0) paging.onDeferred?.(deferred);
    }
    matching.finish(windows);
    // A listing with alerts left out is not kept: the next cycle lists again and finds them matched.
    if (matching.deferred.size === 0) fill?.finish();
    return [];
  }

  async saveEvaluations(updates: EvaluationUpdate[]): Promise<SavedRound> {
    const update = this.db.prepare('UPDATE alerts SET status = ?, currently_triggered_metrics = ?, eval_state = ? WHERE id = ?');
    const save = this.db.transaction(() => {
      // A throttled channel's notifications beyond its window's share are held, and their history says so.
      // A child's pages are held while a parent alerts (decided here, from the stored states); a grouping channel's
      // wait for their group's message; a throttled channel's beyond its window's share are held.
      const grouped = groupRoundDeliveries(this.db, holdRoundDependents(this.db, updates), this.pendingBound);
      const saved = boundRoundDeliveries(this.db, throttleEvaluations(this.db, grouped), this.pendingBound);
      for (const { alertId, status, currentlyTriggeredMetrics, evalState, history, endAcknowledgementAt } of saved) {
        update.run(status, JSON.stringify(currentlyTriggeredMetrics), evalState, alertId);
        endAcknowledgement(this.db, alertId, status, endAcknowledgementAt);
        if (history.length > 0) appendHistory(this.db, history.map((entry) => ({ ...entry, alertId })));
      }
      for (const { alertId, deliveries } of saved) if (deliveries.length > 0) insertDeliveries(this.db, alertId, deliveries);
      return saved;
    });
    let saved: EvaluationUpdate[];
    try {
      // The evaluator's own writes do not count as changes of its inputs: the listing cache applies them itself.
      saved = this.changes().whileEvaluatorSaves(save);
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
    recordWindowMutes(this.db, fresh);
    this.windowMutes.remember(fresh);
  }
}

const NO_SCHEDULES: readonly ScheduleTiming[] = [];

/** Inside saveEvaluations: the round with the pages of children of alerting parents held (dependency-hold.ts). */
function holdRoundDependents(db: Database, updates: EvaluationUpdate[]): EvaluationUpdate[] {
  const notifying = mayHold(updates);
  if (notifying.length === 0) return updates;
  const children = db
    .prepare('SELECT id, depends_on FROM alerts WHERE id IN (SELECT value FROM json_each(?)) AND depends_on IS NOT NULL')
    .all(JSON.stringify(notifying)) as DependsOnRow[];
  if (children.length === 0) return updates;
  const edges = new Map(children.map((row) => [row.id, JSON.parse(row.depends_on) as DependsOnItem[]]));
  const parentIds = [...new Set([...edges.values()].flatMap((deps) => deps.map((dep) => dep.alert)))];
  const parents = db
    .prepare('SELECT id, name, status, currently_triggered_metrics AS triggered FROM alerts WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(parentIds)) as { id: string; name: string; status: string; triggered: string }[];
  const states = parentStates(parents.map((row) => ({ ...row, triggered: JSON.parse(row.triggered) as string[] })), updates);
  return holdDependents(updates, edges, states);
}

/**
 * Inside saveEvaluations: a recovery ends the alert's acknowledgement (the next episode pages again); an expired one
 * is removed when it is still the one the round read (made at `endAt`), never a newer one.
 */
function endAcknowledgement(db: Database, alertId: string, status: string, endAt: number | undefined): void {
  if (status === 'healthy') db.prepare(`UPDATE alerts SET ${CLEAR_ACK} WHERE id = ? AND ack_at IS NOT NULL`).run(alertId);
  else if (endAt !== undefined) db.prepare(`UPDATE alerts SET ${CLEAR_ACK} WHERE id = ? AND ack_at = ?`).run(alertId, endAt);
}
