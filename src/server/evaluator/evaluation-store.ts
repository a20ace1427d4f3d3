import type { FlapGuard, OnQueryFailure } from '../../model/types.js';
import type { Notification, NotifiedAlert } from '../notifiers/types.js';
import type { TransitionHistoryEntry } from '../../evaluation/transitions.js';

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
}

/** A history entry about a notification: sent to a channel, or suppressed (no channel) with the reason. */
export interface NotificationRecord {
  status: 'notification_sent' | 'notification_suppressed';
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
