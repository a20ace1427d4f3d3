import type { DeliveryChannel, Notification } from './types.js';

/** The name a test notification goes by, in the outbox and in the message. */
export const TEST_NOTIFICATION_NAME = 'alertform test notification';

/** What begins the title of every test message, whatever the channel's template says. */
export const TEST_TITLE_PREFIX = '[TEST] ';

/**
 * A notification that checks a channel end to end through the outbox: shaped as an alerting one (so every notifier
 * formats it as it would a real one), marked `test` so each says "[TEST]" and that no alert is firing, with the
 * account that asked for it.
 */
export function buildTestNotification(channel: Pick<DeliveryChannel, 'description'>, nowMs: number, account: string): Notification {
  return {
    event: 'alerting',
    test: true,
    testRequestedBy: account,
    alert: {
      id: '',
      name: TEST_NOTIFICATION_NAME,
      metric: 'alertform.test',
      alert_criteria: { type: 'above', above_value: 0 },
      additional_criteria: {},
      expression: 'a',
      info: `This is a test of the channel "${channel.description}", sent from alertform. No alert is firing; nothing needs doing.`,
      notification_type: ['state_change'],
    },
    triggered: [],
    conditions: [],
    graphUrl: null,
    time: Math.floor(nowMs / 1000),
  };
}

/**
 * The line a templated test message starts with. A test is sent on a tenant's request with the tenant's own
 * wording to an address the tenant chose: this line says who asked, so a test cannot pass for anything else.
 */
export function testNotice(notification: Pick<Notification, 'testRequestedBy'>): string {
  const who = notification.testRequestedBy ? `account ${notification.testRequestedBy}` : 'an account';
  return `${TEST_TITLE_PREFIX}This is a test notification sent by alertform at the request of ${who}. No alert is firing.`;
}
