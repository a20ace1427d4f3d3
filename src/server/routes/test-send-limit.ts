import { createRateWindow } from '../http/rate-window.js';

/**
 * How many test notifications may be sent. A test goes to a destination the tenant chose with wording the
 * tenant's template chose, through the operator's SMTP server and IP addresses: unlimited, it is a relay.
 */
export const TEST_SENDS_PER_CHANNEL = { limit: 5, windowMs: 10 * 60_000 };
export const TEST_SENDS_PER_ACCOUNT = { limit: 20, windowMs: 60 * 60_000 };

/** Why a test is refused, and how long to wait. */
export interface TestSendRefusal {
  message: string;
  retryAfterSeconds: number;
}

/** Judges one test of an account's channel: a refusal beyond either limit, else null (and the test is counted). */
export type TestSendLimit = (account: string, channel: string) => TestSendRefusal | null;

export function createTestSendLimit(now: () => number): TestSendLimit {
  const perChannel = createRateWindow({ ...TEST_SENDS_PER_CHANNEL, now });
  const perAccount = createRateWindow({ ...TEST_SENDS_PER_ACCOUNT, now });
  return (account, channel) => {
    const channelKey = `${account}\n${channel}`;
    const channelWait = perChannel.retryAfterSeconds(channelKey);
    const accountWait = perAccount.retryAfterSeconds(account);
    if (channelWait === 0 && accountWait === 0) {
      perChannel.record(channelKey);
      perAccount.record(account);
      return null;
    }
    // The longer wait is the one that holds.
    const [what, { limit, windowMs }, wait] =
      accountWait >= channelWait ? ['this account', TEST_SENDS_PER_ACCOUNT, accountWait] : ['this channel', TEST_SENDS_PER_CHANNEL, channelWait];
    return {
      message: `too many test notifications for ${what} (at most ${limit} per ${windowMs / 60_000} minutes); retry in ${wait} s`,
      retryAfterSeconds: wait,
    };
  };
}
