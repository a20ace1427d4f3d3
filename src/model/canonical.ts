import { callsFunction } from './graphite-target/target.js';
import { DEFAULT_NOTIFICATION_TYPE } from './defaults.js';
import { GROUP_BY_DEFAULTS, type ChannelThrottle, type DependsOnItem, type FlapGuard } from './noise-control.js';
import type { WindowMatch } from './maintenance-window.js';
import type {
  AlertCriteria,
  ChannelType,
  CriteriaType,
  MessageTemplate,
  NotificationType,
  NotificationTypeInput,
  OnNoData,
  OnQueryFailure,
  OpsgeniePriority,
  PagerdutySeverity,
  Weekday,
} from './types.js';

/**
 * The one normal form of each resource: what the server stores and what the planner compares. A definition that
 * was just applied plans as no-op because both sides go through these functions.
 */

/** Criteria in canonical form: only the values that are set; time_period absent when instantaneous. */
export interface CanonicalCriteria {
  type: CriteriaType;
  above_value?: number;
  below_value?: number;
  time_period?: number;
}

/**
 * An alert in the one form both sides are compared in: defaults filled, references by name (sorted), letters lower
 * case, expression canonical, notification_type in list form.
 */
export interface CanonicalAlert {
  name: string;
  metric: string;
  alert_criteria: CanonicalCriteria;
  additional_criteria: Record<string, CanonicalCriteria & { metric: string }>;
  expression: string;
  notification_channels: string[];
  notification_type: NotificationType;
  scheduled_mutes: string[];
  info: string;
  on_query_failure: OnQueryFailure;
  /** Escalation steps (an extension), channels by name (sorted); absent when there are none. */
  escalation?: CanonicalEscalationStep[];
  /** Extension: absent when the alert has none (so plans of alerts without one read as before). */
  flap_guard?: FlapGuard;
  /** Extensions: null is the notifiers' default. */
  pagerduty_severity: PagerdutySeverity | null;
  opsgenie_priority: OpsgeniePriority | null;
  /** Extension: absent when null (the server's settle delay), so plans of alerts without one read as before. */
  settle_seconds?: number;
  /** Extension: null is the server's default policy. */
  on_no_data: OnNoData;
  /** Extension (noise control): parents by name, sorted; absent when there are none. */
  depends_on?: CanonicalDependency[];
}

/** One parent in canonical form: by name; `parent_nodes` only when it differs from `nodes` (its default). */
export interface CanonicalDependency {
  alert: string;
  nodes?: number[];
  parent_nodes?: number[];
}

/** A channel's group_by with its defaults filled. */
export interface CanonicalGroupBy {
  nodes: number[];
  wait_seconds: number;
  interval_seconds: number;
}

/** One escalation step in canonical form: minutes, channel names sorted and unique. */
export interface CanonicalEscalationStep {
  after_minutes: number;
  notification_channels: string[];
}

export interface CanonicalChannel {
  description: string;
  type: ChannelType;
  destination: string;
  auto_resolve: boolean;
  /** Extension: absent when the channel has none. */
  throttle?: ChannelThrottle;
  /** Extension: null is the default message; only the parts that are set. */
  template: MessageTemplate | null;
  /** Extension (noise control): absent when the channel has none. */
  group_by?: CanonicalGroupBy;
}

export interface CanonicalSchedule {
  name: string;
  start_time: string;
  duration: number;
  timezone: string;
  repeat: Weekday[];
}

/**
 * A maintenance window in the one form both sides are compared in: channels by name and every pattern list sorted,
 * `starts_at` as a UTC instant (the server may answer another offset for the same instant), the recurring fields
 * null/[] on a one-off window.
 */
export interface CanonicalMaintenanceWindow {
  name: string;
  reason: string | null;
  match: WindowMatch;
  starts_at: string | null;
  start_time: string | null;
  repeat: Weekday[];
  timezone: string;
  duration: number;
}

export type CanonicalResource = CanonicalAlert | CanonicalChannel | CanonicalSchedule | CanonicalMaintenanceWindow;

/**
 * depends_on in canonical form, each parent named through `name` (a definition's reference or a read's id), sorted
 * by parent; null, [] and absent all mean none (undefined).
 */
export function canonicalDependsOn(items: readonly (string | DependsOnItem)[] | null | undefined, name: (ref: string, index: number) => string): CanonicalDependency[] | undefined {
  if (!items || items.length === 0) return undefined;
  const out = items.map((item, i): CanonicalDependency => {
    if (typeof item === 'string') return { alert: name(item, i) };
    const dependency: CanonicalDependency = { alert: name(item.alert, i) };
    if (item.nodes?.length) {
      dependency.nodes = [...item.nodes];
      if (item.parent_nodes?.length && item.parent_nodes.join('.') !== item.nodes.join('.')) dependency.parent_nodes = [...item.parent_nodes];
    }
    return dependency;
  });
  // A total order (a parent may be named twice, with and without nodes), so either side's order compares equal.
  const key = (d: CanonicalDependency) => `${d.alert}\u0000${d.nodes?.join('.') ?? ''}\u0000${d.parent_nodes?.join('.') ?? ''}`;
  return out.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
}

