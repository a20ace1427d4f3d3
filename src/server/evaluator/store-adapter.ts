import { isScheduleActive } from '../../model/schedule-active.js';
import type { EvaluationAlert, Store } from '../store/store.js';
import type { EvaluableAlert, EvaluationStore } from './evaluation-store.js';

/** Whether an alert is muted at `now`: an explicit mute not yet expired, or any active scheduled mute. */
export function isAlertMuted(alert: Pick<EvaluationAlert, 'mutedUntil' | 'schedules'>, now: Date): boolean {
  if (alert.mutedUntil !== null && alert.mutedUntil > now.getTime()) return true;
  return alert.schedules.some((schedule) => isScheduleActive(schedule, now));
}

/**
 * The evaluator's view of the server's Store: alerts with `muted` decided at the cycle's time, and the round's
 * writes (states, history, outbox deliveries) in one transaction.
 */
export function adaptStore(store: Store): EvaluationStore {
  return {
    async listAlertsForEvaluation(now) {
      const alerts = await store.listAlertsForEvaluation();
      return alerts.map((alert): EvaluableAlert => {
        return {
          id: alert.id,
          name: alert.name,
          metric: alert.metric,
          alert_criteria: alert.alertCriteria,
          additional_criteria: alert.additionalCriteria ?? {},
          expression: alert.expression,
          notification_channels: alert.channels.map((channel) => channel.id),
          notification_type: alert.notificationType,
          on_query_failure: alert.onQueryFailure,
          info: alert.info,
          status: alert.status,
          currently_triggered_metrics: alert.currentlyTriggeredMetrics,
          muted: isAlertMuted(alert, now),
          eval_state: alert.evalState,
        };
      });
    },
    async saveEvaluations(updates) {
      // Retries and the maximum age run on the wall clock, whatever clock the evaluation itself was given.
      const createdAt = Date.now();
      await store.saveEvaluations(
        updates.map((update) => ({
          alertId: update.alertId,
          result: { status: update.status, currentlyTriggeredMetrics: update.currently_triggered_metrics, evalState: update.eval_state },
          history: update.history,
          deliveries: update.deliveries.map(({ channelId, notification }) => ({
            channelId,
            event: notification.event,
            payload: notification,
            createdAt,
          })),
        })),
      );
    },
  };
}
