import type { FlapGuard, OnQueryFailure } from '../../model/types.js';
import type { Notification, NotifiedAlert } from '../notifiers/types.js';
import type { TransitionHistoryEntry } from '../../evaluation/transitions.js';
import type { EscalationStep } from '../../evaluation/escalation.js';

/** An alert as the evaluator needs it, over all accounts: what notifications show, and its evaluation state. */
export interface EvaluableAlert extends NotifiedAlert {
  notification_channels: string[];
  on_query_failure: OnQueryFailure;
  /** Noise control: the alert's flap guard (absent or null: none). */
  flap_guard?: FlapGuard | null;
  status: string;
  currently_triggered_metrics: string[];
  /** Muted at the time asked for: an explicit mute not yet expired, or an active scheduled mute. */
  muted: boolean;
  /** Escalation steps (channel ids), ascending by after_minutes; [] without escalation. */
  escalation: EscalationStep[];
  /** Acknowledged at the time asked for: an acknowledgement whose `until` has not passed (no reminders, no escalation). */
  acknowledged: boolean;
  /** When the stored acknowledgement was made (unix seconds), held or expired; null when there is none. */
  acknowledged_at?: number | null;
  /** What the evaluator stored last time: the stored JSON text (a store keeps it opaque), or the state itself. */
  eval_state: unknown;
}

/**
 * What one cycle writes for one alert: its new status, triggered metrics, state, history entries and the
 * notifications for its channels (the outbox), all in one transaction.
 */
export interface EvaluationUpdate {
  alertId: string;
  status: 'healthy' | 'alerting';
  currently_triggered_metrics: string[];
  eval_state: unknown;
  /** The transition's entries, and the notifications it sent (one per channel) or held back, with why. */
  history: (TransitionHistoryEntry | NotificationRecord)[];
  deliveries: { channelId: string; notification: Notification }[];
  /** Removes the acknowledgement made at this time (its `until` passed); a recovery removes it in any case. */
  endAcknowledgementAt?: number;
}

/** A history entry about a notification (sent to a channel, or suppressed with the reason) or an acknowledgement's end. */
export interface NotificationRecord {
  status: 'notification_sent' | 'notification_suppressed' | 'unacknowledged';
  value: number | null;
  metric: string;
  time: number;
  channelId: string | null;
  reason: string;
}

/** The part of the server's store the evaluator uses. */
export interface EvaluationStore {
  /** Every alert of every account, with `muted` decided at `now`. */
  listAlertsForEvaluation(now: Date): Promise<EvaluableAlert[]> | EvaluableAlert[];
  /** Writes a cycle's updates with their outbox deliveries, in one transaction. */
  saveEvaluations(updates: EvaluationUpdate[]): Promise<void> | void;
}
