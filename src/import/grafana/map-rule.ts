import { callsFunction } from '../../model/graphite-target/target.js';
import type { OnNoData, OnQueryFailure } from '../../model/types.js';
import { durationMs } from '../../model/duration.js';
import { composeCriteria, single, type ThresholdTree } from '../compose-criteria.js';
import { shownValue, type ImportedAlert, type ImportedRule } from '../import-types.js';
import type { GrafanaQuery, GrafanaRule } from './read-grafana.js';

/** Fields of a rule's record, not of its rule: nothing to carry over. */
const METADATA = new Set(['uid', 'orgId', 'id', 'updated', 'provenance', 'ruleGroup', 'folderUID', 'version', 'dashboardUid', 'panelId']);
const MAPPED = new Set(['title', 'condition', 'data', 'noDataState', 'execErrState', 'for', 'annotations', 'labels', 'isPaused', 'notification_settings']);

/** A rule's check: one Graphite query, reduced, compared. */
interface Check {
  target: string;
  reducer: string;
  /** Seconds of data the reduce looks at (the query's relativeTimeRange). */
  rangeSeconds: number;
  evaluator: { type: string; params: number[] };
}

/**
 * One Grafana rule (Graphite data source) as an alertform alert: the query reduced (last: the newest point; min
 * above or max below a threshold: every point of the range, as alertform's window judges; mean, max, min, sum,
 * median: graphite's moving functions over the range), the threshold (gt, lt, outside_range, within_range, also as
 * a math `$B > 10` or a classic condition), `for` added to the window.
 */
export function mapGrafanaRule(rule: GrafanaRule, folder: string, group: string, receivers: ReadonlyMap<string, string[]> | null): ImportedRule {
  const sourceId = String(rule.uid ?? '');
  const title = typeof rule.title === 'string' ? rule.title.trim().replace(/\s+/g, ' ') : '';
  const mapped: ImportedRule = { sourceId, title: title || sourceId, group: folder || 'general', alerts: [], comments: [], dropped: [] };
  const drop = (field: string, value: unknown, why: string) => mapped.dropped.push({ field, value: shownValue(value), why });
  mapped.comments.push(`Grafana rule ${sourceId || '(no uid)'}, group "${group}"`);
  const labels = rule.labels && typeof rule.labels === 'object' ? Object.entries(rule.labels) : [];
  if (labels.length > 0) mapped.comments.push(`labels: ${labels.map(([k, v]) => `${k}=${String(v)}`).join(', ')}`);
  if (!title) {
    drop('title', rule.title, 'a rule needs a title: alertform names alerts by it');
    return mapped;
  }
  const check = checkOf(rule);
  if ('why' in check) {
    drop(check.field, check.value, `not imported: ${check.why}`);
    return mapped;
  }
  const forSeconds = durationOf(rule.for);
  if (forSeconds === null) {
    drop('for', rule.for, 'not imported: not a duration');
    return mapped;
  }
  const criteria = criteriaOf(check, forSeconds);
  if ('why' in criteria) {
    drop('data', check.reducer, `not imported: ${criteria.why}`);
    return mapped;
  }
  if (criteria.inclusive) drop('evaluator', check.evaluator, "an inclusive range compares with >= and <=; alertform's above and below are strict");
  if (check.evaluator.type === 'within_range' && check.target.includes('*')) {
    drop('evaluator', check.evaluator, 'within_range over a wildcard: alertform judges the two bounds as two criteria, each over any series');
  }
  const alert: ImportedAlert = { name: title.slice(0, 255), metric: criteria.metric, alert_criteria: criteria.alert_criteria };
  if (criteria.additional_criteria) {
    alert.additional_criteria = criteria.additional_criteria;
    alert.expression = criteria.expression!;
  }
  const info = infoOf(rule.annotations, mapped);
  if (info) alert.info = info;
  mapNoData(rule, alert, drop);
  mapErrors(rule, alert, drop);
  mapRouting(rule, alert, receivers, drop);
  if (rule.isPaused === true) drop('isPaused', true, 'a paused rule is imported active: mute it after apply if it should stay quiet');
  for (const field of Object.keys(rule)) {
    if (!METADATA.has(field) && !MAPPED.has(field)) drop(field, rule[field], 'not known to the importer');
  }
  mapped.alerts.push(alert);
  return mapped;
}

type Refusal = { field: string; value: unknown; why: string };

