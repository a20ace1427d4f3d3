import type { AlertRecord } from '../store/store.js';
import type { NotifiedAlert } from './types.js';

/**
 * The alert as a notification carries it: the expression defaulted to `a`, no missing additional criteria, and the
 * PagerDuty severity and OpsGenie priority only when set (a payload without them reads as the notifiers' defaults).
 */
export function notifiedAlert(alert: NotifiedAlert): NotifiedAlert {
  return {
    id: alert.id,
    name: alert.name,
    metric: alert.metric,
    alert_criteria: alert.alert_criteria,
    additional_criteria: alert.additional_criteria ?? {},
    expression: alert.expression || 'a',
    info: alert.info,
    notification_type: alert.notification_type,
    ...(alert.pagerduty_severity ? { pagerduty_severity: alert.pagerduty_severity } : {}),
    ...(alert.opsgenie_priority ? { opsgenie_priority: alert.opsgenie_priority } : {}),
  };
}

/** The same, from an alert as the store keeps it. */
export function notifiedAlertOfRecord(alert: AlertRecord): NotifiedAlert {
  return notifiedAlert({
    id: alert.id,
    name: alert.name,
    metric: alert.metric,
    alert_criteria: alert.alertCriteria,
    additional_criteria: alert.additionalCriteria,
    expression: alert.expression,
    info: alert.info,
    notification_type: alert.notificationType,
    pagerduty_severity: alert.pagerdutySeverity ?? null,
    opsgenie_priority: alert.opsgeniePriority ?? null,
  });
}
