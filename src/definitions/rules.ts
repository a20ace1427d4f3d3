import { checkTargetPatterns } from '../graphite/check-target.js';
import { callsFunction } from '../graphite/target.js';
import { ExpressionError, expressionLetters, parseExpression } from '../model/expression.js';
import type { AlertDefinition, Definitions, Defined } from './definitions.js';
import type { Problem, SourceLocation } from './problems.js';

/** True when the alert or one of its additional criteria queries through a graphite function. */
export function usesGraphiteFunction(alert: Pick<AlertDefinition, 'metric' | 'additional_criteria'>): boolean {
  // Only a graphite function call such as `sumSeries(` can fail as a query.
  if (callsFunction(alert.metric)) return true;
  return Object.values(alert.additional_criteria ?? {}).some((c) => callsFunction(c.metric));
}

const AUTO_RESOLVE_TYPES = new Set(['pagerduty', 'victorops']);

/**
 * The rules a schema cannot say: duplicates across files (naming both places), composite expressions and their
 * letters, on_query_failure only for function queries, auto_resolve only where it means something, bounds order.
 * References are resolved later, at plan time, when the server's objects are known too.
 */
export function checkDefinitions(definitions: Definitions): Problem[] {
  const problems: Problem[] = [];
  problems.push(...checkDuplicates(definitions.alerts, 'alert name'));
  problems.push(...checkDuplicates(definitions.channels, 'channel description'));
  problems.push(...checkDuplicates(definitions.schedules, 'schedule name'));
  for (const alert of definitions.alerts) problems.push(...checkAlert(alert));
  for (const channel of definitions.channels) {
    if (channel.spec.auto_resolve === true && !AUTO_RESOLVE_TYPES.has(channel.spec.type)) {
      problems.push(at(channel, 'auto_resolve', `auto_resolve applies to pagerduty and victorops channels only, not ${channel.spec.type}`));
    }
  }
  return problems;
}

function at(item: Defined<unknown>, path: string, message: string): Problem {
  return { location: item.locate(path), path: path ? `${item.path}.${path}` : item.path, message };
}

function where(location: SourceLocation): string {
  return `${location.file}:${location.line}:${location.column}`;
}

function checkDuplicates(items: Defined<unknown>[], what: string): Problem[] {
  const problems: Problem[] = [];
  const first = new Map<string, Defined<unknown>>();
  for (const item of items) {
    const earlier = first.get(item.key);
    if (!earlier) {
      first.set(item.key, item);
      continue;
    }
    problems.push(at(item, '', `duplicate ${what} "${item.key}": also defined at ${where(earlier.location)}`));
    problems.push(at(earlier, '', `duplicate ${what} "${item.key}": also defined at ${where(item.location)}`));
  }
  return problems;
}

function checkAlert(alert: Defined<AlertDefinition>): Problem[] {
  const problems: Problem[] = [];
  const spec = alert.spec;
  const keys = Object.keys(spec.additional_criteria ?? {});
  const lower = keys.map((k) => k.toLowerCase());
  keys.forEach((key, i) => {
    if (lower[i] === 'a') problems.push(at(alert, `additional_criteria.${key}`, 'the letter "a" is the main criteria; use b..z'));
    if (lower.indexOf(lower[i]!) !== i) problems.push(at(alert, `additional_criteria.${key}`, `letter "${lower[i]}" is used twice (letters ignore case)`));
  });
  if (spec.expression !== undefined) {
    try {
      const used = expressionLetters(parseExpression(spec.expression));
      for (const letter of used) {
        if (letter !== 'a' && !lower.includes(letter)) {
          problems.push(at(alert, 'expression', `letter "${letter}" has no additional_criteria entry`));
        }
      }
      for (const letter of lower) {
        if (letter !== 'a' && !used.includes(letter)) {
          problems.push(at(alert, `additional_criteria.${letter}`, `letter "${letter}" is not used in expression "${spec.expression}"`));
        }
      }
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      problems.push(at(alert, 'expression', `invalid expression: ${error.message} (at character ${error.position + 1})`));
    }
  } else if (keys.length > 0) {
    problems.push(at(alert, 'expression', 'is required when additional_criteria is given'));
  }
  const criteria = [['alert_criteria', spec.alert_criteria] as const, ...keys.map((k) => [`additional_criteria.${k}`, spec.additional_criteria![k]!] as const)];
  for (const [path, c] of criteria) {
    if (c.type === 'outside_bounds' && c.below_value !== undefined && c.above_value !== undefined && c.below_value >= c.above_value) {
      problems.push(at(alert, `${path}.below_value`, `must be lower than above_value (${c.above_value})`));
    }
  }
  const metrics = [['metric', spec.metric] as const, ...keys.map((k) => [`additional_criteria.${k}.metric`, spec.additional_criteria![k]!.metric] as const)];
  for (const [path, metric] of metrics) {
    const problem = checkTargetPatterns(metric);
    if (problem) problems.push(at(alert, path, problem));
  }
  if (spec.on_query_failure != null && !usesGraphiteFunction(spec)) {
    problems.push(at(alert, 'on_query_failure', 'applies only to metrics that call a graphite function, e.g. sumSeries(...)'));
  }
  return problems;
}
