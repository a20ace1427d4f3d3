import type { ChannelGroupBy, ChannelThrottle, DependsOnItem, FlapGuard } from './noise-control.js';

/**
 * The /v2 API's resources, as the seed and ../shared/design/api-semantics.md define them. Shared by the client,
 * the planner and the server, so that all three speak one shape.
 */

export type CriteriaType = 'above' | 'below' | 'outside_bounds' | 'missing';

/** Criteria of letter `a`. time_period is minutes; absent, null or "" means instantaneous. */
export interface AlertCriteria {
  type: CriteriaType;
  above_value?: number;
  below_value?: number;
  time_period?: number | null | '';
}

/** A criterion of a composite alert, keyed by its letter in `additional_criteria`. */
export interface AdditionalCriterion extends AlertCriteria {
  metric: string;
}

/** `["state_change"]` or `["every", minutes]` as read; writes also accept the string and empty forms. */
export type NotificationType = ['state_change'] | ['every', number];
export type NotificationTypeInput = NotificationType | 'state_change' | [] | '' | null;

export type OnQueryFailure = null | 'ignore' | 'notify';

export type { ChannelGroupBy, ChannelThrottle, DependsOnItem, FlapGuard } from './noise-control.js';
export type { MaintenanceWindowBody, MaintenanceWindowRead, WindowMatch } from './maintenance-window.js';
/** Extension: the severity of an alert's PagerDuty events (default: critical, query failures error). */
export type PagerdutySeverity = 'critical' | 'error' | 'warning' | 'info';
export const PAGERDUTY_SEVERITIES: readonly PagerdutySeverity[] = ['critical', 'error', 'warning', 'info'];
/** Extension: the priority of an alert's OpsGenie alerts (default: P1, query failures P3). */
export type OpsgeniePriority = 'P1' | 'P2' | 'P3' | 'P4' | 'P5';
export const OPSGENIE_PRIORITIES: readonly OpsgeniePriority[] = ['P1', 'P2', 'P3', 'P4', 'P5'];

/**
 * Extension: what the server does when an alert's queries answer no data (no series, or only nulls where it judges):
 * ignore (shown as no_data, nobody told), notify (a no_data notification, and one when data returns), or alerting
 * (treated as alerting). null: the server's default.
 */
export type OnNoData = 'ignore' | 'notify' | 'alerting' | null;
export const ON_NO_DATA_POLICIES = ['ignore', 'notify', 'alerting'] as const;

/**
 * Extension (read-only): what the server knows about an alert now, the one answer every surface gives (API read,
 * console, `status`, /metrics). The documented `status` keeps healthy | alerting.
 */
export type AlertState = 'healthy' | 'alerting' | 'no_data' | 'query_failing' | 'not_evaluated';
export const ALERT_STATES: readonly AlertState[] = ['alerting', 'query_failing', 'no_data', 'not_evaluated', 'healthy'];

/** Extension: a channel's message template (src/notifications/templates); an omitted part keeps the default wording. */
export interface MessageTemplate {
  title?: string;
  body?: string;
}

/** Fields of an alert a client writes (POST body; a PUT sends any subset). */
export interface AlertBody {
  name: string;
  metric: string;
  alert_criteria: AlertCriteria;
  additional_criteria?: Record<string, AdditionalCriterion>;
  expression?: string;
  scheduled_mutes?: string[];
  notification_channels?: string[];
  notification_type?: NotificationTypeInput;
  info?: string | null;
  on_query_failure?: OnQueryFailure;
  /** Extension: after N minutes alerting (and not acknowledged), notify these channels too. */
  escalation?: EscalationStepBody[];
  /** Extension (noise control): left out of a create body when null. */
  flap_guard?: FlapGuard | null;
  /** Extension (alertform): left out of a create body when null. */
  pagerduty_severity?: PagerdutySeverity | null;
  /** Extension (alertform): left out of a create body when null. */
  opsgenie_priority?: OpsgeniePriority | null;
  /** Extension (alertform): the alert's settle delay in seconds; null: the server's. Left out of a create body when null. */
  settle_seconds?: number | null;
  /** Extension (alertform): left out of a create body when null (the server's default). */
  on_no_data?: OnNoData;
  /** Extension (noise control): parents by id or name; left out of a create body when empty. */
  depends_on?: DependsOnItem[] | null;
}

/** One escalation step of the API (an alertform extension): channels by id (or, on write, description). */
export interface EscalationStepBody {
  after_minutes: number;
  notification_channels: string[];
}

export type AlertStatus = 'healthy' | 'alerting' | 'recovered';

