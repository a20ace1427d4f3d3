import {
  canonicalAdditionalCriteria,
  canonicalDependsOn,
  canonicalCriteria,
  canonicalNotificationType,
  canonicalOnQueryFailure,
  usesGraphiteFunction,
  type CanonicalAlert,
  type CanonicalEscalationStep,
} from '../../model/canonical.js';
import { stepMinutes } from '../../definitions/escalation.js';
import { DEFAULT_CHANNEL, DEFAULT_EXPRESSION } from '../../model/defaults.js';
import { canonicalExpression } from '../../model/expression.js';
import type { AlertBody } from '../../model/types.js';
import { flapGuardFromDefinition, type FlapGuard } from '../../model/noise-control.js';
import type { IdRegistry } from '../references.js';
import { pick, type AdapterOf } from './adapter.js';

/** The values sorted, each once (sorting first puts equal ones side by side). */
function sortedUnique(values: string[]): string[] {
  // One or two values (most alerts' channels) need no sort of a copy.
  if (values.length < 2) return values.slice();
  if (values.length === 2) {
    const [a, b] = values as [string, string];
    return a < b ? [a, b] : b < a ? [b, a] : [a];
  }
  const sorted = [...values].sort();
  return sorted.filter((value, i) => i === 0 || value !== sorted[i - 1]);
}

/** Alerts (/v2/alerts/), identified by name. */
export const alertAdapter: AdapterOf<'alert'> = {
  kind: 'alert',
  keyOf: (read) => read.name,
  idOf: (read) => read.id,
  canonicalDesired(spec, refs) {
    const alert: CanonicalFields = {
      name: spec.name,
      metric: spec.metric,
      alert_criteria: canonicalCriteria(spec.alert_criteria),
      additional_criteria: canonicalAdditionalCriteria(spec.additional_criteria),
      expression: canonicalExpression(spec.expression ?? DEFAULT_EXPRESSION),
      notification_channels: spec.notification_channels?.length
        ? sortedUnique(spec.notification_channels.map((ref, i) => refs.channel(ref, `notification_channels.${i}`)))
        : [DEFAULT_CHANNEL],
      notification_type: canonicalNotificationType(spec.notification_type),
      scheduled_mutes: sortedUnique((spec.scheduled_mutes ?? []).map((ref, i) => refs.schedule(ref, `scheduled_mutes.${i}`))),
      info: spec.info ?? '',
      on_query_failure: canonicalOnQueryFailure(spec.on_query_failure, spec.metric, spec.additional_criteria),
    };
    return withExtensions(
      alert,
      // A policy name is replaced by its steps when the definitions load; one left (unknown) is a problem already.
      (Array.isArray(spec.escalation) ? spec.escalation : []).map((step, i) => ({
        after_minutes: stepMinutes(step.after) ?? 0,
        notification_channels: sortedUnique(step.notify.map((ref, j) => refs.channel(ref, `escalation.${i}.notify.${j}`))),
      })),
      flapGuardFromDefinition(spec.flap_guard),
      spec.pagerduty_severity ?? null,
      spec.opsgenie_priority ?? null,
      spec.settle_seconds ?? null,
      spec.on_no_data ?? null,
      canonicalDependsOn(spec.depends_on, (ref, i) => refs.alert(ref, typeof spec.depends_on?.[i] === 'string' ? `depends_on.${i}` : `depends_on.${i}.alert`)),
    );
  },
  canonicalActual(read, refs) {
    const alert: CanonicalFields = {
      name: read.name,
      metric: read.metric ?? '',
      alert_criteria: canonicalCriteria(read.alert_criteria),
      additional_criteria: canonicalAdditionalCriteria(read.additional_criteria),
      expression: read.expression ? canonicalExpression(read.expression) : DEFAULT_EXPRESSION,
      notification_channels: sortedUnique((read.notification_channels ?? []).map((id) => refs.channel(id))),
      notification_type: canonicalNotificationType(read.notification_type),
      scheduled_mutes: sortedUnique((read.scheduled_mutes ?? []).map((id) => refs.schedule(id))),
      info: read.info ?? '',
      on_query_failure: read.on_query_failure ?? null,
    };
    return withExtensions(
      alert,
      (read.escalation ?? []).map((step) => ({
        after_minutes: step.after_minutes,
        notification_channels: sortedUnique(step.notification_channels.map((id) => refs.channel(id))),
      })),
      read.flap_guard,
      read.pagerduty_severity ?? null,
      read.opsgenie_priority ?? null,
      read.settle_seconds ?? null,
      read.on_no_data ?? null,
      canonicalDependsOn(read.depends_on, (id) => refs.alert(id)),
    );
  },
  unknownFields(read) {
    const unknown: string[] = [];
    if (read.metric === undefined) unknown.push('metric');
    if (read.additional_criteria === undefined) unknown.push('additional_criteria');
    if (read.expression === undefined) unknown.push('expression');
    if (read.on_query_failure === undefined) unknown.push('on_query_failure');
    // The hosted service has no escalation (an alertform extension): what it does not answer is not compared.
    if (read.escalation === undefined) unknown.push('escalation');
    // An alertform extension the hosted service does not return: not compared there.
    if (read.flap_guard === undefined) unknown.push('flap_guard');
    // alertform extensions: the hosted service does not return them.
    if (read.pagerduty_severity === undefined) unknown.push('pagerduty_severity');
    if (read.opsgenie_priority === undefined) unknown.push('opsgenie_priority');
    if (read.settle_seconds === undefined) unknown.push('settle_seconds');
    if (read.on_no_data === undefined) unknown.push('on_no_data');
    if (read.depends_on === undefined) unknown.push('depends_on');
    return unknown;
  },
  references: (c) => [
    { kind: 'channel', path: 'notification_channels', names: c.notification_channels },
    { kind: 'schedule', path: 'scheduled_mutes', names: c.scheduled_mutes },
    // The channels of escalation steps are created before the alert, and may not be deleted while it names them.
    ...(c.escalation ? [{ kind: 'channel' as const, path: 'escalation', names: [...new Set(c.escalation.flatMap((step) => step.notification_channels))] }] : []),
    // Parents are created before their children, and may not be deleted while a child names them.
    ...(c.depends_on ? [{ kind: 'alert' as const, path: 'depends_on', names: c.depends_on.map((dependency) => dependency.alert) }] : []),
  ],
  secretPaths: () => [],
  createBody: (c, ids) => alertBody(c, ids, false),
  updateBody: (c, ids, fields) => pick(alertBody(c, ids, true), fields),
  create: (client, body) => client.createAlert(body),
  update: (client, id, body) => client.updateAlert(id, body),
  remove: (client, id) => client.deleteAlert(id),
};

