import type { AdditionalCriterion, AlertCriteria, ChannelType, MessageTemplate, NotificationType, OpsgeniePriority, PagerdutySeverity } from '../model/types.js';
import type { Truth, TriggeredMetric } from '../evaluation/judge-alert.js';
import type { NotificationEvent } from '../evaluation/transitions.js';
import type { EscalationNote } from '../evaluation/escalation.js';
import type { Acknowledgement } from '../model/acknowledgement.js';

/** The alert fields notifications show. */
export interface NotifiedAlert {
  id: string;
  name: string;
  metric: string;
  alert_criteria: AlertCriteria;
  additional_criteria: Record<string, AdditionalCriterion>;
  expression: string;
  info: string | null;
  notification_type: NotificationType;
  /** Extensions; absent in notifications written before they existed (the notifiers' defaults then). */
  pagerduty_severity?: PagerdutySeverity | null;
  opsgenie_priority?: OpsgeniePriority | null;
}

/** One condition (letter) of a composite alert as it stood when the notification was made. */
export interface NotifiedCondition {
  letter: string;
  metric: string;
  criteria: AlertCriteria;
  state: Truth;
  triggered: TriggeredMetric[];
}

/** A notification about one alert, independent of the channel it goes to. */
export interface Notification {
  event: NotificationEvent;
  alert: NotifiedAlert;
  /** The metrics the notification is about: breaching ones, recovered ones, or failed queries. */
  triggered: TriggeredMetric[];
  conditions: NotifiedCondition[];
  /**
   * A PNG of the alert's graph for people: a signed, expiring link to this server (set at send time, with
   * --public-url; null without). Never Graphite's own URL, which is internal.
   */
  graphUrl: string | null;
  /** The alert's page in the console (set at send time, with --public-url). */
  consoleUrl?: string;
  /** Unix seconds. */
  time: number;
  /**
   * The alerting episode (its start, unix seconds; null for one older than this field) of an alerting or reminder
   * notification: the acknowledgement link is bound to it.
   */
  episode?: number | null;
  /**
   * When the episode this notification is about began (unix seconds): the alerting episode of alerting, reminder,
   * escalation, acknowledged and recovered notifications, the failure of query_failed. Null or absent: unknown
   * (a notification written before this field, or an event with no episode). The webhook's `started_at`.
   */
  startedAt?: number | null;
  /** A signed, expiring one-click link that acknowledges the episode (set at send time, with --public-url); templates' `links.ack`. */
  ackUrl?: string;
  /** For `acknowledged`: who, why, when and until when. */
  acknowledgement?: Acknowledgement;
  /** For query_failed: why. */
  failure?: string;
  /** For escalated: which step of the alert's escalation this is (1-based, of how many, after how many minutes). */
  escalation?: EscalationNote;
  /** For `flapping`: how many state changes in what window made the flap guard speak. */
  flapping?: { changes: number; window_minutes: number };
  /** For `throttled_summary`: what the channel's throttle held back in the window that ended. */
  throttled?: ThrottledSummary;
  /** For `grouped`: the notifications of one group of a channel that groups by path nodes. */
  grouped?: GroupedSummary;
  /** A test of the channel (POST /v2/notifications/{id}/test/): every notifier marks it as one. */
  test?: boolean;
  /** For a test: the id of the account that asked for it, said in a line no template can remove. */
  testRequestedBy?: string;
  /**
   * The outbox row this is sent from: the same on every retry, so receivers can drop repeats (webhook body `id`
   * and `Idempotency-Key`, email Message-ID). Absent when sending outside the outbox (tests).
   */
  deliveryId?: string;
}

/** What a `throttled_summary` notification lists (times in unix seconds). */
export interface ThrottledSummary {
  channel: string;
  max_notifications: number;
  window_minutes: number;
  window_start: number;
  window_end: number;
  /** How many were held in the window (the list may be shorter: at most THROTTLED_LIST_LIMIT). */
  held_count: number;
  held: { alert_id: string; alert_name: string; event: string; metric: string; value: number | null; time: number }[];
}

/** What a `grouped` notification lists: how many, and the first GROUPED_LIST_LIMIT (times in unix seconds). */
export interface GroupedSummary {
  channel: string;
  /** The group's path nodes, joined by "." (`dc1`). */
  group_key: string;
  /** The group's own id, the same on every message of the group (alerting and recovery alike): `group:dc1`. */
  group_id: string;
  /** The channel's group_by nodes (0-based indexes of the series' path) the key is made of. */
  nodes: number[];
  count: number;
  members: { alert_id: string; alert_name: string; series: string; event: string; value: number | null; time: number }[];
}

/**
 * The channel fields a delivery needs, as the outbox's claim reads them (ClaimedDelivery.channel) and the notifiers
 * take them. `destination` is a secret: it never reaches a log or an error.
 */
export interface DeliveryChannel {
  id: string;
  type: ChannelType;
  description: string;
  destination: string;
  /** PagerDuty and VictorOps: recoveries resolve the incident (the API's auto_resolve). */
  autoResolve: boolean;
  /** The channel's message template; null or absent: the default message. */
  template?: MessageTemplate | null;
}
