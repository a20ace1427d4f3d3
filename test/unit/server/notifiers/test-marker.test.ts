import { describe, expect, it } from 'vitest';
import { buildEmail } from '../../../../src/server/notifiers/email.js';
import { buildOpsgenieCreate } from '../../../../src/server/notifiers/opsgenie.js';
import { buildPagerdutyEvent } from '../../../../src/server/notifiers/pagerduty.js';
import { buildSlackPayload } from '../../../../src/server/notifiers/slack.js';
import { buildTestNotification } from '../../../../src/notifications/test-notification.js';
import { buildWebhookPayload } from '../../../../src/server/notifiers/webhook.js';
import { channel } from './fixtures.js';

// A test goes where the tenant says with the tenant's wording: whatever the template, it says it is a test and who asked.
const test = buildTestNotification({ description: 'ops' }, 1_700_000_000_000, 'acc_42');
const PHISH = { title: 'Your invoice {{name}}', body: 'Pay at https://phish.example/ <b>now</b>' };
const NOTICE = '[TEST] This is a test notification sent by alertform at the request of account acc_42. No alert is firing.';

describe('a test notification through a template', () => {
  it('keeps "[TEST] " in front of the subject and the notice as the first line of both email parts', () => {
    const email = buildEmail(test, PHISH);
    expect(email.subject).toBe('[TEST] Your invoice alertform test notification');
    expect(email.text).toBe(`${NOTICE}\n\nPay at https://phish.example/ <b>now</b>`);
    expect(email.html.startsWith(`<p>${NOTICE}<br>`)).toBe(true);
  });

  it('cannot hide the notice by writing its own "[TEST]" or a title of only whitespace', () => {
    expect(buildEmail(test, { title: '[TEST] fine', body: '' }).subject).toBe('[TEST] fine');
    expect(buildEmail(test, { title: '\n\n', body: '' }).subject).toMatch(/^\[TEST\] /);
    expect(buildEmail(test, { body: '{{! nothing }}' }).text).toBe(`${NOTICE}\n\n`);
  });

  it('says it on every channel type, before the provider cuts the text', () => {
    expect(buildWebhookPayload(test, PHISH)).toMatchObject({ test: true, title: '[TEST] Your invoice alertform test notification', body: expect.stringMatching(/^\[TEST\] This is a test notification/) });
    const slack = buildSlackPayload(test, { ...PHISH, body: `${'x'.repeat(40_000)}` }) as { text: string; attachments: { text: string }[] };
    expect(slack.text).toMatch(/^\[TEST\] /);
    expect(slack.attachments[0]!.text.startsWith(NOTICE)).toBe(true);
    const pagerduty = buildPagerdutyEvent({ ...channel('pagerduty', 'k'), template: { title: 'y'.repeat(5_000) } }, test) as { payload: { summary: string } };
    expect(pagerduty.payload.summary).toMatch(/^\[TEST\] y+…$/);
    const opsgenie = buildOpsgenieCreate(test, PHISH) as { message: string; description: string };
    expect(opsgenie.message).toMatch(/^\[TEST\] /);
    expect(opsgenie.description.startsWith(NOTICE)).toBe(true);
  });

  it('leaves a real notification through the same template as it was', () => {
    const real = { ...test, test: undefined, testRequestedBy: undefined };
    expect(buildEmail(real, PHISH).subject).toBe('Your invoice alertform test notification');
  });
});
