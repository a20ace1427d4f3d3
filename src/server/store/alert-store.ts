import type {
  AdditionalCriterion,
  AlertCriteria,
  NotificationType,
  OnNoData,
  OnQueryFailure,
  OpsgeniePriority,
  PagerdutySeverity,
} from '../../model/types.js';
import type { EscalationStep } from '../../evaluation/escalation.js';
import type { FlapGuard } from '../../model/noise-control.js';
import type { Acknowledgement } from '../../model/acknowledgement.js';
import type { AlertSummary, StateFactsGroup } from './alert-summary.js';
import type { Page } from './page.js';
import type { StoredEvalState } from '../../evaluation/stored-state.js';
import type { DependsOnItem } from '../../model/types.js';

/** An account's alerts (the API's reads and writes), and the counts /metrics and the console's overview read. */
export interface AlertStore {
  /** Throws UniqueViolation when the account has an alert of that name. */
  createAlert(accountId: string, alert: AlertWrite): Promise<AlertRecord>;
  getAlert(accountId: string, id: string): Promise<AlertRecord | null>;
  /** Replaces every writable field; null when the alert does not exist. Throws UniqueViolation on a rename clash. */
  updateAlert(accountId: string, id: string, alert: AlertWrite): Promise<AlertRecord | null>;
  deleteAlert(accountId: string, id: string): Promise<boolean>;
  /** (names OR ids) AND search; oldest first; one page. */
  /** The account's alerts that depend on others, with their parents (ids): what a cycle check needs. */
  listDependencies(accountId: string): Promise<{ id: string; dependsOn: DependsOnItem[] }[]>;
  searchAlerts(accountId: string, query: AlertQuery): Promise<Page<AlertRecord>>;
  /**
   * Sets muted_until (epoch ms, or null to unmute) on the alerts that match the selector (union of ids and search;
   * both empty = all) in one transaction, and answers their ids. When an id in `selector.ids` is unknown nothing
   * changes and its ids come back in `missing`.
   */
  setMutedUntil(accountId: string, selector: AlertSelector, mutedUntil: number | null): Promise<SelectResult>;
  // Optional: the console's overview falls back on searchAlerts, and /metrics reports nothing, without them.
  /** Every alert of the account, reduced to what the console's overview filters and sorts on; oldest first. */
  listAlertSummaries?(accountId: string): Promise<AlertSummary[]>;
  /** How many alerts have each status, over all accounts (/metrics). */
  countAlertsByStatus?(): Promise<Record<string, number>>;
  /** The alerts of all accounts grouped by what their state depends on (model/alert-state.ts), for /metrics. */
  countAlertStateFacts?(): Promise<StateFactsGroup[]>;
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
  /** Extension (noise control): the parents (ids); absent, null or []: none. */
  dependsOn?: DependsOnItem[] | null;
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
  /** The evaluator's per-alert state as stored (its JSON text, evaluation/stored-state.ts); null until it saves one. */
  evalState: StoredEvalState | null;
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
