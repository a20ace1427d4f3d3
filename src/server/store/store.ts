import type { PendingDeliveryBound } from './pending-bound.js';
import type {
  AdditionalCriterion,
  AlertCriteria,
  ChannelType,
  MessageTemplate,
  NotificationType,
  OnQueryFailure,
  OpsgeniePriority,
  PagerdutySeverity,
  OnNoData,
  Weekday,
} from '../../model/types.js';
import type { EscalationStep } from '../../evaluation/escalation.js';
import type { ChannelThrottle, FlapGuard } from '../../model/noise-control.js';
import type { ConsoleStore } from './console-store.js';
import type { OutboxStore } from './outbox.js';
import type { AlertSummary, StateFactsGroup } from './alert-summary.js';
import type { Acknowledgement, AckStore } from './ack-store.js';
import type { EvaluationStore } from '../evaluator/evaluation-store.js';
import type { AccountChanges } from './account-changes.js';
import type { WindowStore } from './window-store.js';

/**
 * The server's storage, one interface for every backend (SQLite, PostgreSQL). Every method is scoped to one account
 * except the evaluator's (EvaluationStore, appendHistory) and the outbox's, which work across
 * accounts. Methods are async so that a networked backend can implement the same interface. A method that returns
 * without throwing has made its write durable.
 */
export interface Store extends EvaluationStore, OutboxStore, ConsoleStore, AckStore {
  /** Each account's bound on pending deliveries, applied where deliveries are written (both backends have one). */
  readonly pendingBound?: PendingDeliveryBound;
  // Accounts and API keys.
  /** A new account with its `Email me` channel (destination = email, or "" when there is none). */
  createAccount(email: string | null): Promise<AccountRecord>;
  findAccountByEmail(email: string): Promise<AccountRecord | null>;
  /** Stores the SHA-256 of `key` for the account; the key itself is never stored. */
  addApiKey(accountId: string, key: string): Promise<ApiKeyRecord>;
  /** The key record of a key (revoked or not); null when unknown. */
  findApiKey(key: string): Promise<ApiKeyRecord | null>;
  /** The account of a key that exists and is not revoked. */
  findAccountByKey(key: string): Promise<AccountRecord | null>;
  /** Confines an account's queries to metric prefixes (`keys create --metric-prefix`); [] lifts the confinement. */
  setMetricPrefixes(accountId: string, prefixes: string[]): Promise<void>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; false when no key has that id. */
  revokeApiKey(keyId: string): Promise<boolean>;
  /** Tells when accounts or keys may have changed (the API's key cache); one per store, closed with it. */
  accountChanges?(): AccountChanges;

  // Alerts.
  /** Throws UniqueViolation when the account has an alert of that name. */
  createAlert(accountId: string, alert: AlertWrite): Promise<AlertRecord>;
  getAlert(accountId: string, id: string): Promise<AlertRecord | null>;
  /** Replaces every writable field; null when the alert does not exist. Throws UniqueViolation on a rename clash. */
  updateAlert(accountId: string, id: string, alert: AlertWrite): Promise<AlertRecord | null>;
  deleteAlert(accountId: string, id: string): Promise<boolean>;
  /** (names OR ids) AND search; oldest first; one page. */
  searchAlerts(accountId: string, query: AlertQuery): Promise<Page<AlertRecord>>;
  /**
   * Sets muted_until (epoch ms, or null to unmute) on the alerts that match the selector (union of ids and search;
   * both empty = all) in one transaction, and answers their ids. When an id in `selector.ids` is unknown nothing
   * changes and its ids come back in `missing`.
   */
  setMutedUntil(accountId: string, selector: AlertSelector, mutedUntil: number | null): Promise<SelectResult>;

  // Notification channels.
  createChannel(accountId: string, channel: ChannelWrite): Promise<ChannelRecord>;
  getChannel(accountId: string, id: string): Promise<ChannelRecord | null>;
  /** Channels of the account whose id or description equals one of `refs` (ids win over descriptions). */
  findChannelsByRefs(accountId: string, refs: string[]): Promise<ChannelRecord[]>;
  updateChannel(accountId: string, id: string, channel: ChannelWrite): Promise<ChannelRecord | null>;
  /**
   * Deletes the channel and removes it from every alert; an alert left without channels gets `Email me` back.
   * null when the channel does not exist.
   */
  deleteChannel(accountId: string, id: string): Promise<{ alertsChanged: number } | null>;
  searchChannels(accountId: string, query: ChannelQuery): Promise<Page<ChannelRecord>>;

