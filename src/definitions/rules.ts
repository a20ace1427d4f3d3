import { checkAutoResolve, checkCriteriaBounds, checkDestination, checkExpressionLetters, checkMetricPatterns, checkOnQueryFailure } from '../model/rules.js';
import type { FieldProblem } from '../model/schemas.js';
import { checkDependsOnNodes, checkWindow } from '../model/noise-control.js';
import { checkWindowRules } from '../model/window-rules.js';
import { findDependencyCycle } from '../evaluation/dependencies.js';
import { checkChannelTemplate } from '../notifications/templates/check-template.js';
import type { AlertDefinition, Definitions, Defined } from './definitions.js';
import type { Problem, SourceLocation } from './problems.js';
import { expandEscalationPolicies } from './escalation.js';
import { checkChannelCount } from '../model/escalation-rules.js';
import { runToEnd, type Steps } from './slices.js';
import { SENSITIVE } from '../redact/placeholder.js';

/**
 * The rules a schema cannot say: duplicates across files (naming both places), composite expressions and their
 * letters, on_query_failure only for function queries, destinations that suit their type, auto_resolve only where it
 * means something, bounds order, message templates that parse and use only known fields.
 * References are resolved later, at plan time, when the server's objects are known too.
 */
export function checkDefinitions(definitions: Definitions): Problem[] {
  return runToEnd(checkDefinitionsSteps(definitions));
}

/** checkDefinitions, pausing between alerts (see slices.ts). */
export function* checkDefinitionsSteps(definitions: Definitions): Steps<Problem[]> {
  const problems: Problem[] = [];
  problems.push(...checkDuplicates(definitions.alerts, 'alert name'));
  problems.push(...checkDuplicates(definitions.channels, 'channel description'));
  problems.push(...checkDuplicates(definitions.schedules, 'schedule name'));
  problems.push(...checkDuplicates(definitions.escalationPolicies ?? [], 'escalation policy name'));
  problems.push(...checkDuplicates(definitions.maintenanceWindows ?? [], 'maintenance window name'));
  problems.push(...checkDependencies(definitions.alerts));
  for (const window of definitions.maintenanceWindows ?? []) problems.push(...locate(window, checkWindowRules(window.spec)));
  problems.push(...expandEscalationPolicies(definitions));
  for (const alert of definitions.alerts) {
    problems.push(...checkAlert(alert));
    yield;
  }
  for (const channel of definitions.channels) {
    const { type, destination, auto_resolve: autoResolve } = channel.spec;
    // An empty one is an unset variable or a schema problem, reported already; a value from the environment is
    // never echoed.
    const show = channel.sensitivePaths.includes('destination') ? () => 'a value' : undefined;
    if (destination !== '') problems.push(...locate(channel, checkDestination(type, destination, show ? { show } : {})));
    problems.push(...locate(channel, checkAutoResolve(type, autoResolve)));
    problems.push(...locate(channel, checkWindow(channel.spec.throttle?.window, 'throttle.window')));
    // A template's problem points inside the string, at the tag that is wrong.
    for (const problem of checkChannelTemplate(channel.spec.template)) {
      const location = channel.locateIn?.(problem.path, problem.offset) ?? channel.locate(problem.path);
      problems.push({ location, path: `${channel.path}.${problem.path}`, message: problem.message });
    }
  }
  return problems;
}

/** What a problem needs of a defined item (an alert, a channel, a schedule, an escalation policy). */
type Placed = Pick<Defined<unknown>, 'key' | 'path' | 'location' | 'locate'>;

function at(item: Placed, path: string, message: string): Problem {
  return { location: item.locate(path), path: path ? `${item.path}.${path}` : item.path, message };
}

/** The model's problems of one resource, placed in its file. */
function locate(item: Defined<unknown>, problems: FieldProblem[]): Problem[] {
  return problems.map((problem) => at(item, problem.path, problem.message));
}

function where(location: SourceLocation): string {
  return `${location.file}:${location.line}:${location.column}`;
}

function checkDuplicates(items: readonly Placed[], what: string): Problem[] {
  const problems: Problem[] = [];
  const first = new Map<string, Placed>();
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

/** The server's alert rules that need no other resource (references are resolved at plan time). */
function checkAlert(alert: Defined<AlertDefinition>): Problem[] {
  const spec = alert.spec;
  const additional = spec.additional_criteria ?? {};
  // Appended in place rather than spread into one array: this runs for every alert, and nearly all have no problem.
  const found: FieldProblem[] = [];
  append(found, checkExpressionLetters(Object.keys(additional), spec.expression).problems);
  append(found, checkCriteriaBounds(spec.alert_criteria, 'alert_criteria'));
  append(found, checkMetricPatterns(spec.metric, additional));
  for (const [key, criterion] of Object.entries(additional)) append(found, checkCriteriaBounds(criterion, `additional_criteria.${key}`));
  append(found, checkOnQueryFailure(spec.on_query_failure, spec.metric, additional));
  append(found, checkWindow(spec.flap_guard?.window, 'flap_guard.window'));
  // After expandEscalationPolicies: a policy's steps count for every alert that names it.
  const steps = Array.isArray(spec.escalation) ? spec.escalation.map((step) => step.notify) : [];
  append(found, checkChannelCount(spec.notification_channels ?? [], steps));
  append(found, checkDependsOnNodes(spec.depends_on));
  return found.length === 0 ? [] : locate(alert, found);
}

function append(to: FieldProblem[], problems: readonly FieldProblem[]): void {
  for (const problem of problems) to.push(problem);
}

/** The parent a depends_on item names, and the path of that name inside the alert. */
function parentsOf(alert: Defined<AlertDefinition>): { parent: string; path: string }[] {
  return (alert.spec.depends_on ?? []).map((item, i) => (typeof item === 'string' ? { parent: item, path: `depends_on.${i}` } : { parent: item.alert, path: `depends_on.${i}.alert` }));
}

/**
 * depends_on names alerts of these files (a parent the files do not define could be deleted under its children, and
 * a cycle through it could not be seen), and makes no cycle: an alert on one would be held for as long as any
 * alert of the cycle alerts, itself included.
 */
function checkDependencies(alerts: readonly Defined<AlertDefinition>[]): Problem[] {
  const problems: Problem[] = [];
  const defined = new Set(alerts.map((alert) => alert.key));
  const edges: { child: string; parent: string }[] = [];
  const placeOf = new Map<string, { alert: Defined<AlertDefinition>; path: string }>();
  for (const alert of alerts) {
    for (const { parent, path } of parentsOf(alert)) {
      if (!defined.has(parent)) {
        const shown = alert.sensitivePaths.includes(path) ? SENSITIVE : parent;
        problems.push(at(alert, path, `no alert "${shown}" in these files: depends_on names alerts defined here`));
        continue;
      }
      edges.push({ child: alert.key, parent });
      placeOf.set(`${alert.key}\u0000${parent}`, { alert, path });
    }
  }
  const cycle = findDependencyCycle(edges);
  if (cycle) {
    const first = placeOf.get(`${cycle[0]}\u0000${cycle[1]}`)!;
    const text = cycle.length === 2 ? `alert "${cycle[0]}" depends on itself` : `depends_on makes a cycle: ${cycle.map((name) => `"${name}"`).join(' → ')}`;
    problems.push(at(first.alert, first.path, `${text}; an alert on a cycle would be held for as long as any alert of it alerts`));
  }
  return problems;
}
