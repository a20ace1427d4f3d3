import type { EscalationStep } from '../../evaluation/escalation.js';

/**
 * An alert's stored escalation (JSON text) without one channel, for both stores' deleteChannel: the channel
 * leaves every step, and a step left with no channel goes (a step that notifies nobody means nothing).
 */
export function withoutEscalationChannel(stored: string, channelId: string): string {
  const steps = JSON.parse(stored) as EscalationStep[];
  return JSON.stringify(
    steps
      .map((step) => ({ ...step, notification_channels: step.notification_channels.filter((id) => id !== channelId) }))
      .filter((step) => step.notification_channels.length > 0),
  );
}
