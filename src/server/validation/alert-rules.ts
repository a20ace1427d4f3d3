import {
  canonicalAdditionalCriteria,
  canonicalCriteria,
  canonicalNotificationType,
  canonicalOnQueryFailure,
  defaultOnQueryFailure,
  usesGraphiteFunction,
} from '../../model/canonical.js';
import { checkCriteriaBounds, checkExpressionLetters, checkMetricPatterns, checkOnQueryFailure } from '../../model/rules.js';
import { echo } from '../errors.js';
import { checkMetricPrefixes } from './metric-prefixes.js';
import type { FieldProblem } from '../../model/schemas.js';
import type { AlertBody, DependsOnItem, EscalationStepBody } from '../../model/types.js';
import { findDependencyCycle } from '../../evaluation/dependencies.js';
import { checkChannelCount, checkEscalationOrder } from '../../model/escalation-rules.js';
import type { AlertRecord, AlertWrite } from '../store/store.js';

/** How the alert rules find the account's channels and schedules (the store, in the server). */
export interface ReferenceLookup {
  /** Channel id for each ref (an id or a description) that exists in the account; absent refs are unknown. */
  resolveChannels(refs: string[]): Promise<Map<string, string>>;
  /** Id of the account's `Email me` channel, if it still exists. */
  defaultChannel(): Promise<string | null>;
  /** The subset of `ids` that are schedules of the account. */
  existingSchedules(ids: string[]): Promise<Set<string>>;
  /** Alert id for each ref (an id or a name) that exists in the account (ids win over names). */
  resolveAlerts(refs: string[]): Promise<Map<string, string>>;
  /** Every dependency of the account's alerts (child -> parent ids), for the cycle check. */
  dependencyEdges(): Promise<{ from: string; to: string }[]>;
  /** Names of the account's alerts among `ids`. */
  alertNames(ids: string[]): Promise<Map<string, string>>;
}

export type RuleResult<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/**
 * The semantic rules of an alert body that already passed the JSON Schema: criteria bounds, the expression and
 * its letters, on_query_failure only for function queries, references to channels and schedules. Returns the
 * normalised write (canonical expression, lower-case letters, channel ids, list-form notification_type).
 */
export async function checkAlertRules(
  body: AlertBody,
  lookup: ReferenceLookup,
  /** The account's metric prefixes: every query must stay inside them (none: not confined). */
  metricPrefixes: readonly string[] = [],
  /** The alert's id on an update (its own dependencies are replaced, and naming itself is a cycle). */
  selfId?: string,
): Promise<RuleResult<AlertWrite>> {
  const problems: FieldProblem[] = [...checkCriteriaBounds(body.alert_criteria, 'alert_criteria')];
  for (const [key, criterion] of Object.entries(body.additional_criteria ?? {})) {
    problems.push(...checkCriteriaBounds(criterion, `additional_criteria.${key}`));
  }
  const letters = checkExpressionLetters(Object.keys(body.additional_criteria ?? {}), body.expression);
  problems.push(...letters.problems);
  problems.push(...checkMetricPatterns(body.metric, body.additional_criteria, (query) => checkMetricPrefixes(query, metricPrefixes)));
  problems.push(...checkOnQueryFailure(body.on_query_failure, body.metric, body.additional_criteria));

  const notificationChannels = await resolveChannels(body.notification_channels, lookup, problems);
  const scheduledMutes = await checkSchedules(body.scheduled_mutes ?? [], lookup, problems);
  const escalation = await resolveEscalation(body.escalation ?? [], lookup, problems);
  const dependsOn = await resolveDependencies(body.depends_on ?? [], body.name, selfId, lookup, problems);
  // Counted by id: two names of one channel are one channel.
  problems.push(...checkChannelCount(notificationChannels, escalation.map((step) => step.notification_channels)));

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      name: body.name,
      metric: body.metric,
      alertCriteria: canonicalCriteria(body.alert_criteria),
      additionalCriteria: canonicalAdditionalCriteria(body.additional_criteria),
      expression: letters.expression,
      notificationChannels,
      notificationType: canonicalNotificationType(body.notification_type),
      scheduledMutes,
      info: body.info ?? null,
      onQueryFailure: canonicalOnQueryFailure(body.on_query_failure, body.metric, body.additional_criteria),
      // Only when there are steps: a write without the extension is exactly what it was.
      ...(escalation.length > 0 ? { escalation } : {}),
      flapGuard: body.flap_guard ?? null,
      pagerdutySeverity: body.pagerduty_severity ?? null,
      opsgeniePriority: body.opsgenie_priority ?? null,
      settleSeconds: body.settle_seconds ?? null,
      onNoData: body.on_no_data ?? null,
      ...(dependsOn.length > 0 ? { dependsOn } : {}),
    },
  };
}

