import type { EvaluationAlert, EvaluationPaging, EvaluationStore, EvaluationUpdate, NotificationRecord } from '../../src/server/store/evaluation-store.js';
import type { EvaluationLease } from '../../src/server/store/evaluation-store.js';
import type { TransitionHistoryEntry } from '../../src/evaluation/transitions.js';
import type { DeliveryChannel, Notification } from '../../src/notifications/types.js';

/**
 * An EvaluationStore in memory, for unit tests of the cycle and for the bench (which measures the evaluator, not
 * SQLite). Alerts are stored as given (muted and acknowledged as set); saved state is kept as the JSON text a real
 * store holds. One node: the lease is on everything.
 */
export class MemoryEvaluationStore implements EvaluationStore {
  readonly alerts = new Map<string, EvaluationAlert>();
  readonly channels = new Map<string, DeliveryChannel>();
  readonly history = new Map<string, TransitionHistoryEntry[]>();
  readonly notificationHistory = new Map<string, NotificationRecord[]>();
  /** The outbox: every delivery the cycles wrote, in order (nothing sends them here). */
  readonly outbox: { alertId: string; channelId: string; notification: Notification }[] = [];
  saveCalls = 0;

  addAlert(alert: Partial<EvaluationAlert> & Pick<EvaluationAlert, 'id' | 'metric' | 'alertCriteria'>): void {
    this.alerts.set(alert.id, {
      accountId: 'account',
      name: alert.id,
      additionalCriteria: {},
      expression: 'a',
      notificationChannels: [],
      notificationType: ['state_change'],
      onQueryFailure: null,
      flapGuard: null,
      info: null,
      pagerdutySeverity: null,
      opsgeniePriority: null,
      settleSeconds: null,
      onNoData: null,
      status: 'healthy',
      currentlyTriggeredMetrics: [],
      muted: false,
      acknowledged: false,
      acknowledgedAt: null,
      escalation: [],
      evalState: null,
      ...alert,
    });
  }

  async acquireEvaluationLeases(replica: string): Promise<EvaluationLease> {
    return { replica, tokens: null, partitionCount: 1 };
  }

  async renewEvaluationLeases(replica: string): Promise<EvaluationLease> {
    return this.acquireEvaluationLeases(replica);
  }

  async releaseEvaluationLeases(): Promise<void> {}

  async listAlertsForEvaluation(_now?: number, _lease?: EvaluationLease, paging?: EvaluationPaging): Promise<EvaluationAlert[]> {
    const alerts = [...this.alerts.values()].map((alert) => ({ ...alert }));
    if (!paging) return alerts;
    for (let from = 0; from < alerts.length; from += paging.size) await paging.onPage(alerts.slice(from, from + paging.size));
    return [];
  }

  async saveEvaluations(updates: EvaluationUpdate[]): Promise<void> {
    this.saveCalls += 1;
    for (const update of updates) {
      const alert = this.alerts.get(update.alertId);
      if (!alert) continue;
      alert.status = update.status;
      alert.currentlyTriggeredMetrics = update.currentlyTriggeredMetrics;
      alert.evalState = update.evalState;
      // The public kinds in `history`; what was sent or suppressed in `notificationHistory` (the console's).
      const entries = update.history.filter((entry): entry is TransitionHistoryEntry => !entry.status.startsWith('notification_'));
      const notices = update.history.filter((entry): entry is NotificationRecord => entry.status.startsWith('notification_'));
      if (entries.length > 0) this.history.set(update.alertId, [...(this.history.get(update.alertId) ?? []), ...entries]);
      if (notices.length > 0) this.notificationHistory.set(update.alertId, [...(this.notificationHistory.get(update.alertId) ?? []), ...notices]);
      // As a real store does: deliveries to channels that do not exist are dropped.
      for (const { channelId, payload } of update.deliveries) {
        if (this.channels.has(channelId)) this.outbox.push({ alertId: update.alertId, channelId, notification: payload as Notification });
      }
    }
  }
}