/**
 * An alert's API body. A create leaves defaults out (the hosted service documents them as defaults); an update
 * sends every field it names, defaults included.
 */
function alertBody(c: CanonicalAlert, ids: IdRegistry, full: boolean): AlertBody {
  const body: AlertBody = {
    name: c.name,
    metric: c.metric,
    alert_criteria: c.alert_criteria,
    notification_channels: c.notification_channels.map((name) => ids.get('channel', name) ?? name),
    notification_type: c.notification_type,
    info: c.info,
  };
  if (full || Object.keys(c.additional_criteria).length > 0) body.additional_criteria = c.additional_criteria;
  if (full || c.expression !== DEFAULT_EXPRESSION) body.expression = c.expression;
  if (full || c.scheduled_mutes.length > 0) body.scheduled_mutes = c.scheduled_mutes.map((name) => ids.get('schedule', name) ?? name);
  if (full || c.on_query_failure !== null || usesGraphiteFunction(c.metric, c.additional_criteria)) body.on_query_failure = c.on_query_failure;
  // An extension: a create without steps is exactly the hosted API's body; an update sends [] to clear them.
  if (full || c.escalation) {
    body.escalation = (c.escalation ?? []).map((step) => ({
      after_minutes: step.after_minutes,
      notification_channels: step.notification_channels.map((name) => ids.get('channel', name) ?? name),
    }));
  }
  // An extension: a create body without one is exactly the hosted API's; an update clears it with null.
  if (full || c.flap_guard) body.flap_guard = c.flap_guard ?? null;
  // Extensions: left out of a create when unset, so the body is exactly the Hosted Graphite one.
  if (full || c.pagerduty_severity !== null) body.pagerduty_severity = c.pagerduty_severity;
  if (full || c.opsgenie_priority !== null) body.opsgenie_priority = c.opsgenie_priority;
  if (full || c.settle_seconds !== undefined) body.settle_seconds = c.settle_seconds ?? null;
  if (full || c.on_no_data !== null) body.on_no_data = c.on_no_data;
  // An extension: left out of a create without parents; an update clears them with [].
  if (full || c.depends_on) body.depends_on = (c.depends_on ?? []).map((dependency) => ({ ...dependency, alert: ids.get('alert', dependency.alert) ?? dependency.alert }));
  return body;
}

/** The fields of a canonical alert before its extensions. */
type CanonicalFields = Omit<CanonicalAlert, 'escalation' | 'flap_guard' | 'pagerduty_severity' | 'opsgenie_priority' | 'settle_seconds' | 'on_no_data' | 'depends_on'>;

/**
 * The alert with its extensions added in place, in the order plans print them: escalation only when there are steps
 * (an alert without escalation has no such field to compare), flap_guard only when set (absent and null mean the
 * same: no guard), then the severity, the priority, settle_seconds only when set (null is the server's delay), the no-data policy, and depends_on only when there are parents. Assigned rather than spread: this runs for every alert of a plan.
 */
function withExtensions(
  alert: CanonicalFields,
  steps: CanonicalEscalationStep[],
  guard: FlapGuard | null | undefined,
  pagerdutySeverity: CanonicalAlert['pagerduty_severity'],
  opsgeniePriority: CanonicalAlert['opsgenie_priority'],
  settleSeconds: number | null,
  onNoData: CanonicalAlert['on_no_data'],
  dependsOn: CanonicalAlert['depends_on'],
): CanonicalAlert {
  const full = alert as CanonicalAlert;
  if (steps.length > 0) full.escalation = steps;
  if (guard) full.flap_guard = { max_changes: guard.max_changes, window_minutes: guard.window_minutes };
  full.pagerduty_severity = pagerdutySeverity;
  full.opsgenie_priority = opsgeniePriority;
  if (settleSeconds !== null) full.settle_seconds = settleSeconds;
  full.on_no_data = onNoData;
  if (dependsOn) full.depends_on = dependsOn;
  return full;
}