/**
 * The body a PUT stands for: the stored alert with the given fields replaced. on_query_failure, when not given,
 * follows the merged metric: null when it no longer calls a function, `notify` when it newly does.
 */
export function mergeAlertUpdate(stored: AlertRecord, patch: Partial<AlertBody>): AlertBody {
  const merged: AlertBody = {
    name: patch.name ?? stored.name,
    metric: patch.metric ?? stored.metric,
    alert_criteria: patch.alert_criteria ?? stored.alertCriteria,
    additional_criteria: patch.additional_criteria ?? stored.additionalCriteria,
    expression: patch.expression ?? stored.expression,
    scheduled_mutes: patch.scheduled_mutes ?? stored.scheduledMutes,
    notification_channels: patch.notification_channels ?? stored.notificationChannels,
    notification_type: 'notification_type' in patch ? patch.notification_type : stored.notificationType,
    info: 'info' in patch ? patch.info : stored.info,
    escalation: patch.escalation ?? stored.escalation,
    flap_guard: 'flap_guard' in patch ? patch.flap_guard : (stored.flapGuard ?? null),
    pagerduty_severity: 'pagerduty_severity' in patch ? patch.pagerduty_severity : (stored.pagerdutySeverity ?? null),
    opsgenie_priority: 'opsgenie_priority' in patch ? patch.opsgenie_priority : (stored.opsgeniePriority ?? null),
    settle_seconds: 'settle_seconds' in patch ? patch.settle_seconds : (stored.settleSeconds ?? null),
    on_no_data: 'on_no_data' in patch ? patch.on_no_data : (stored.onNoData ?? null),
    depends_on: 'depends_on' in patch ? patch.depends_on : (stored.dependsOn ?? null),
  };
  if ('on_query_failure' in patch) {
    merged.on_query_failure = patch.on_query_failure;
  } else {
    // A stored choice holds while the query still calls a function; otherwise the default of the merged query.
    const keepsStored = usesGraphiteFunction(merged.metric, merged.additional_criteria) && usesGraphiteFunction(stored.metric, stored.additionalCriteria);
    merged.on_query_failure = keepsStored ? stored.onQueryFailure : defaultOnQueryFailure(merged.metric, merged.additional_criteria);
  }
  return merged;
}

async function resolveChannels(
  refs: string[] | undefined,
  lookup: ReferenceLookup,
  problems: FieldProblem[],
): Promise<string[]> {
  if (!refs || refs.length === 0) {
    const fallback = await lookup.defaultChannel();
    return fallback ? [fallback] : [];
  }
  const resolved = await lookup.resolveChannels(refs);
  // A Set keeps the first-seen order and makes 100,000 refs linear, not quadratic.
  const ids = new Set<string>();
  refs.forEach((ref, index) => {
    const id = resolved.get(ref);
    if (id === undefined) {
      problems.push({ path: `notification_channels.${index}`, message: `no channel with id or description ${echo(ref)}` });
    } else {
      ids.add(id);
    }
  });
  return [...ids];
}

