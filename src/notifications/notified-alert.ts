import type { AdditionalCriterion, AlertCriteria, NotificationType, OpsgeniePriority, PagerdutySeverity } from '../model/types.js';
import type { NotifiedAlert } from './types.js';

/**
 * The alert fields a notification shows, in the server's camelCase records (the evaluator's EvaluationAlert, the
 * store's AlertRecord), written out here so this layer needs nothing of the server.
 */
export interface NotifiableAlert {
  id: string;
  name: string;
  metric: string;
  alertCriteria: AlertCriteria;
  additionalCriteria: Record<string, AdditionalCriterion>;
  expression: string;
  info: string | null;
  notificationType: NotificationType;
  pagerdutySeverity?: PagerdutySeverity | null;
  opsgeniePriority?: OpsgeniePriority | null;
}

/**
 * The alert as a notification carries it, in the API's (snake_case) shape that webhooks and templates see: the one
 * place that maps, for the evaluator and the acknowledgement. The expression defaulted to `a`, no missing
 * additional criteria, and the PagerDuty severity and OpsGenie priority only when set (a payload without them reads
 * as the notifiers' defaults).
 */
export function notifiedAlert(alert: NotifiableAlert): NotifiedAlert {
  return {
    id: alert.id,
    name: alert.name,
    metric: alert.metric,
    alert_criteria: alert.alertCriteria,
    additional_criteria: alert.additionalCriteria ?? {},
    expression: alert.expression || 'a',
    info: alert.info,
    notification_type: alert.notificationType,
    ...(alert.pagerdutySeverity ? { pagerduty_severity: alert.pagerdutySeverity } : {}),
    ...(alert.opsgeniePriority ? { opsgenie_priority: alert.opsgeniePriority } : {}),
  };
}
