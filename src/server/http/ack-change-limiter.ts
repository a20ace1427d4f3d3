import { HttpError } from '../errors.js';
import { createRateWindow, type RateWindow } from './rate-window.js';

/**
 * Acknowledgement changes (acknowledge or withdraw, by the API, the console or a one-click link) one alert may have
 * in ACK_CHANGE_WINDOW_MS. Each change sends one delivery per channel of the alert (up to MAX_ALERT_CHANNELS), so a
 * loop of acknowledge and withdraw would otherwise write deliveries as fast as it can send requests (100 pairs made
 * 99,700 outbox rows on an alert of 997 channels). People acknowledge a few times an episode; 10 leaves them room.
 */
export const MAX_ACK_CHANGES = 10;
export const ACK_CHANGE_WINDOW_MS = 10 * 60_000;

/** Each alert's recent acknowledgement changes, per server process (a replica counts its own). */
export class AckChangeLimiter {
  readonly #window: RateWindow;

  constructor(now: () => number = Date.now) {
    this.#window = createRateWindow({ limit: MAX_ACK_CHANGES, windowMs: ACK_CHANGE_WINDOW_MS, now });
  }

  /** Counts one change of the alert's acknowledgement, or refuses it: 429 rate_limited with Retry-After. */
  take(alertId: string): void {
    const wait = this.#window.retryAfterSeconds(alertId);
    if (wait > 0) {
      throw new HttpError(
        'rate_limited',
        `the acknowledgement of this alert changed ${MAX_ACK_CHANGES} times in ${ACK_CHANGE_WINDOW_MS / 60_000} minutes, its limit; retry in ${wait} s`,
        { retryAfterSeconds: wait },
      );
    }
    this.#window.record(alertId);
  }
}