/** Follows the condition back to one Graphite query: threshold/math/classic over a reduce (or the query itself). */
function checkOf(rule: GrafanaRule): Check | Refusal {
  const nodes = new Map<string, GrafanaQuery>();
  for (const node of rule.data ?? []) if (node && typeof node.refId === 'string') nodes.set(node.refId, node);
  const condition = nodes.get(String(rule.condition ?? ''));
  if (!condition?.model) return { field: 'condition', value: rule.condition, why: 'the condition names no query or expression of the rule' };
  const model = condition.model;
  let evaluator: Check['evaluator'];
  let input: string;
  let reducer: string | null = null;
  if (model.type === 'threshold') {
    const first = (model.conditions as { evaluator?: { type?: string; params?: unknown[] } }[] | undefined)?.[0]?.evaluator;
    if (!first) return { field: 'condition', value: model, why: 'a threshold without an evaluator' };
    if ((model.conditions as unknown[]).length > 1) return { field: 'condition', value: model.conditions, why: 'more than one threshold condition' };
    evaluator = { type: String(first.type), params: (first.params ?? []).map(Number) };
    input = refOf(model.expression);
    if ((model.conditions as { unloadEvaluator?: unknown }[])[0]?.unloadEvaluator) {
      return { field: 'condition', value: model.conditions, why: 'a recovery threshold (unloadEvaluator): alertform recovers when the threshold no longer holds' };
    }
  } else if (model.type === 'math') {
    const m = /^\s*\$\{?([A-Za-z0-9_]+)\}?\s*(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(String(model.expression ?? ''));
    if (!m) return { field: 'condition', value: model.expression, why: 'a math expression other than `$X > N` or `$X < N`' };
    input = m[1]!;
    evaluator = { type: m[2]!.startsWith('>') ? (m[2] === '>=' ? 'gte' : 'gt') : m[2] === '<=' ? 'lte' : 'lt', params: [Number(m[3])] };
  } else if (model.type === 'classic_conditions') {
    const list = model.conditions as { evaluator?: { type?: string; params?: unknown[] }; query?: { params?: unknown[] }; reducer?: { type?: string } }[] | undefined;
    if (!list || list.length !== 1) return { field: 'condition', value: list?.length ?? 0, why: 'a classic condition with other than one condition' };
    evaluator = { type: String(list[0]!.evaluator?.type), params: (list[0]!.evaluator?.params ?? []).map(Number) };
    input = String(list[0]!.query?.params?.[0] ?? '');
    reducer = String(list[0]!.reducer?.type ?? 'last');
  } else {
    return { field: 'condition', value: model.type ?? condition.datasourceUid, why: `a ${String(model.type ?? 'query')} condition: expected a threshold, a math comparison or a classic condition` };
  }
  let source = nodes.get(input);
  if (!reducer && source?.model?.type === 'reduce') {
    reducer = String(source.model.reducer ?? 'last');
    source = nodes.get(refOf(source.model.expression));
  }
  const target = source?.model?.target ?? source?.model?.targetFull;
  if (!source || typeof target !== 'string' || target.trim() === '') {
    return { field: 'data', value: source?.model ?? input, why: 'the condition does not read one Graphite query (a `target`): other data sources are not imported' };
  }
  if ((source.relativeTimeRange?.to ?? 0) !== 0) return { field: 'relativeTimeRange.to', value: source.relativeTimeRange?.to, why: 'a range that ends before now' };
  return { target: target.trim(), reducer: normaliseReducer(reducer ?? 'last'), rangeSeconds: source.relativeTimeRange?.from ?? 600, evaluator };
}

function refOf(expression: unknown): string {
  return String(expression ?? '').replace(/^\$\{?/, '').replace(/\}$/, '').trim();
}

function normaliseReducer(reducer: string): string {
  return reducer === 'avg' ? 'mean' : reducer;
}

const MOVING: Record<string, string> = { mean: 'movingAverage', max: 'movingMax', min: 'movingMin', sum: 'movingSum', median: 'movingMedian' };

/** The alert's criteria: the reduce as a window or a moving function, the evaluator as thresholds. */
function criteriaOf(check: Check, forSeconds: number): ReturnType<typeof composeCriteria> {
  const [low, high] = check.evaluator.params;
  const type = check.evaluator.type;
  const rising = type === 'gt' || type === 'gte';
  const falling = type === 'lt' || type === 'lte';
  // Every point of the range above (below) the threshold is what min > N (max < N) says: alertform's own window.
  const windowed = (check.reducer === 'min' && rising) || (check.reducer === 'max' && falling);
  let metric = check.target;
  let windowSeconds = forSeconds;
  if (windowed) windowSeconds += check.rangeSeconds;
  else if (check.reducer !== 'last') {
    const fn = MOVING[check.reducer];
    if (!fn) return { why: `the ${check.reducer} reducer has no Graphite equivalent alertform can judge` };
    metric = `${fn}(${check.target}, '${windowText(check.rangeSeconds)}')`;
  }
  const minutes = windowSeconds > 0 ? Math.ceil(windowSeconds / 60) : null;
  if (!Number.isFinite(low)) return { why: `the ${type} evaluator has no number` };
  const tree = (): ThresholdTree | { why: string } => {
    if (rising || falling) return single({ metric, op: type === 'gt' ? '>' : type === 'gte' ? '>=' : type === 'lt' ? '<' : '<=', value: low! });
    if (!Number.isFinite(high)) return { why: `the ${type} evaluator needs two numbers` };
    const [a, b] = low! <= high! ? [low!, high!] : [high!, low!];
    if (type === 'within_range' || type === 'within_range_included') {
      const inclusive = type === 'within_range_included';
      return { kind: 'and', left: single({ metric, op: inclusive ? '>=' : '>', value: a }), right: single({ metric, op: inclusive ? '<=' : '<', value: b }) };
    }
    return { why: `the ${type} evaluator` };
  };
  if (type === 'outside_range' || type === 'outside_range_included') {
    const [a, b] = low! <= high! ? [low!, high!] : [high!, low!];
    return {
      metric,
      alert_criteria: { type: 'outside_bounds', below_value: a, above_value: b, ...(minutes ? { time_period: minutes } : {}) },
      inclusive: type === 'outside_range_included',
    };
  }
  const built = tree();
  return 'why' in built ? built : composeCriteria(built, minutes);
}

function windowText(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60}min` : `${seconds}s`;
}

function durationOf(text: unknown): number | null {
  if (text === undefined || text === null || text === '' || text === '0' || text === 0) return 0;
  const ms = durationMs(String(text), { allowZero: true });
  return ms === undefined ? null : Math.round(ms / 1000);
}

/** Annotations as the alert's info: summary, description, runbook, then the rest as `key: value` lines. */
function infoOf(annotations: Record<string, string> | undefined, mapped: ImportedRule): string | null {
  if (!annotations || typeof annotations !== 'object') return null;
  const lines: string[] = [];
  const { summary, description, runbook_url: runbook, __dashboardUid__: dashboard, __panelId__: panel, ...rest } = annotations;
  if (summary) lines.push(String(summary));
  if (description) lines.push(String(description));
  if (runbook) lines.push(`Runbook: ${String(runbook)}`);
  for (const [key, value] of Object.entries(rest)) lines.push(`${key}: ${String(value)}`);
  if (dashboard) mapped.comments.push(`dashboard ${String(dashboard)}${panel ? `, panel ${String(panel)}` : ''}`);
  return lines.length > 0 ? lines.join('\n').slice(0, 16384) : null;
}

function mapNoData(rule: GrafanaRule, alert: ImportedAlert, drop: (field: string, value: unknown, why: string) => void): void {
  const state = rule.noDataState ?? 'NoData';
  const policy: Record<string, OnNoData> = { NoData: 'notify', Alerting: 'alerting', OK: 'ignore', KeepLast: 'ignore' };
  if (!(state in policy)) return drop('noDataState', state, 'not a state the importer knows');
  alert.on_no_data = policy[state]!;
  if (state === 'KeepLast') drop('noDataState', state, "alertform has no 'keep the last state': no data is shown as no data and nobody is told");
}

function mapErrors(rule: GrafanaRule, alert: ImportedAlert, drop: (field: string, value: unknown, why: string) => void): void {
  const state = rule.execErrState ?? 'Error';
  const wanted: Record<string, OnQueryFailure> = { Error: 'notify', Alerting: 'notify', OK: 'ignore', KeepLast: 'ignore' };
  if (!(state in wanted)) return drop('execErrState', state, 'not a state the importer knows');
  if (state === 'KeepLast') drop('execErrState', state, "alertform has no 'keep the last state': a failed query changes no state");
  if (callsFunction(alert.metric)) {
    // notify is the default for function queries: written only when it differs.
    if (wanted[state] === 'ignore') alert.on_query_failure = 'ignore';
  } else if (wanted[state] === 'notify') {
    drop('execErrState', state, 'on_query_failure applies to function queries only: a failed plain query is recorded in history, nobody is paged');
  }
}

function mapRouting(rule: GrafanaRule, alert: ImportedAlert, receivers: ReadonlyMap<string, string[]> | null, drop: (field: string, value: unknown, why: string) => void): void {
  const settings = rule.notification_settings;
  if (!settings || typeof settings !== 'object') {
    drop('notification_settings', null, "routed by Grafana's notification policies (not in the export): the alert goes to the default channel, Email me");
    alert.notification_type = ['every', 240];
    return;
  }
  const receiver = typeof settings.receiver === 'string' ? settings.receiver : '';
  const channels = receivers?.get(receiver);
  if (channels && channels.length > 0) alert.notification_channels = [...channels].sort();
  else drop('notification_settings.receiver', receiver, receivers ? 'the contact point has no integration that maps to a channel: the alert goes to Email me' : 'no contact points were given (pass the contact points export): the alert goes to Email me');
  // Grafana repeats a firing alert every repeat_interval (default 4h): alertform's reminders do the same.
  const repeat = settings.repeat_interval === undefined ? 4 * 3600 : durationOf(settings.repeat_interval);
  alert.notification_type = ['every', Math.max(1, Math.round((repeat ?? 4 * 3600) / 60))];
  for (const [field, value] of Object.entries(settings)) {
    if (field === 'receiver' || field === 'repeat_interval') continue;
    drop(`notification_settings.${field}`, value, field === 'mute_time_intervals' ? 'mute timings are not in the rule export: add scheduled mutes' : 'alertform groups by channel group_by, not per rule');
  }
}