async function checkSchedules(ids: string[], lookup: ReferenceLookup, problems: FieldProblem[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const existing = await lookup.existingSchedules(ids);
  ids.forEach((id, index) => {
    if (!existing.has(id)) problems.push({ path: `scheduled_mutes.${index}`, message: `no scheduled mute with id ${echo(id)}` });
  });
  return [...new Set(ids)];
}

/**
 * Escalation steps (an extension): strictly ascending, channels of this account by id or description (read back
 * as ids, each once per step). One lookup for every step's channels.
 */
async function resolveEscalation(steps: EscalationStepBody[], lookup: ReferenceLookup, problems: FieldProblem[]): Promise<EscalationStepBody[]> {
  if (steps.length === 0) return [];
  problems.push(...checkEscalationOrder(steps.map((step) => step.after_minutes), 'escalation'));
  const resolved = await lookup.resolveChannels([...new Set(steps.flatMap((step) => step.notification_channels))]);
  return steps.map((step, index) => {
    const ids = new Set<string>();
    step.notification_channels.forEach((ref, position) => {
      const id = resolved.get(ref);
      if (id === undefined) {
        problems.push({ path: `escalation.${index}.notification_channels.${position}`, message: `no channel with id or description ${echo(ref)}` });
      } else {
        ids.add(id);
      }
    });
    return { after_minutes: step.after_minutes, notification_channels: [...ids] };
  });
}

/** Stands for the alert being created in the cycle check (it has no id yet). */
const NEW_ALERT = '\u0000new';

/**
 * Dependencies (an extension): parents of this account by id or name (read back as ids, each once), node mappings of
 * equal lengths, and no cycle with the account's other dependencies (naming the alert itself is one).
 */
async function resolveDependencies(
  items: DependsOnItem[],
  name: string,
  selfId: string | undefined,
  lookup: ReferenceLookup,
  problems: FieldProblem[],
): Promise<DependsOnItem[]> {
  if (items.length === 0) return [];
  const resolved = await lookup.resolveAlerts([...new Set(items.map((item) => item.alert))]);
  const self = selfId ?? NEW_ALERT;
  const edges: DependsOnItem[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const path = `depends_on.${index}`;
    if (item.parent_nodes && (!item.nodes || item.nodes.length !== item.parent_nodes.length)) {
      problems.push({ path: `${path}.parent_nodes`, message: 'must have as many nodes as nodes' });
    }
    // A create naming its own name names itself (the name is about to be its own).
    const id = selfId === undefined && item.alert === name ? NEW_ALERT : resolved.get(item.alert);
    if (id === undefined) {
      problems.push({ path: `${path}.alert`, message: `no alert with id or name ${echo(item.alert)}` });
      return;
    }
    if (id === self) {
      problems.push({ path: `${path}.alert`, message: 'an alert cannot depend on itself' });
      return;
    }
    if (seen.has(id)) return;
    seen.add(id);
    edges.push({ alert: id, ...(item.nodes ? { nodes: item.nodes } : {}), ...(item.parent_nodes ? { parent_nodes: item.parent_nodes } : {}) });
  });
  if (problems.some((problem) => problem.path.startsWith('depends_on'))) return edges;
  const others = (await lookup.dependencyEdges()).filter((edge) => edge.from !== self);
  const cycle = findDependencyCycle([...others, ...edges.map((edge) => ({ from: self, to: edge.alert }))].map(({ from, to }) => ({ child: from, parent: to })));
  if (cycle) {
    // Told from this alert: `cpu -> disk -> cpu`.
    const start = Math.max(0, cycle.indexOf(self));
    const from = [...cycle.slice(start, -1), ...cycle.slice(0, start), cycle[start]!];
    const names = await lookup.alertNames(from);
    const spelled = from.map((id) => (id === self ? name : (names.get(id) ?? id))).join(' -> ');
    problems.push({ path: 'depends_on', message: `a dependency cycle: ${echo(spelled)}` });
  }
  return edges;
}
