import { HttpError } from '../errors.js';
import { createRateWindow } from '../http/rate-window.js';

/**
 * How many test notifications may be sent. A test goes to a destination the tenant chose with wording the
 * tenant's template chose, through the operator's SMTP server and IP addresses: unlimited, it is a relay.
 */
export const TEST_SENDS_PER_CHANNEL = { limit: 5, windowMs: 10 * 60_000 };
export const TEST_SENDS_PER_ACCOUNT = { limit: 20, windowMs: 60 * 60_000 };

/** Refuses (429 with the wait) a test beyond either limit, and counts one that is let through against both. */
export type TestSendLimit = (account: string, channel: string) => { refused: HttpError; retryAfterSeconds: number } | null;

export function createTestSendLimit(now: () => number): TestSendLimit {
  const perChannel = createRateWindow({ ...TEST_SENDS_PER_CHANNEL, now });
  const perAccount = createRateWindow({ ...TEST_SENDS_PER_ACCOUNT, now });
  return (account, channel) => {
    const channelKey = `${account}\n${channel}`;
    const channelWait = perChannel.retryAfterSeconds(channelKey);
    const accountWait = perAccount.retryAfterSeconds(account);
    if (channelWait > 0 || accountWait > 0) {
      const [what, limit, wait] =
        accountWait >= channelWait
          ? ['this account', TEST_SENDS_PER_ACCOUNT, accountWait]
          : ['this channel', TEST_SENDS_PER_CHANNEL, channelWait];
      const message = `too many test notifications for ${what} (at most ${limit.limit} per ${limit.windowMs / 60_000} minutes); retry in ${wait} s`;
      return { refused: new HttpError('rate_limited', message, { status: 429 }), retryAfterSeconds: wait };
    }
    perChannel.record(channelKey);
    perAccount.record(account);
    return null;
  };
}
