import { isScheduleActive } from '../../model/schedule-active.js';
import type { EvaluationAlert, Store } from '../store/store.js';
import type { DeliveryChannel } from '../notifiers/types.js';
import type { EvaluableAlert, EvaluationStore } from './evaluation-store.js';

/** Whether an alert is muted at `now`: an explicit mute not yet expired, or any active scheduled mute. */
export function isAlertMuted(alert: Pick<EvaluationAlert, 'mutedUntil' | 'schedules'>, now: Date): boolean {
  if (alert.mutedUntil !== null && alert.mutedUntil > now.getTime()) return true;
  return alert.schedules.some((schedule) => isScheduleActive(schedule, now));
}

/**
 * The evaluator's view of the server's Store: alerts with `muted` decided at the cycle's time, the round's
 * writes in one transaction, and the channels the listed alerts resolved to (remembered from the last listing,
 * so a cycle reads the database once).
 */
export function adaptStore(store: Store): EvaluationStore {
  let channels = new Map<string, DeliveryChannel>();
  return {
    async listAlertsForEvaluation(now) {
      const alerts = await store.listAlertsForEvaluation();
      const seen = new Map<string, DeliveryChannel>();
      const list = alerts.map((alert): EvaluableAlert => {
        for (const channel of alert.channels) {
          seen.set(channel.id, {
            id: channel.id,
            type: channel.type,
            description: channel.description,
            destination: channel.destination,
            auto_resolve: channel.autoResolve,
          });
        }
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
      channels = seen;
      return list;
    },
    async saveEvaluations(updates) {
      await store.saveEvaluations(
        updates.map((update) => ({
          alertId: update.alertId,
          result: { status: update.status, currentlyTriggeredMetrics: update.currently_triggered_metrics, evalState: update.eval_state },
          history: update.history,
        })),
      );
    },
    getChannelsForDelivery(ids) {
      return ids.flatMap((id) => (channels.has(id) ? [channels.get(id)!] : []));
    },
    setChannelLastError(channelId, error) {
      return store.setChannelLastError(channelId, error);
    },
  };
}
