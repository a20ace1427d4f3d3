import type { DeliveryChannel, Notification } from './types.js';

/** The name a test notification goes by, in the outbox and in the message. */
export const TEST_NOTIFICATION_NAME = 'alertform test notification';

/**
 * A notification that checks a channel end to end through the outbox: shaped as an alerting one (so every notifier
 * formats it as it would a real one), marked `test` so each says "[TEST]" and that no alert is firing.
 */
export function buildTestNotification(channel: Pick<DeliveryChannel, 'description'>, nowMs: number): Notification {
  return {
    event: 'alerting',
    test: true,
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
