import type {
  AdditionalCriterion,
  AlertCriteria,
  FlapGuard,
  NotificationType,
  OnNoData,
  OnQueryFailure,
  OpsgeniePriority,
  PagerdutySeverity,
} from '../../model/types.js';
import type { TransitionHistoryEntry } from '../../evaluation/transitions.js';
import type { EscalationStep } from '../../evaluation/escalation.js';
import type { StoredEvalState } from '../../evaluation/stored-state.js';
import type { NewDelivery } from './outbox.js';
import type { MutingWindow } from './window-store.js';
import type { WindowMute } from './window-mutes.js';

/**
 * One alert as the evaluator reads it, over all accounts: the one record every backend lists (camelCase, as the
 * store's records are). `muted` and `acknowledged` are decided by the store at the cycle's time, in one place
 * (store/evaluation-alert.ts: isMutedAt and isAcknowledgedAt). Notifications carry the API's snake_case view of it,
 * built in src/notifications/notified-alert.ts.
 */
export interface EvaluationAlert {
  id: string;
  accountId: string;
  name: string;
  metric: string;
  alertCriteria: AlertCriteria;
  additionalCriteria: Record<string, AdditionalCriterion>;
  expression: string;
  /** Channel ids, in order. */
  notificationChannels: string[];
  notificationType: NotificationType;
  onQueryFailure: OnQueryFailure;
  /** Noise control: the alert's flap guard (null: none). */
  flapGuard: FlapGuard | null;
  info: string | null;
  pagerdutySeverity: PagerdutySeverity | null;
  opsgeniePriority: OpsgeniePriority | null;
  /** The alert's settle delay in seconds; null: the server's. */
  settleSeconds: number | null;
  /** What no data does for this alert; null: the server's default (the cycle's `defaultOnNoData`). */
  onNoData: OnNoData;
  status: string;
  currentlyTriggeredMetrics: string[];
  /** Muted at the cycle's time: an explicit mute not yet expired, an active scheduled mute or maintenance window. */
  muted: boolean;
  /** The maintenance window that mutes it at the cycle's time; null or absent: none. */
  mutedByWindow?: MutingWindow | null;
  /** Escalation steps (channel ids), ascending by after_minutes; [] without escalation. */
  escalation: EscalationStep[];
  /** Acknowledged at the cycle's time: an acknowledgement whose `until` has not passed (no reminders, no escalation). */
  acknowledged: boolean;
  /** When the stored acknowledgement was made (unix seconds), held or expired; null when there is none. */
  acknowledgedAt: number | null;
  /**
   * What the evaluator stored last time: the stored JSON text (null when none). The evaluator parses it once
   * (parseEvalState) and compares its new state's text with it, without serializing the old one again.
   */
  evalState: StoredEvalState | null;
  /**
   * Its account's metric prefixes ([] or absent: not confined): the metric stream gives the alert only the paths
   * inside them, as they are now (a change of them re-subscribes the alert).
   */
  metricPrefixes?: readonly string[];
}

/**
 * What one cycle writes for one alert: its new status, triggered metrics, state, history entries and the
 * notifications for its channels (the outbox), all in one transaction.
 */
export interface EvaluationUpdate {
  alertId: string;
  status: 'healthy' | 'alerting';
  currentlyTriggeredMetrics: string[];
  /** The new state as the JSON text to store (the text the next cycle reads back as EvaluationAlert.evalState); null: none. */
  evalState: StoredEvalState | null;
  /** The transition's entries, and the notifications it sent (one per channel) or held back, with why. */
  history: (TransitionHistoryEntry | NotificationRecord)[];
  /** The outbox rows of this transition, one per channel; `payload` is the Notification (notifiers/types.ts). */
  deliveries: NewDelivery[];
  /**
   * Removes the acknowledgement made at this time (unix seconds; its `until` passed). A newer acknowledgement (made
   * since the round read the alert) is kept. An update whose status is healthy removes any.
   */
  endAcknowledgementAt?: number;
}