  // Scheduled mutes.
  createSchedule(accountId: string, schedule: ScheduleWrite): Promise<ScheduleRecord>;
  getSchedule(accountId: string, id: string): Promise<ScheduleRecord | null>;
  /** The account's schedules among `ids` (unknown ids are simply absent). */
  getSchedulesByIds(accountId: string, ids: string[]): Promise<ScheduleRecord[]>;
  updateSchedule(accountId: string, id: string, schedule: ScheduleWrite): Promise<ScheduleRecord | null>;
  /** Deletes the schedule and removes it from every alert's scheduled_mutes. */
  deleteSchedule(accountId: string, id: string): Promise<boolean>;
  searchSchedules(accountId: string, query: ScheduleQuery): Promise<Page<ScheduleRecord>>;

  /** Maintenance windows (the `windows` concern: window-store.ts). */
  readonly windows: WindowStore;

  // History.
  /** Entries of the account's alerts, newest first: the public kinds only (PUBLIC_HISTORY_STATUSES). */
  searchHistory(accountId: string, query: HistoryQuery): Promise<HistoryRecord[]>;

  // The evaluator's side (all accounts): EvaluationStore (list by lease, fenced save, the evaluation leases).
  /** Appends history entries (their account is the alert's); entries of deleted alerts are dropped. */
  appendHistory(entries: NewHistoryEntry[]): Promise<void>;

  // Operations (optional: /readyz and /metrics report "unknown" for a store without them).
  /** Whether the database answers and its schema is at this code's version; throws when it cannot be reached. */
  checkReadiness?(): Promise<StoreReadiness>;
  /** How many alerts have each status, over all accounts. */
  countAlertsByStatus?(): Promise<Record<string, number>>;
  /** The alerts of all accounts grouped by what their state depends on (model/alert-state.ts), for /metrics. */
  countAlertStateFacts?(): Promise<StateFactsGroup[]>;
  /**
   * How many replicas evaluate now (their evaluation heartbeat has not expired), for a replica without an evaluator
   * of its own to tell whether anything evaluates its alerts. Absent on a single-node store.
   */
  countLiveEvaluators?(): Promise<number>;
  /** Every alert of the account, reduced to what the console's overview filters and sorts on; oldest first. */
  listAlertSummaries?(accountId: string): Promise<AlertSummary[]>;

  close(): Promise<void>;
}

/** What /readyz asks the store. */
export interface StoreReadiness {
  /** Schema version of the database, and the one this code expects. */
  schemaVersion: number;
  expectedSchemaVersion: number;
}

