import type { AlertBody, AlertCriteria, AlertRead, NotificationType, NotificationTypeInput } from '../../model/types.js';
import type { AlertDefinition } from '../../definitions/definitions.js';
import { canonicalExpression } from '../../model/expression.js';
import { usesGraphiteFunction } from '../../definitions/rules.js';
import type { CanonicalAlert, CanonicalCriteria } from '../types.js';
import { pick, type ResourceAdapter } from './adapter.js';

/** The channel every new alert gets when it names none. */
export const DEFAULT_CHANNEL = 'Email me';
export const DEFAULT_NOTIFICATION_TYPE: NotificationType = ['every', 60];

/** Criteria with only the values that are set; an empty, null or zero time_period means instantaneous. */
export function canonicalCriteria(c: AlertCriteria): CanonicalCriteria {
  const out: CanonicalCriteria = { type: c.type };
  if (typeof c.above_value === 'number') out.above_value = c.above_value;
  if (typeof c.below_value === 'number') out.below_value = c.below_value;
  if (typeof c.time_period === 'number' && c.time_period > 0) out.time_period = c.time_period;
  return out;
}

/** `state_change`, `['state_change']`, `['every', N]`, or empty (= every 60) in list form. */
export function canonicalNotificationType(value: NotificationTypeInput | undefined): NotificationType {
  if (value === 'state_change') return ['state_change'];
  if (!Array.isArray(value) || value.length === 0) return [...DEFAULT_NOTIFICATION_TYPE] as NotificationType;
  if (value[0] === 'state_change') return ['state_change'];
  return ['every', Number(value[1])];
}

function canonicalAdditional(value: AlertRead['additional_criteria']): CanonicalAlert['additional_criteria'] {
  const out: CanonicalAlert['additional_criteria'] = {};
  for (const key of Object.keys(value ?? {}).sort()) {
    const c = value![key]!;
    out[key.toLowerCase()] = { ...canonicalCriteria(c), metric: c.metric };
  }
  return out;
}

function sortedUnique(values: string[]): string[] {
  return [...new Set(values)].sort();
}

/** Alerts (/v2/alerts/), identified by name. */
export const alertAdapter: ResourceAdapter<AlertDefinition, AlertRead, CanonicalAlert, AlertBody> = {
  kind: 'alert',
  keyOf: (read) => read.name,
  idOf: (read) => read.id,
  canonicalDesired(spec, refs) {
    return {
      name: spec.name,
      metric: spec.metric,
      alert_criteria: canonicalCriteria(spec.alert_criteria),
      additional_criteria: canonicalAdditional(spec.additional_criteria),
      expression: canonicalExpression(spec.expression ?? 'a'),
      notification_channels: spec.notification_channels?.length
        ? sortedUnique(spec.notification_channels.map((ref, i) => refs.channel(ref, `notification_channels.${i}`)))
        : [DEFAULT_CHANNEL],
      notification_type: canonicalNotificationType(spec.notification_type),
      scheduled_mutes: sortedUnique((spec.scheduled_mutes ?? []).map((ref, i) => refs.schedule(ref, `scheduled_mutes.${i}`))),
      info: spec.info ?? '',
      // The server's rule: notify by default for function queries, nothing otherwise.
      on_query_failure: spec.on_query_failure !== undefined ? spec.on_query_failure : usesGraphiteFunction(spec) ? 'notify' : null,
    };
  },
  canonicalActual(read, refs) {
    return {
      name: read.name,
      metric: read.metric ?? '',
      alert_criteria: canonicalCriteria(read.alert_criteria),
      additional_criteria: canonicalAdditional(read.additional_criteria),
      expression: read.expression ? canonicalExpression(read.expression) : 'a',
      notification_channels: sortedUnique((read.notification_channels ?? []).map((id) => refs.channel(id))),
      notification_type: canonicalNotificationType(read.notification_type),
      scheduled_mutes: sortedUnique((read.scheduled_mutes ?? []).map((id) => refs.schedule(id))),
      info: read.info ?? '',
      on_query_failure: read.on_query_failure ?? null,
    };
  },
  unknownFields(read) {
    const unknown: string[] = [];
    if (read.metric === undefined) unknown.push('metric');
    if (read.additional_criteria === undefined) unknown.push('additional_criteria');
    if (read.expression === undefined) unknown.push('expression');
    if (read.on_query_failure === undefined) unknown.push('on_query_failure');
    return unknown;
  },
  references: (c) => ({ channel: c.notification_channels, schedule: c.scheduled_mutes }),
  secretPaths: () => [],
  toBody(c, ids, fields) {
    const body: AlertBody = {
      name: c.name,
      metric: c.metric,
      alert_criteria: c.alert_criteria,
      notification_channels: c.notification_channels.map((name) => ids.get('channel', name) ?? name),
      notification_type: c.notification_type,
      info: c.info,
    };
    // A create leaves defaults out (the hosted service documents them as defaults); an update sends what changed.
    if (fields || Object.keys(c.additional_criteria).length > 0) body.additional_criteria = c.additional_criteria;
    if (fields || c.expression !== 'a') body.expression = c.expression;
    if (fields || c.scheduled_mutes.length > 0) body.scheduled_mutes = c.scheduled_mutes.map((name) => ids.get('schedule', name) ?? name);
    if (fields || c.on_query_failure !== null || usesGraphiteFunction(c)) body.on_query_failure = c.on_query_failure;
    return pick(body, fields);
  },
  create: (client, body) => client.createAlert(body),
  update: (client, id, body) => client.updateAlert(id, body),
  remove: (client, id) => client.deleteAlert(id),
};