/**
 * A history entry about a notification (sent to a channel, suppressed with the reason, or held because a parent alert
 * is alerting: dependency-hold.ts) or an acknowledgement's end.
 */
export interface NotificationRecord {
  status: 'notification_sent' | 'notification_suppressed' | 'held' | 'unacknowledged';
  value: number | null;
  metric: string;
  time: number;
  channelId: string | null;
  reason: string;
}

/**
 * How a paged listing hands its alerts over: `onPage` runs once per page, in order, and the listing waits for it
 * (it may give the event loop back while it works through a page) before the next page is handed over.
 */
export interface EvaluationPaging {
  size: number;
  onPage(alerts: EvaluationAlert[]): void | Promise<void>;
  /**
   * Alerts of this listing left out of its pages: their account's maintenance windows are still being matched
   * against them for the first time (window-warmup.ts). A later cycle judges them; they are not gone.
   */
  onDeferred?(alertIds: readonly string[]): void;
}

/**
 * The evaluator's store: what each backend implements directly (sqlite/evaluation-rows.ts,
 * postgres/evaluation-rows.ts). Every method works across accounts.
 */
export interface EvaluationStore {
  /**
   * Renews this replica's evaluation leases and takes expired or released ones, up to its fair share of the
   * partitions among the live replicas (and releases what it holds beyond it). A store for one node (SQLite)
   * answers a lease on everything (tokens null).
   */
  acquireEvaluationLeases(replica: string, ttlMs: number): Promise<EvaluationLease>;
  /**
   * A heartbeat between two rounds: renews what this replica holds (without waiting for other replicas' saves),
   * and takes expired or released partitions when it is below its fair share; it never releases any, so a round
   * in flight keeps every partition it listed. Answers the partitions held afterwards.
   */
  renewEvaluationLeases(replica: string, ttlMs: number): Promise<EvaluationLease>;
  /** Gives up this replica's leases at once (a clean shutdown), so that others take them at their next cycle. */
  releaseEvaluationLeases(replica: string): Promise<void>;
  /**
   * The alerts of one round, oldest first, with `muted` and `acknowledged` decided at `now` (epoch ms): with a
   * lease, only those of the partitions it holds; without, every alert of every account. One consistent snapshot.
   * With `paging`, the alerts come to `paging.onPage` in pages of at most `paging.size` as they are read (the same
   * alerts in the same order and snapshot, so the evaluator renders a page while the next is read) and the answer is
   * empty (none held).
   */
  listAlertsForEvaluation(now: number, lease?: EvaluationLease, paging?: EvaluationPaging): Promise<EvaluationAlert[]>;
  /**
   * Writes a round's updates, their history entries and their outbox deliveries in one transaction (one disk sync
   * for thousands of alerts): a transition is never stored without its notifications, nor notified without being
   * stored. Updates, entries and deliveries of alerts (or channels) deleted meanwhile are dropped. With a lease the
   * save is fenced: when a partition of it has moved to another replica since, nothing is saved and it throws
   * LeaseLost, so two replicas never both save (and notify) a transition.
   */
  saveEvaluations(updates: EvaluationUpdate[], lease?: EvaluationLease): Promise<SavedRound | void>;
  /**
   * Records that window episodes muted alerts (`muted_by_window` in their history), each (window, alert, episode)
   * once whoever reports it and however often: the cycle reports every alert a window mutes, every cycle.
   */
  recordWindowMutes?(mutes: WindowMute[]): Promise<void>;
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

/** What a save decided beyond the updates it was given: the notifications a dependency held (for the log). */
export interface SavedRound {
  held: HeldNotification[];
}

/** A notification of `alertId` about `metric` that a dependency held back; `reason` names the alerting parent. */
export interface HeldNotification {
  alertId: string;
  metric: string;
  reason: string;
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
