import { HttpError } from '../errors.js';

/**
 * Acknowledgement changes (acknowledge or withdraw, by the API, the console or a one-click link) one alert may have
 * in ACK_CHANGE_WINDOW_MS. Each change sends one delivery per channel of the alert (up to MAX_ALERT_CHANNELS), so a
 * loop of acknowledge and withdraw would otherwise write deliveries as fast as it can send requests (100 pairs made
 * 99,700 outbox rows on an alert of 997 channels). People acknowledge a few times an episode; 10 leaves them room.
 */
export const MAX_ACK_CHANGES = 10;
export const ACK_CHANGE_WINDOW_MS = 10 * 60_000;

/** The times of each alert's recent acknowledgement changes, per server process (a replica counts its own). */
export class AckChangeLimiter {
  readonly #changes = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one change of the alert's acknowledgement, or refuses it: 429 rate_limited with Retry-After. */
  take(alertId: string): void {
    const now = this.now();
    const recent = (this.#changes.get(alertId) ?? []).filter((at) => at > now - ACK_CHANGE_WINDOW_MS);
    if (recent.length >= MAX_ACK_CHANGES) {
      this.#changes.set(alertId, recent);
      const waitMs = recent[0]! + ACK_CHANGE_WINDOW_MS - now;
      throw new HttpError(
        'rate_limited',
        `the acknowledgement of this alert changed ${MAX_ACK_CHANGES} times in the last ${ACK_CHANGE_WINDOW_MS / 60_000} minutes, its limit; retry in ${Math.ceil(waitMs / 1000)} s`,
        { retryAfterSeconds: waitMs / 1000 },
      );
    }
    recent.push(now);
    this.#changes.set(alertId, recent);
    if (this.#changes.size > 10_000) this.#forgetQuiet(now);
  }

  /** Drops the alerts with no change in the window: the map holds only alerts changed lately. */
  #forgetQuiet(now: number): void {
    for (const [alertId, times] of this.#changes) {
      if (times[times.length - 1]! <= now - ACK_CHANGE_WINDOW_MS) this.#changes.delete(alertId);
    }
  }
}