/** An alert as read. The hosted service may omit metric, additional_criteria and expression in list reads. */
export interface AlertRead {
  id: string;
  name: string;
  metric?: string;
  alert_criteria: AlertCriteria;
  additional_criteria?: Record<string, AdditionalCriterion>;
  expression?: string;
  notification_channels: string[];
  notification_type: NotificationType | NotificationTypeInput;
  scheduled_mutes: string[];
  currently_triggered_metrics: string[];
  muted: boolean;
  status: AlertStatus | string;
  info: string | null;
  on_query_failure: OnQueryFailure;
  /** Extension (alertform's server): escalation steps, channel ids; absent from the hosted service. */
  escalation?: EscalationStepBody[];
  /** alertform extension (read-only): who acknowledged the current alerting episode; absent from the hosted API. */
  acknowledgement?: AcknowledgementRead | null;
  /** Extension (noise control): alertform's server returns it; the hosted service does not. */
  flap_guard?: FlapGuard | null;
  /** Extension: absent from servers that do not have it (the hosted service). */
  pagerduty_severity?: PagerdutySeverity | null;
  opsgenie_priority?: OpsgeniePriority | null;
  /** Extension: the alert's settle delay (seconds), null for the server's; absent from the hosted service. */
  settle_seconds?: number | null;
  /** Extension: absent from servers that do not have it (the hosted service). */
  on_no_data?: OnNoData;
  /** Extension (noise control): parents by id; absent from servers that do not have it. */
  depends_on?: DependsOnItem[] | null;
  /** Extension (read-only): the alert's state now (alertform's server); absent from the hosted service. */
  state?: AlertState;
  /** Extension (read-only): how alertform's server judges it, on the metric stream or by render polling. */
  evaluated_by?: 'stream' | 'render';
}

/** An alert's acknowledgement as the API shows it: times in unix seconds; until null = until it recovers. */
export interface AcknowledgementRead {
  by: string;
  note: string | null;
  at: number;
  until: number | null;
}

export type ChannelType = 'email' | 'pagerduty' | 'slack' | 'webhook' | 'victorops' | 'opsgenie';
export const CHANNEL_TYPES: readonly ChannelType[] = ['email', 'pagerduty', 'slack', 'webhook', 'victorops', 'opsgenie'];

export interface ChannelBody {
  type: ChannelType;
  description: string;
  destination: string;
  auto_resolve?: boolean;
  /** Extension (noise control): left out of a create body when null. */
  throttle?: ChannelThrottle | null;
  /** Extension (alertform): left out of a create body when null. */
  template?: MessageTemplate | null;
  /** Extension (noise control): left out of a create body when null. */
  group_by?: ChannelGroupBy | null;
}

export interface ChannelRead extends Required<Omit<ChannelBody, 'throttle' | 'template' | 'group_by'>> {
  id: string;
  /** Extension (noise control): alertform's server returns it; the hosted service does not. */
  throttle?: ChannelThrottle | null;
  /** Extension: absent from servers that do not have it (the hosted service). */
  template?: MessageTemplate | null;
  /** Extension (noise control): absent from servers that do not have it. */
  group_by?: ChannelGroupBy | null;
  /** Additive: the last delivery error of this channel, if its last delivery failed. */
  last_error?: { time: string; message: string } | null;
  /** Additive: notifications waiting in the outbox for this channel (absent when none). */
  pending_deliveries?: number;
  /** Additive: the age of the oldest of them, in seconds. */
  oldest_pending_seconds?: number;
}

/** A notification in the server's outbox (alertform's own /v2/deliveries/; no destination, no payload). */
export interface DeliveryRead {
  id: string;
  /** held / summarized: a notification a channel's throttle held back for its window's summary (extension). */
  state: 'pending' | 'delivered' | 'dead' | 'held' | 'summarized';
  channel: { id: string; type: string; description: string };
  alert: { id: string; name: string };
  /** alerting, reminder, recovered, query_failed, query_recovered, or test (a channel test). */
  event: string;
  attempts: number;
  /** Unix seconds, as strings like the history's times. */
  created_at: string;
  /** Null once delivered or dead. */
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  /** Why the last attempt failed (service and status, never the destination). */
  last_error: string | null;
}

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
/** The weekdays indexed as `Date#getUTCDay()` numbers them: Sunday first. */
export const WEEKDAYS_BY_UTC_DAY: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** A scheduled mute (/v2/schedules/). */
export interface ScheduleBody {
  name: string;
  /** HH:MM, 24 h, in `timezone`. */
  start_time: string;
  /** Minutes. */
  duration: number;
  /** "UTC", or an offset such as "UTC+2" or "UTC-5:30". */
  timezone?: string;
  repeat?: Weekday[];
}

export interface ScheduleRead extends Required<ScheduleBody> {
  id: string;
  /** Ids of the alerts that reference this schedule. */
  alerts: string[];
}

export interface MuteStatus {
  id: string;
  name: string;
  muted: boolean;
  /** Remaining whole minutes, rounded up; 0 when not muted. */
  duration: number;
  scheduled_mutes: string[];
  /** Extension: the maintenance window that mutes the alert now (`until`: ISO 8601); absent when none does. */
  maintenance_window?: { id: string; name: string; until: string };
}

export interface HistoryEntry {
  status: 'alerting' | 'recovered' | 'query_failed' | string;
  value: number | null;
  /** Unix seconds, as a string. */
  time: string;
  metric: string;
}

/** The error body of every 4xx/5xx of our server. */
export interface ApiErrorBody {
  error: {
    code: ApiErrorCode;
    message: string;
    details?: { path: string; message: string }[];
  };
}

export type ApiErrorCode =
  | 'unauthorized'
  | 'not_found'
  | 'invalid_body'
  | 'invalid_query'
  | 'conflict'
  | 'payload_too_large'
  | 'quota_exceeded'
  | 'rate_limited'
  | 'internal'
  | 'unavailable';

export interface CreatedResponse {
  id: string;
  url: string;
}