export interface AccountRecord {
  id: string;
  email: string | null;
  /** ISO 8601. */
  createdAt: string;
  /**
   * Metric path prefixes the account's queries must stay inside (`alertform keys create --metric-prefix`);
   * absent or empty: not confined (one Graphite is then one trust domain).
   */
  metricPrefixes?: string[];
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  email: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/** What the server writes for an alert: already validated and normalised (canonical expression, channel ids). */
export interface AlertWrite {
  name: string;
  metric: string;
  alertCriteria: AlertCriteria;
  additionalCriteria: Record<string, AdditionalCriterion>;
  expression: string;
  /** Channel ids, in order. */
  notificationChannels: string[];
  notificationType: NotificationType;
  /** Schedule ids, in order. */
  scheduledMutes: string[];
  info: string | null;
  onQueryFailure: OnQueryFailure;
  /** Escalation steps (channel ids), ascending by after_minutes; absent or [] for none (an extension). */
  escalation?: EscalationStep[];
  /** Extension (noise control); absent or null: none. */
  flapGuard?: FlapGuard | null;
  /** Extensions (message templates): null or absent, the notifiers' defaults. */
  pagerdutySeverity?: PagerdutySeverity | null;
  opsgeniePriority?: OpsgeniePriority | null;
  /** Extension: the alert's settle delay in seconds; null or absent: the server's (--settle-delay). */
  settleSeconds?: number | null;
  /** Extension: what no data does; null or absent: the server's default (--on-no-data). */
  onNoData?: OnNoData;
}

/** An alert as stored: what was written plus the evaluator's state. */
export interface AlertRecord extends AlertWrite {
  escalation: EscalationStep[];
  id: string;
  accountId: string;
  /** `healthy` until the evaluator says otherwise. */
  status: string;
  currentlyTriggeredMetrics: string[];
  /** Epoch ms until which the alert is muted by hand; null when not. Expiry is judged on read. */
  mutedUntil: number | null;
  /** The evaluator's opaque per-alert state (JSON); null until it saves one. */
  evalState: unknown;
  createdAt: string;
  /** Who acknowledged the current alerting episode (POST /v2/alerts/{id}/ack/); null when nobody did. */
  acknowledgement: Acknowledgement | null;
}

export interface AlertQuery {
  names: string[];
  ids: string[];
  /** Case-insensitive substring of name, metric or a channel's description. */
  search: string | null;
  page: number;
  max: number;
}

export interface AlertSelector {
  ids: string[];
  search: string | null;
}

export type SelectResult = { ids: string[]; missing: string[] };

export interface ChannelWrite {
  type: ChannelType;
  description: string;
  destination: string;
  autoResolve: boolean;
  /** Extension (noise control); absent or null: none. */
  throttle?: ChannelThrottle | null;
  /** Extension: the channel's message template; null or absent, the default message. */
  template?: MessageTemplate | null;
}

export interface ChannelError {
  /** Epoch seconds. */
  time: number;
  message: string;
}

export interface ChannelRecord extends ChannelWrite {
  id: string;
  accountId: string;
  lastError: ChannelError | null;
}

export interface ChannelQuery {
  types: string[];
  descriptions: string[];
  ids: string[];
  autoResolve: boolean | null;
  page: number;
  max: number;
}

export interface ScheduleWrite {
  name: string;
  startTime: string;
  duration: number;
  timezone: string;
  repeat: Weekday[];
  /** Epoch ms from which a one-time schedule's next start_time is counted (its creation or last timing change). */
  anchor: number;
}

export interface ScheduleRecord extends ScheduleWrite {
  id: string;
  accountId: string;
  /** Ids of the alerts that reference it. */
  alerts: string[];
}

/** A schedule search: every criterion is OR-ed (the public docs' semantics); all empty lists every schedule. */
export interface ScheduleQuery {
  names: string[];
  ids: string[];
  /** Minutes. */
  durations: number[];
  /** "HH:MM". */
  startTimes: string[];
  /** Normalised spellings ("UTC", "UTC+2", "UTC-5:30"), as stored. */
  timezones: string[];
  /** Week days: schedules repeating on any of them. */
  repeat: string[];
  page: number;
  max: number;
}

export interface HistoryQuery {
  alertIds: string[];
  /** Epoch seconds: entries at or after. */
  since: number;
  status: string | null;
  value: number | null;
}

export interface HistoryRecord {
  alertId: string;
  status: string;
  value: number | null;
  /** Epoch seconds. */
  time: number;
  metric: string;
}

/**
 * A history entry to store. Besides the public statuses, the console's kinds (muted, unmuted, notification_sent,
 * notification_suppressed) carry the channel concerned and why.
 */
export interface NewHistoryEntry extends HistoryRecord {
  channelId?: string | null;
  reason?: string | null;
}

/**
 * The evaluation partitions a replica holds. An alert's partition is a stable hash of its id (alertPartition);
 * `tokens` maps each held partition to its fencing token, which grows every time the partition changes hands.
 */
export interface EvaluationLease {
  replica: string;
  /** null: every alert (a single-node store). */
  tokens: Map<number, number> | null;
  partitionCount: number;
}

/** The evaluation partition of an alert: its id's first 8 hex digits modulo the partition count. */
export function alertPartition(alertId: string, partitionCount: number): number {
  const prefix = Number.parseInt(alertId.slice(0, 8), 16);
  return Number.isNaN(prefix) ? 0 : prefix % partitionCount;
}

export interface Page<T> {
  items: T[];
  nextPage: boolean;
}

/** The channel every new account gets, so that an alert's default notification_channels resolves. */
export { DEFAULT_CHANNEL } from '../../model/defaults.js';

/**
 * The database cannot be reached (refused, cut, restarting, out of connections). The API answers 503
 * `unavailable`; the store recovers by itself once the database is back. The message never carries the URL.
 */
export class StoreUnavailable extends Error {
  constructor(options: { cause?: unknown } = {}) {
    super('the database is unavailable', options);
    this.name = 'StoreUnavailable';
  }
}

/**
 * A fenced saveEvaluations found that a partition of its lease has moved to another replica: nothing of the round
 * is saved (and so nothing of it is notified). The new owner evaluates the moved alerts; this replica evaluates
 * its own again at its next cycle, from the state that is still the last committed one.
 */
export class LeaseLost extends Error {
  constructor(readonly partitions: number[]) {
    super(`evaluation lease lost for partition(s) ${partitions.join(', ')}: the round is not saved`);
    this.name = 'LeaseLost';
  }
}

/** A write that would break a per-account uniqueness rule (alert name, channel description, schedule name). */
export class UniqueViolation extends Error {
  constructor(
    readonly field: string,
    readonly value: string,
  ) {
    super(`${field} "${value}" already exists`);
    this.name = 'UniqueViolation';
  }
}
