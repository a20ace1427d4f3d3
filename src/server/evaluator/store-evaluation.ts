import { isMutedAt } from '../../model/mute-state.js';
import { isAcknowledgedAt } from '../store/ack-store.js';
import { LeaseLost, type EvaluationLease, type Store } from '../store/store.js';
import type { EvaluableAlert, EvaluationStore } from './evaluation-store.js';

/** Who evaluates and for how long a lease holds. */
export interface LeaseOptions {
  /** This process's name in the lease table; unique per running replica. */
  replica: string;
  /** How long a lease lasts without renewal; renewed at the start of every round and at every heartbeat. */
  ttlMs: number;
}

/** The evaluator's store over the server's Store, and, with leases, this replica's heartbeat between rounds. */
export interface StoreEvaluation extends EvaluationStore {
  /**
   * Renews the leases held and takes free partitions up to the fair share (renewEvaluationLeases). Answers whether
   * it took partitions this replica did not hold: their alerts wait for a round, so the caller should run one.
   */
  heartbeat(): Promise<boolean>;
  /** Whether leases mean anything here: false on a single-node store (or without leases), which needs no heartbeat. */
  shared(): boolean;
}

/**
 * The one layer between the evaluator and the server's Store (it replaces two: a lease wrapper that patched the
 * store's methods through Object.create, and a field adapter). Each round:
 * - listAlertsForEvaluation renews and takes the replica's leases (acquireEvaluationLeases), lists only the alerts of
 *   the partitions held, and gives each in the evaluator's shape with `muted` decided at the cycle's time;
 * - saveEvaluations writes the round's states, history and outbox deliveries in one transaction, fenced by the
 *   lease the round was listed under, so a round that lost a partition midway writes (and notifies) nothing for it.
 * Without `leases` (tests, tools) every alert is listed and saves are not fenced. On SQLite the lease is on everything.
 */
export function storeEvaluation(store: Store, leases?: LeaseOptions): StoreEvaluation {
  // The lease of the round in flight: its save is fenced by the tokens its list was read under, never by a newer
  // lease a heartbeat took meanwhile (a partition lost and taken back would carry a state read before).
  let roundLease: EvaluationLease | undefined;
  let held = new Set<number>();
  let single = leases === undefined;
  const remember = (lease: EvaluationLease): Set<number> => {
    const before = held;
    single = lease.tokens === null;
    held = new Set(lease.tokens?.keys() ?? []);
    return before;
  };
  return {
    async listAlertsForEvaluation(now) {
      const askedAt = performance.now();
      if (leases) {
        roundLease = await store.acquireEvaluationLeases(leases.replica, leases.ttlMs);
        remember(roundLease);
      }
      const alerts = await store.listAlertsForEvaluation(roundLease);
      // The database granted the lease until ttl after it received the request, which was no earlier than askedAt:
      // past askedAt + ttl on this process's monotonic clock (immune to wall-clock jumps), the partitions may be
      // another replica's already. An answer that slow (a stalled or partitioned link) is not evaluated at all.
      if (leases && roundLease?.tokens && performance.now() - askedAt >= leases.ttlMs) {
        throw new LeaseLost([...roundLease.tokens.keys()]);
      }
      return alerts.map(
        (alert): EvaluableAlert => ({
          id: alert.id,
          name: alert.name,
          metric: alert.metric,
          alert_criteria: alert.alertCriteria,
          additional_criteria: alert.additionalCriteria ?? {},
          expression: alert.expression,
          notification_channels: alert.channels.map((channel) => channel.id),
          notification_type: alert.notificationType,
          on_query_failure: alert.onQueryFailure,
          flap_guard: alert.flapGuard ?? null,
          info: alert.info,
          pagerduty_severity: alert.pagerdutySeverity ?? null,
          opsgenie_priority: alert.opsgeniePriority ?? null,
          status: alert.status,
          currently_triggered_metrics: alert.currentlyTriggeredMetrics,
          muted: isMutedAt(alert, alert.schedules, now.getTime()),
          escalation: alert.escalation,
          // An acknowledgement whose `until` has not passed at the cycle's time.
          acknowledged: isAcknowledgedAt(alert.acknowledgement, Math.floor(now.getTime() / 1000)),
          acknowledged_at: alert.acknowledgement?.at ?? null,
          eval_state: alert.evalState,
        }),
      );
    },
    async saveEvaluations(updates) {
      // Retries and the maximum age run on the wall clock, whatever clock the evaluation itself was given.
      const createdAt = Date.now();
      await store.saveEvaluations(
        updates.map((update) => ({
          alertId: update.alertId,
          result: { status: update.status, currentlyTriggeredMetrics: update.currently_triggered_metrics, evalState: update.eval_state },
          history: update.history,
          ...(update.endAcknowledgementAt !== undefined ? { endAcknowledgementAt: update.endAcknowledgementAt } : {}),
          deliveries: update.deliveries.map(({ channelId, notification }) => ({
            channelId,
            event: notification.event,
            payload: notification,
            createdAt,
          })),
        })),
        roundLease,
      );
    },
    async heartbeat() {
      if (!leases) return false;
      const lease = await store.renewEvaluationLeases(leases.replica, leases.ttlMs);
      const before = remember(lease);
      return [...held].some((partition) => !before.has(partition));
    },
    shared: () => !single,
  };
}
