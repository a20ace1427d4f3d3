import { describe, expect, it } from 'vitest';
import { summarize } from '../../../../src/notifications/describe.js';
import { buildEmail } from '../../../../src/server/notifiers/email.js';
import { buildOpsgenieCreate } from '../../../../src/server/notifiers/opsgenie.js';
import { buildPagerdutyEvent } from '../../../../src/server/notifiers/pagerduty.js';
import { buildSlackPayload } from '../../../../src/server/notifiers/slack.js';
import { buildVictoropsMessage } from '../../../../src/server/notifiers/victorops.js';
import { buildWebhookPayload } from '../../../../src/server/notifiers/webhook.js';
import type { DeliveryChannel, Notification } from '../../../../src/notifications/types.js';
import { plainNotification } from './fixtures.js';

/** The second of three steps, due after 30 minutes alerting. */
const escalated: Notification = { ...plainNotification('escalated'), escalation: { step: 2, of: 3, after_minutes: 30 } };
const channel = (type: DeliveryChannel['type']): DeliveryChannel => ({ id: 'c', type, description: 'd', destination: 'key-or-url', autoResolve: true });
const WORDS = 'escalation step 2 of 3: alerting for 30 minutes';

describe('an escalated notification', () => {
  it('says which step and after how long in every notifier, as the alert still alerting', () => {
    expect(summarize(escalated)).toBe(`[ESCALATED] CPU "hot" <web> & co: web.2.cpu = 95.5 (above 90 for 5 minutes) (${WORDS})`);
    const email = buildEmail(escalated);
    expect(email.subject).toContain(WORDS);
    expect(email.text).toContain(`Escalation: ${WORDS}`);
    expect(email.html).toContain(WORDS);
    expect(JSON.stringify(buildSlackPayload(escalated))).toContain(WORDS);
    expect(buildWebhookPayload(escalated)).toMatchObject({ status: 'alerting', escalation: { step: 2, of: 3, after_minutes: 30 } });
    const pagerduty = buildPagerdutyEvent(channel('pagerduty'), escalated)!;
    expect(pagerduty).toMatchObject({ event_action: 'trigger', payload: { summary: expect.stringContaining(WORDS) } });
    expect(JSON.stringify(buildOpsgenieCreate(escalated))).toContain('escalation step 2 of 3');
    expect(buildVictoropsMessage(channel('victorops'), escalated)).toMatchObject({ message_type: 'CRITICAL', state_message: expect.stringContaining(WORDS) });
  });

  it('leaves the other notifications unchanged', () => {
    expect(summarize(plainNotification('alerting'))).not.toContain('escalation');
    expect(buildWebhookPayload(plainNotification('alerting'))).not.toHaveProperty('escalation');
  });
});