/** group_by with its defaults filled; null and absent mean none (undefined). */
export function canonicalGroupBy(value: { nodes: number[]; wait_seconds?: number; interval_seconds?: number } | null | undefined): CanonicalGroupBy | undefined {
  if (!value) return undefined;
  return {
    nodes: [...value.nodes],
    wait_seconds: value.wait_seconds ?? GROUP_BY_DEFAULTS.waitSeconds,
    interval_seconds: value.interval_seconds ?? GROUP_BY_DEFAULTS.intervalSeconds,
  };
}

/** A window's match with each list sorted and unique, channels named through `channel`; empty lists left out. */
export function canonicalWindowMatch(match: WindowMatch, channel: (ref: string, index: number) => string): WindowMatch {
  const sorted = (values: readonly string[]) => [...new Set(values)].sort();
  const out: WindowMatch = {};
  if (match.alert_names?.length) out.alert_names = sorted(match.alert_names);
  if (match.metrics?.length) out.metrics = sorted(match.metrics);
  if (match.channels?.length) out.channels = sorted(match.channels.map(channel));
  return out;
}

/** A one-off window's start as a UTC instant without milliseconds; text that is no time stays as it is, to show as a diff. */
export function canonicalStartsAt(value: string | null | undefined): string | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** Criteria with only the values that are set; an absent, null, "" or zero time_period means instantaneous. */
export function canonicalCriteria(c: AlertCriteria): CanonicalCriteria {
  const out: CanonicalCriteria = { type: c.type };
  if (typeof c.above_value === 'number') out.above_value = c.above_value;
  if (typeof c.below_value === 'number') out.below_value = c.below_value;
  if (typeof c.time_period === 'number' && c.time_period > 0) out.time_period = c.time_period;
  return out;
}

/**
 * Additional criteria keyed by lower-case letter, in letter order. Of two keys that differ only by case the later
 * wins (the rules refuse such a body anyway).
 */
export function canonicalAdditionalCriteria(
  value: Readonly<Record<string, AlertCriteria & { metric: string }>> | undefined,
): CanonicalAlert['additional_criteria'] {
  if (!value) return {};
  // Most alerts have none: no entries to list and sort.
  let any = false;
  for (const _key in value) {
    any = true;
    break;
  }
  if (!any) return {};
  const entries = Object.entries(value).map(([key, criterion]) => [key.toLowerCase(), criterion] as const);
  entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  const out: CanonicalAlert['additional_criteria'] = {};
  for (const [letter, criterion] of entries) out[letter] = { ...canonicalCriteria(criterion), metric: criterion.metric };
  return out;
}

/** `state_change`, `['state_change']`, `['every', N]`, or empty (= the default, every 60) in list form. */
export function canonicalNotificationType(value: NotificationTypeInput | undefined): NotificationType {
  if (value === 'state_change') return ['state_change'];
  if (!Array.isArray(value) || value.length === 0) return [...DEFAULT_NOTIFICATION_TYPE] as NotificationType;
  if (value[0] === 'state_change') return ['state_change'];
  return ['every', Number(value[1])];
}

/**
 * Whether the alert's queries (its metric or any additional criterion's) call a graphite function such as
 * `sumSeries(`: only such queries can fail as a query, which is what makes on_query_failure meaningful.
 */
export function usesGraphiteFunction(metric: string, additional: Readonly<Record<string, { metric: string }>> = {}): boolean {
  return callsFunction(metric) || Object.values(additional).some((criterion) => callsFunction(criterion.metric));
}

/** on_query_failure when a write leaves it out: `notify` for function queries, nothing otherwise. */
export function defaultOnQueryFailure(metric: string, additional?: Readonly<Record<string, { metric: string }>>): OnQueryFailure {
  return usesGraphiteFunction(metric, additional) ? 'notify' : null;
}

/** on_query_failure as written, or its default when left out. */
export function canonicalOnQueryFailure(
  value: OnQueryFailure | undefined,
  metric: string,
  additional?: Readonly<Record<string, { metric: string }>>,
): OnQueryFailure {
  return value !== undefined ? value : defaultOnQueryFailure(metric, additional);
}

/** A template with only the parts that are set; none set (or no template) is null, the default message. */
export function canonicalTemplate(template: MessageTemplate | null | undefined): MessageTemplate | null {
  if (!template) return null;
  const out: MessageTemplate = {};
  if (typeof template.title === 'string') out.title = template.title;
  if (typeof template.body === 'string') out.body = template.body;
  return Object.keys(out).length > 0 ? out : null;
}

/** A channel's destination as stored: surrounding white space is not part of an address, key or URL. */
export function canonicalDestination(destination: string): string {
  return destination.trim();
}

const WEEK: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Repeat days as a set, Monday first. */
export function canonicalWeekdays(repeat: readonly Weekday[] | undefined): Weekday[] {
  return WEEK.filter((day) => (repeat ?? []).includes(day));
}
