import type { ChannelType } from '../../model/types.js';
import type { MessageLimits } from './message.js';

/**
 * The longest title and body each provider takes (the notifiers cut to these with an ellipsis; the plan preview
 * shows the same cut). Slack: `text` should stay under 4,000 characters, whole messages are cut at 40,000.
 * PagerDuty Events v2 refuses a summary over 1,024. OpsGenie: message 130, description 15,000. Email, webhook
 * and VictorOps document no limit that a notification reaches.
 */
export const MESSAGE_LIMITS: Readonly<Record<ChannelType, MessageLimits>> = {
  slack: { title: 4_000, body: 30_000 },
  pagerduty: { title: 1_024 },
  opsgenie: { title: 130, body: 15_000 },
  email: {},
  webhook: {},
  victorops: {},
};
