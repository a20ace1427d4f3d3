import { alertStateOf, stateFactsOf } from '../../model/alert-state.js';
import { notifiedAlert } from '../../notifications/notified-alert.js';
import { parseEvalState } from '../../evaluation/stored-state.js';
import { durationMs } from '../../model/duration.js';
import { HttpError, invalidBody, notFound } from '../errors.js';
import type { Notification } from '../../notifications/types.js';
import type { Acknowledgement } from '../../model/acknowledgement.js';
import type { AlertRecord, Store } from '../store/store.js';

/** What a person asks: who, why, until when (unix seconds, a duration from now, or null: until it recovers). */
export interface AckRequest {
  by: string;
  note?: string | null;
  until?: number | string | null;
}

/** The longest an acknowledgement can be asked to last: past that, it is a mute, not an acknowledgement. */
const MAX_UNTIL_SECONDS = 30 * 86_400;

/**
 * Acknowledges the alert's current alerting episode for the API, the console and the one-click link: writes the
 * acknowledgement, its history entry (the author and the note in its reason) and, in the same transaction, one
 * `acknowledged` delivery per channel of the alert (PagerDuty, OpsGenie and VictorOps acknowledge their incident; the
 * others get a short "acknowledged by" message). Not alerting: 409. Another account's alert: 404.
 */
export async function acknowledgeAlert(
  store: Pick<Store, 'acks'>,
  alert: AlertRecord,
  request: AckRequest,
  nowMs: number,
  /**
   * The alerting episode a one-click link names: the write happens only while it is still the current one, and an
   * acknowledgement that holds stands (the link's answer is then 409 naming who has it).
   */
  episode?: number | null,
  /** Whether anything evaluates the server's alerts: a refusal names the alert's one state (model/alert-state.ts). */
  evaluating = true,
): Promise<Acknowledgement> {
  const at = Math.floor(nowMs / 1000);
  const acknowledgement: Acknowledgement = {
    by: request.by.trim(),
    note: request.note?.trim() ? request.note.trim() : null,
    at,
    until: readUntil(request.until, at),
  };
  const notification: Notification = {
    event: 'acknowledged',
    alert: notifiedAlert(alert),
    triggered: alert.currentlyTriggeredMetrics.map((metric) => ({ metric, value: null })),
    conditions: [],
    graphUrl: null,
    time: at,
    startedAt: parseEvalState(alert.evalState, alert.status, alert.currentlyTriggeredMetrics).alertingSince,
    acknowledgement,
  };
  const result = await store.acks.acknowledgeAlert(alert.accountId, alert.id, {
    acknowledgement,
    history: { status: 'acknowledged', value: null, metric: '', time: at, channelId: null, reason: describeAck(acknowledgement) },
    // Due at once: the outbox's retries and maximum age run on the wall clock, as for the evaluator's deliveries.
    deliveries: alert.notificationChannels.map((channelId) => ({ channelId, event: 'acknowledged', payload: notification, createdAt: Date.now() })),
    ...(episode !== undefined ? { episode, keepHeld: true } : {}),
  });
  if (!result) throw notFound('alert');
  if (result.outcome === 'other_episode') throw otherEpisode(alert.name);
  if (result.outcome === 'already_acknowledged') throw alreadyAcknowledged(alert.name, result.acknowledgement);
  if (result.outcome === 'not_alerting') {
    // The one state every surface shows (not the stored status: an alert never judged is not "healthy").
    const state = alertStateOf(stateFactsOf(alert.status, alert.evalState), evaluating);
    const words = alert.status === 'alerting' ? 'no longer alerting' : state.replaceAll('_', ' ');
    throw new HttpError('conflict', `alert is ${words}: only an alerting alert can be acknowledged`, {
      details: [{ path: 'status', message: 'is not alerting' }],
    });
  }
  return acknowledgement;
}

/** 409: a one-click link of an alerting episode that is over (the alert recovered, and may alert again). */
export function otherEpisode(name: string): HttpError {
  return new HttpError('conflict', `this link is from an earlier alerting episode of "${name}"; use the link of the latest notification`, {
    status: 409,
  });
}

/**
 * 409: a one-click link answered after someone else (a replayed link, a second person on the same page): the first
 * acknowledgement stands, and the answer says whose it is and since when.
 */
export function alreadyAcknowledged(name: string, ack: Acknowledgement): HttpError {
  const since = new Date(ack.at * 1000).toISOString();
  return new HttpError('conflict', `"${name}" is already acknowledged by ${ack.by} (since ${since}); that acknowledgement stands`, {
    status: 409,
    details: [
      { path: 'acknowledgement.by', message: ack.by },
      { path: 'acknowledgement.at', message: since },
    ],
  });
}

/** Withdraws the alert's acknowledgement (history: withdrawn by whom). Not acknowledged: 409. */
export async function withdrawAcknowledgement(store: Pick<Store, 'acks'>, alert: AlertRecord, by: string | null, nowMs: number): Promise<void> {
  const reason = by ? `withdrawn by ${by}` : 'withdrawn';
  const result = await store.acks.withdrawAcknowledgement(alert.accountId, alert.id, {
    status: 'unacknowledged',
    value: null,
    metric: '',
    time: Math.floor(nowMs / 1000),
    channelId: null,
    reason,
  });
  if (!result) throw notFound('alert');
  if (result === 'not_acknowledged') {
    throw new HttpError('conflict', 'alert is not acknowledged: there is nothing to withdraw', {
      details: [{ path: 'acknowledgement', message: 'is null' }],
    });
  }
}

/** The history entry's reason: `by Ann until 2026-11-24T20:00:00.000Z: replacing the disk`. */
export function describeAck(ack: Acknowledgement): string {
  const until = ack.until === null ? '' : ` until ${new Date(ack.until * 1000).toISOString()}`;
  return `by ${ack.by}${until}${ack.note ? `: ${ack.note}` : ''}`;
}

/** `until` as unix seconds: a number is a time, a string a duration from now; in the future, at most 30 days on. */
function readUntil(until: AckRequest['until'], now: number): number | null {
  if (until === undefined || until === null) return null;
  let seconds: number;
  if (typeof until === 'number') seconds = until;
  else {
    const ms = durationMs(until);
    if (ms === undefined) throw invalidBody([{ path: 'until', message: 'is not a duration (e.g. 30m, 2h, 1d)' }]);
    seconds = now + Math.ceil(ms / 1000);
  }
  if (seconds <= now) throw invalidBody([{ path: 'until', message: 'is not in the future' }]);
  if (seconds > now + MAX_UNTIL_SECONDS) throw invalidBody([{ path: 'until', message: 'is more than 30 days away (mute the alert instead)' }]);
  return seconds;
}
