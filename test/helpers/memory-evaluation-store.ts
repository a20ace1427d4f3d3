import type { EvaluableAlert, EvaluationStore, EvaluationUpdate, NotificationRecord } from '../../src/server/evaluator/evaluation-store.js';
import type { TransitionHistoryEntry } from '../../src/evaluation/transitions.js';
import type { DeliveryChannel, Notification } from '../../src/server/notifiers/types.js';

/**
 * An EvaluationStore in memory, for unit tests of the cycle and for the bench (which measures the evaluator, not
 * SQLite). Alerts are stored as given; saved state is kept as the JSON text a real store would hold.
 */
export class MemoryEvaluationStore implements EvaluationStore {
  readonly alerts = new Map<string, EvaluableAlert>();
  readonly channels = new Map<string, DeliveryChannel>();
  readonly history = new Map<string, TransitionHistoryEntry[]>();
  readonly notificationHistory = new Map<string, NotificationRecord[]>();
  /** The outbox: every delivery the cycles wrote, in order (nothing sends them here). */
  readonly outbox: { alertId: string; channelId: string; notification: Notification }[] = [];
  saveCalls = 0;

  addAlert(alert: Partial<EvaluableAlert> & Pick<EvaluableAlert, 'id' | 'metric' | 'alert_criteria'>): void {
    this.alerts.set(alert.id, {
      name: alert.id,
      additional_criteria: {},
      expression: 'a',
      notification_channels: [],
      notification_type: ['state_change'],
      on_query_failure: null,
      info: null,
      status: 'healthy',
      currently_triggered_metrics: [],
      muted: false,
      acknowledged: false,
      eval_state: null,
      ...alert,
    });
  }

  listAlertsForEvaluation(): EvaluableAlert[] {
    return [...this.alerts.values()].map((alert) => ({ ...alert }));
  }

  saveEvaluations(updates: EvaluationUpdate[]): void {
    this.saveCalls += 1;
    for (const update of updates) {
      const alert = this.alerts.get(update.alertId);
      if (!alert) continue;
      alert.status = update.status;
      alert.currently_triggered_metrics = update.currently_triggered_metrics;
      alert.eval_state = JSON.stringify(update.eval_state);
      // The public kinds in `history`; what was sent or suppressed in `notificationHistory` (the console's).
      const entries = update.history.filter((entry): entry is TransitionHistoryEntry => !entry.status.startsWith('notification_'));
      const notices = update.history.filter((entry): entry is NotificationRecord => entry.status.startsWith('notification_'));
      if (entries.length > 0) this.history.set(update.alertId, [...(this.history.get(update.alertId) ?? []), ...entries]);
      if (notices.length > 0) this.notificationHistory.set(update.alertId, [...(this.notificationHistory.get(update.alertId) ?? []), ...notices]);
      // As a real store does: deliveries to channels that do not exist are dropped.
      for (const delivery of update.deliveries) {
        if (this.channels.has(delivery.channelId)) this.outbox.push({ alertId: update.alertId, ...delivery });
      }
    }
  }
}
