import type { OnNoData } from '../../model/types.js';
import { composeCriteria, type ComposedCriteria, type ThresholdTree } from '../compose-criteria.js';
import type { ImportedAlert, ImportedChannel, ImportedRule, ImportedSchedule } from '../import-types.js';
import { shownValue } from '../import-types.js';
import { comparisonsOf, parseMoiraExpression, type Branch, type Condition, type Operand } from './moira-expression.js';
import { mapMoiraSchedule } from './map-schedule.js';
import type { MoiraSubscription, MoiraTrigger } from './read-moira.js';

/** Moira's default ttl (seconds) and ttl_state when a trigger leaves them out. */
const DEFAULT_TTL = 600;
const DEFAULT_TTL_STATE = 'NODATA';

/** Fields that describe the trigger's record, not its rule: nothing to carry over. */
const METADATA = new Set(['id', 'patterns', 'created_at', 'updated_at', 'created_by', 'updated_by', 'last_check', 'highlights', 'timestamp', 'throttling', 'is_simple_trigger', 'team_id']);
const MAPPED = new Set(['name', 'desc', 'targets', 'warn_value', 'error_value', 'trigger_type', 'tags', 'ttl_state', 'ttl', 'sched', 'expression', 'is_remote', 'trigger_source', 'cluster_id', 'mute_new_metrics', 'alone_metrics']);

/** What a trigger's mapping needs besides the trigger. */
export interface MoiraContext {
  /** Subscriptions given with the export (none: channels are not known, and each alert keeps the default). */
  subscriptions: readonly MoiraSubscription[] | null;
  /** Mapped contacts by Moira contact id. */
  channels: ReadonlyMap<string, ImportedChannel>;
  /** Schedules made so far, by name (shared by triggers with the same sched). */
  schedules: Map<string, ImportedSchedule>;
}

/**
 * One Moira trigger as alertform alerts. Levels: Moira has WARN and ERROR thresholds on one trigger, alertform one
 * state per alert, so a trigger with both becomes two alerts, the error one named by the title and the warning one
 * `TITLE (warning)`, each to the channels whose subscriptions take that level; a trigger with one level, one alert.
 * Comparisons are Moira's inclusive `>=`/`<=`; alertform's above/below are strict (reported).
 */
