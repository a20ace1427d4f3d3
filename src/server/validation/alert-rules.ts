import { checkTargetPatterns } from '../../graphite/check-target.js';
import { callsFunction } from '../../graphite/target.js';
import { echo } from '../errors.js';
import { checkMetricPrefixes } from './metric-prefixes.js';
import { ExpressionError, expressionLetters, formatExpression, parseExpression } from '../../model/expression.js';
import type { FieldProblem } from '../../model/schemas.js';
import type {
  AdditionalCriterion,
  AlertBody,
  AlertCriteria,
  NotificationType,
  NotificationTypeInput,
  OnQueryFailure,
} from '../../model/types.js';
import type { AlertRecord, AlertWrite } from '../store/store.js';

/** How the alert rules find the account's channels and schedules (the store, in the server). */
export interface ReferenceLookup {
  /** Channel id for each ref (an id or a description) that exists in the account; absent refs are unknown. */
  resolveChannels(refs: string[]): Promise<Map<string, string>>;
  /** Id of the account's `Email me` channel, if it still exists. */
  defaultChannel(): Promise<string | null>;
  /** The subset of `ids` that are schedules of the account. */
  existingSchedules(ids: string[]): Promise<Set<string>>;
}

export type RuleResult<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/** Whether the alert's queries (its metric or any additional criterion's) call a graphite function. */
export function usesGraphiteFunction(metric: string, additional: Record<string, { metric: string }> = {}): boolean {
  // A graphite function call such as `sumSeries(` is what makes on_query_failure meaningful.
  return callsFunction(metric) || Object.values(additional).some((criterion) => callsFunction(criterion.metric));
}

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
): Promise<RuleResult<AlertWrite>> {
  const problems: FieldProblem[] = [];
  const alertCriteria = normaliseCriteria(body.alert_criteria, 'alert_criteria', problems);

  const additionalCriteria: Record<string, AdditionalCriterion> = {};
  for (const [key, criterion] of Object.entries(body.additional_criteria ?? {})) {
    const letter = key.toLowerCase();
    if (letter in additionalCriteria) {
      problems.push({ path: `additional_criteria.${key}`, message: `letter "${letter}" is given twice` });
      continue;
    }
    additionalCriteria[letter] = {
      ...normaliseCriteria(criterion, `additional_criteria.${key}`, problems),
      metric: criterion.metric,
    };
  }

  const expression = checkExpression(body.expression, additionalCriteria, problems);
  checkMetricPatterns(body.metric, additionalCriteria, metricPrefixes, problems);

  const hasFunction = usesGraphiteFunction(body.metric, additionalCriteria);
  let onQueryFailure: OnQueryFailure = body.on_query_failure === undefined ? (hasFunction ? 'notify' : null) : body.on_query_failure;
  if (onQueryFailure !== null && !hasFunction) {
    if (body.on_query_failure !== undefined) {
      problems.push({
        path: 'on_query_failure',
        message: 'is only valid when the metric calls a graphite function, e.g. sumSeries(...)',
      });
    }
    onQueryFailure = null;
  }

  const notificationChannels = await resolveChannels(body.notification_channels, lookup, problems);
  const scheduledMutes = await checkSchedules(body.scheduled_mutes ?? [], lookup, problems);

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      name: body.name,
      metric: body.metric,
      alertCriteria,
      additionalCriteria,
      expression,
      notificationChannels,
      notificationType: normaliseNotificationType(body.notification_type),
      scheduledMutes,
      info: body.info ?? null,
      onQueryFailure,
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
  };
  if ('on_query_failure' in patch) {
    merged.on_query_failure = patch.on_query_failure;
  } else if (usesGraphiteFunction(merged.metric, merged.additional_criteria)) {
    merged.on_query_failure = usesGraphiteFunction(stored.metric, stored.additionalCriteria) ? stored.onQueryFailure : 'notify';
  } else {
    merged.on_query_failure = null;
  }
  return merged;
}

/** Malformed wildcards (`[z-a]`, an unclosed bracket or brace) are refused now rather than failing every cycle. */
function checkMetricPatterns(
  metric: string,
  additional: Record<string, AdditionalCriterion>,
  prefixes: readonly string[],
  problems: FieldProblem[],
): void {
  const queries = [['metric', metric], ...Object.entries(additional).map(([letter, c]) => [`additional_criteria.${letter}.metric`, c.metric])];
  for (const [path, query] of queries as [string, string][]) {
    const problem = checkTargetPatterns(query) ?? checkMetricPrefixes(query, prefixes);
    if (problem) problems.push({ path, message: problem });
  }
}

function normaliseCriteria<T extends AlertCriteria>(criteria: T, path: string, problems: FieldProblem[]): AlertCriteria {
  if (criteria.type === 'outside_bounds' && criteria.below_value !== undefined && criteria.above_value !== undefined) {
    if (!(criteria.below_value < criteria.above_value)) {
      problems.push({ path: `${path}.below_value`, message: 'must be less than above_value for outside_bounds' });
    }
  }
  const result: AlertCriteria = { type: criteria.type };
  if (criteria.above_value !== undefined) result.above_value = criteria.above_value;
  if (criteria.below_value !== undefined) result.below_value = criteria.below_value;
  // Absent, null and "" all mean instantaneous; store one form of it (absent).
  if (typeof criteria.time_period === 'number') result.time_period = criteria.time_period;
  return result;
}

function checkExpression(
  source: string | undefined,
  additional: Record<string, AdditionalCriterion>,
  problems: FieldProblem[],
): string {
  const letters = Object.keys(additional);
  if (source === undefined) {
    if (letters.length > 0) problems.push({ path: 'expression', message: 'is required when additional_criteria is given' });
    return 'a';
  }
  let used: string[];
  let canonical: string;
  try {
    const tree = parseExpression(source);
    used = expressionLetters(tree);
    canonical = formatExpression(tree);
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    problems.push({ path: 'expression', message: `${error.message} (at character ${error.position + 1})` });
    return source;
  }
  const known = new Set(['a', ...letters]);
  for (const letter of used) {
    if (!known.has(letter)) {
      problems.push({
        path: 'expression',
        message: `uses "${letter}", which has no criteria (known: ${[...known].join(', ')})`,
      });
    }
  }
  for (const letter of letters) {
    if (!used.includes(letter)) {
      problems.push({ path: `additional_criteria.${letter}`, message: 'is not used in expression' });
    }
  }
  return canonical;
}

function normaliseNotificationType(input: NotificationTypeInput | undefined): NotificationType {
  if (input === 'state_change') return ['state_change'];
  if (Array.isArray(input) && input[0] === 'state_change') return ['state_change'];
  if (Array.isArray(input) && input[0] === 'every') return ['every', input[1]];
  return ['every', 60];
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
