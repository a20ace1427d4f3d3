import type { OnQueryFailure } from '../../model/types.js';
import type { DeliveryChannel, NotifiedAlert } from '../notifiers/types.js';
import type { HistoryRecord } from '../../evaluation/transitions.js';

/** An alert as the evaluator needs it, over all accounts: what notifications show, and its evaluation state. */
export interface EvaluableAlert extends NotifiedAlert {
  notification_channels: string[];
  on_query_failure: OnQueryFailure;
  status: string;
  currently_triggered_metrics: string[];
  /** Muted at the time asked for: an explicit mute not yet expired, or an active scheduled mute. */
  muted: boolean;
  /** What the evaluator stored last time (opaque to the store). */
  eval_state: unknown;
}

/** What one cycle writes for one alert: its new status, triggered metrics, state and history entries. */
export interface EvaluationUpdate {
  alertId: string;
  status: 'healthy' | 'alerting';
  currently_triggered_metrics: string[];
  eval_state: unknown;
  history: HistoryRecord[];
}

/** The part of the server's store the evaluator uses. */
export interface EvaluationStore {
  /** Every alert of every account, with `muted` decided at `now`. */
  listAlertsForEvaluation(now: Date): Promise<EvaluableAlert[]> | EvaluableAlert[];
  /** Writes a cycle's updates (one transaction where the store can). */
  saveEvaluations(updates: EvaluationUpdate[]): Promise<void> | void;
  /** The channels with these ids (missing ones are left out). */
  getChannelsForDelivery(ids: string[]): Promise<DeliveryChannel[]> | DeliveryChannel[];
  /** Records the last delivery error of a channel, time in unix seconds (null after a delivery that worked). */
  setChannelLastError(channelId: string, error: { time: number; message: string } | null): Promise<void> | void;
}