export function mapMoiraTrigger(trigger: MoiraTrigger, context: MoiraContext): ImportedRule {
  const sourceId = String(trigger.id ?? '');
  const title = typeof trigger.name === 'string' ? trigger.name.trim().replace(/\s+/g, ' ') : '';
  const tags = Array.isArray(trigger.tags) ? trigger.tags.map(String) : [];
  const rule: ImportedRule = { sourceId, title: title || sourceId, group: tags[0] ?? 'untagged', alerts: [], comments: [], dropped: [] };
  const drop = (field: string, value: unknown, why: string) => rule.dropped.push({ field, value: shownValue(value), why });
  rule.comments.push(`Moira trigger ${sourceId || '(no id)'}${tags.length > 0 ? `, tags: ${tags.join(', ')}` : ''}`);
  const notImported = (field: string, value: unknown, why: string): ImportedRule => {
    drop(field, value, why);
    return rule;
  };

  if (!title) return notImported('name', trigger.name, 'a trigger needs a name: alertform names alerts by it');
  const targets = Array.isArray(trigger.targets) ? trigger.targets.filter((t): t is string => typeof t === 'string' && t.trim() !== '') : [];
  if (targets.length === 0) return notImported('targets', trigger.targets, 'no Graphite target');
  const source = trigger.trigger_source ?? (trigger.is_remote ? 'graphite_remote' : 'graphite_local');
  if (source !== 'graphite_local' && source !== 'graphite_remote') return notImported('trigger_source', source, 'only Graphite triggers can be imported');

  const branches = branchesOf(trigger, targets, drop);
  if (!branches) return rule;

  // The no-data rule: after ttl seconds without data Moira sets ttl_state. ERROR, WARN and NODATA all page, so the
  // alert gets a `missing` criterion over t1 for ttl (as minutes) OR-ed with its thresholds; OK and DEL page nothing.
  const ttl = typeof trigger.ttl === 'number' ? trigger.ttl : DEFAULT_TTL;
  const ttlState = String(trigger.ttl_state ?? DEFAULT_TTL_STATE).toUpperCase();
  const missingMinutes = ttl > 0 && ['ERROR', 'WARN', 'NODATA'].includes(ttlState) ? Math.max(1, Math.ceil(ttl / 60)) : null;
  if (ttlState === 'DEL') drop('ttl_state', trigger.ttl_state, 'DEL removes a silent metric from the trigger: alertform keeps judging it (no data is ignored)');
  if (ttl > 0 && ttl % 60 !== 0 && missingMinutes) drop('ttl', ttl, `alertform's windows are whole minutes: no data is judged over ${missingMinutes} min`);

  const mutes = schedulesOf(trigger, context, drop);
  const hasError = branches.some((b) => b.state === 'ERROR');
  for (const branch of branches) {
    const tree = treeOf(branch.condition, targets);
    const composed = composeCriteria(missingMinutes ? { kind: 'or', left: tree, right: MISSING_MARK } : tree, null);
    let alert: ImportedAlert;
    if ('why' in composed) {
      // Too many letters with the missing criterion: keep the thresholds, tell no data by the no-data policy.
      const plain = composeCriteria(tree, null);
      if ('why' in plain) return notImported('expression', trigger.expression, plain.why);
      alert = alertOf(title, branch, hasError, plain);
      alert.on_no_data = 'notify';
      drop('ttl', ttl, `the alert already has four criteria: no data is told by on_no_data: notify over the alert's own window, not after ${ttl} s`);
    } else {
      alert = alertOf(title, branch, hasError, withMissing(composed, targets[0]!, missingMinutes));
      if (!missingMinutes) alert.on_no_data = 'ignore' satisfies OnNoData;
    }
    if (!('why' in composed) && composed.inclusive && !rule.dropped.some((d) => d.field === 'comparison')) {
      drop('comparison', branch.state === 'ERROR' ? trigger.error_value ?? trigger.expression : trigger.warn_value ?? trigger.expression, "Moira's >= and <= include the threshold; alertform's above and below do not (a value exactly at it does not fire)");
    }
    if (typeof trigger.desc === 'string' && trigger.desc.trim()) alert.info = trigger.desc;
    if (mutes.length > 0) alert.scheduled_mutes = mutes;
    const channels = channelsOf(tags, branch.state, context, rule);
    if (channels === 'nobody') {
      // Every subscription that takes the trigger ignores warnings: in Moira nobody hears this level.
      drop('warn_value', trigger.warn_value ?? trigger.expression, 'every subscription that takes this trigger ignores warnings: the warning level is not imported');
      continue;
    }
    if (channels.length > 0) alert.notification_channels = channels;
    rule.alerts.push(alert);
  }

  if (trigger.mute_new_metrics === true) drop('mute_new_metrics', true, 'alertform notifies about a new series as about any other');
  if (trigger.alone_metrics && typeof trigger.alone_metrics === 'object' && Object.keys(trigger.alone_metrics).length > 0) {
    drop('alone_metrics', trigger.alone_metrics, 'alertform has no single-series targets: each criterion is judged on its own query');
  }
  for (const field of Object.keys(trigger)) {
    if (!METADATA.has(field) && !MAPPED.has(field)) drop(field, trigger[field], 'not known to the importer');
  }
  return rule;
}

/** The trigger's levels as branches: its expression, or the simple rising/falling thresholds on t1. */
function branchesOf(trigger: MoiraTrigger, targets: string[], drop: (field: string, value: unknown, why: string) => void): Branch[] | null {
  const expression = typeof trigger.expression === 'string' ? trigger.expression.trim() : '';
  if (trigger.trigger_type === 'expression' || expression) {
    const parsed = parseMoiraExpression(expression);
    if (!parsed.ok) {
      drop('expression', expression, `not imported: ${parsed.why}`);
      return null;
    }
    const used = new Set(parsed.branches.flatMap((b) => comparisonsOf(b.condition).flatMap((c) => (c.operand.kind === 'target' ? [c.operand.index] : [c.operand.numerator, c.operand.denominator]))));
    for (const index of used) {
      if (index > targets.length) {
        drop('expression', expression, `not imported: t${index} names no target (the trigger has ${targets.length})`);
        return null;
      }
    }
    targets.forEach((t, i) => {
      if (!used.has(i + 1)) drop(`targets[${i}]`, t, 'the expression does not use it');
    });
    return parsed.branches;
  }
  const warn = numberOrNull(trigger.warn_value);
  const error = numberOrNull(trigger.error_value);
  if (warn === null && error === null) {
    drop('warn_value', trigger.warn_value, 'not imported: neither warn_value nor error_value is set');
    return null;
  }
  // Moira infers the direction from the two values when trigger_type is absent (error above warn: rising).
  const type = trigger.trigger_type ?? (warn !== null && error !== null && error < warn ? 'falling' : 'rising');
  if (type !== 'rising' && type !== 'falling') {
    drop('trigger_type', type, 'not imported: expected rising, falling or expression');
    return null;
  }
  targets.slice(1).forEach((t, i) => drop(`targets[${i + 1}]`, t, 'a simple trigger judges t1 only'));
  const op = type === 'rising' ? '>=' : '<=';
  const branch = (value: number, state: Branch['state']): Branch => ({ state, condition: { kind: 'compare', operand: { kind: 'target', index: 1 }, op, value } });
  return [...(error !== null ? [branch(error, 'ERROR')] : []), ...(warn !== null && warn !== error ? [branch(warn, 'WARN')] : [])];
}

/** Stands for the `missing` criterion in a tree until withMissing puts it in. */
const MISSING_METRIC = '\u0000missing';
const MISSING_MARK: ThresholdTree = { kind: 'threshold', threshold: { metric: MISSING_METRIC, op: '>', value: 0 } };

function withMissing(composed: ComposedCriteria, metric: string, minutes: number | null): ComposedCriteria {
  if (!minutes || !composed.additional_criteria) return composed;
  for (const [letter, criterion] of Object.entries(composed.additional_criteria)) {
    if (criterion.metric === MISSING_METRIC) composed.additional_criteria[letter] = { type: 'missing', time_period: minutes, metric };
  }
  return composed;
}

function treeOf(condition: Condition, targets: string[]): ThresholdTree {
  if (condition.kind === 'compare') return { kind: 'threshold', threshold: { metric: metricOf(condition.operand, targets), op: condition.op, value: condition.value } };
  return { kind: condition.kind, left: treeOf(condition.left, targets), right: treeOf(condition.right, targets) };
}

function metricOf(operand: Operand, targets: string[]): string {
  if (operand.kind === 'target') return targets[operand.index - 1]!;
  return `divideSeries(${targets[operand.numerator - 1]}, ${targets[operand.denominator - 1]})`;
}

function alertOf(title: string, branch: Branch, hasError: boolean, composed: ComposedCriteria): ImportedAlert {
  const name = branch.state === 'WARN' && hasError ? `${title.slice(0, 245)} (warning)` : title.slice(0, 255);
  const alert: ImportedAlert = { name, metric: composed.metric, alert_criteria: composed.alert_criteria, notification_type: 'state_change' };
  if (composed.additional_criteria) {
    alert.additional_criteria = composed.additional_criteria;
    alert.expression = composed.expression!;
  }
  return alert;
}

function schedulesOf(trigger: MoiraTrigger, context: MoiraContext, drop: (field: string, value: unknown, why: string) => void): string[] {
  if (!trigger.sched) return [];
  const mapped = mapMoiraSchedule(trigger.sched);
  if ('why' in mapped) {
    drop('sched', trigger.sched, mapped.why);
    return [];
  }
  for (const schedule of mapped.schedules) context.schedules.set(schedule.name, schedule);
  return mapped.schedules.map((s) => s.name);
}

/**
 * The channels of the subscriptions that take this trigger: enabled, and all of their tags on the trigger (or
 * any_tags); a warning alert skips the subscriptions that ignore warnings.
 */
function channelsOf(tags: string[], state: Branch['state'], context: MoiraContext, rule: ImportedRule): string[] | 'nobody' {
  if (!context.subscriptions) {
    if (!rule.dropped.some((d) => d.field === 'tags')) {
      rule.dropped.push({ field: 'tags', value: shownValue(tags), why: 'no Moira subscriptions were given (pass the user settings JSON): the alert goes to the default channel, Email me' });
    }
    return [];
  }
  const names: string[] = [];
  let taking = 0;
  let ignoring = 0;
  for (const subscription of context.subscriptions) {
    if (subscription.enabled === false) continue;
    const wanted = subscription.tags ?? [];
    if (!subscription.any_tags && (wanted.length === 0 || !wanted.every((tag) => tags.includes(tag)))) continue;
    taking += 1;
    if (state === 'WARN' && subscription.ignore_warnings) {
      ignoring += 1;
      continue;
    }
    for (const contact of subscription.contacts ?? []) {
      const channel = context.channels.get(contact);
      if (channel && !names.includes(channel.description)) names.push(channel.description);
    }
  }
  if (taking > 0 && taking === ignoring) return 'nobody';
  if (names.length === 0 && !rule.dropped.some((d) => d.field === 'tags')) {
    rule.dropped.push({ field: 'tags', value: shownValue(tags), why: "no subscription's contact that takes this trigger maps to a channel: the alert goes to the default channel, Email me" });
  }
  return names.sort();
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
