import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendNotification } from '../../../../src/server/notifiers/send.js';
import { buildSlackPayload } from '../../../../src/server/notifiers/slack.js';
import { buildWebhookPayload } from '../../../../src/server/notifiers/webhook.js';
import { buildEmail } from '../../../../src/server/notifiers/email.js';
import type { Notification } from '../../../../src/notifications/types.js';
import { channel, plainNotification, settings, TIME } from './fixtures.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(() => nock.enableNetConnect());

const signal = () => AbortSignal.timeout(5_000);
const ACK_URL = 'https://alertform.example/v2/ack-links/eyJrIjoiYWNrIn0.c2ln';

/** An `acknowledged` notification as POST /v2/alerts/{id}/ack/ writes it to the outbox. */
function acknowledged(note: string | null = 'disk replaced, watching'): Notification {
  return {
    ...plainNotification('alerting'),
    event: 'acknowledged',
    graphUrl: null,
    consoleUrl: 'https://alertform.example/alerts/al_123',
    acknowledgement: { by: 'Ann Oncall', note, at: TIME, until: TIME + 7200 },
  };
}

describe('an acknowledgement reaches the paging services through their own APIs', () => {
  it('acknowledges the PagerDuty incident with the dedup_key of its trigger', async () => {
    const scope = nock('https://events.pagerduty.com')
      .post('/v2/enqueue', { routing_key: 'pd-routing-key', event_action: 'acknowledge', dedup_key: 'alertform-al_123' })
      .reply(202, { status: 'success' });
    await sendNotification(channel('pagerduty', 'pd-routing-key'), acknowledged(), settings(), signal());
    expect(scope.isDone()).toBe(true);
  });

  it('acknowledges the OpsGenie alert by the alias of its create, with the user and the note', async () => {
    const scope = nock('https://api.opsgenie.com')
      .post('/v2/alerts/alertform-al_123/acknowledge', { user: 'Ann Oncall', source: 'alertform', note: 'disk replaced, watching' })
      .query({ identifierType: 'alias' })
      .matchHeader('authorization', 'GenieKey og-key')
      .reply(202, { result: 'Request will be processed' });
    await sendNotification(channel('opsgenie', 'og-key'), acknowledged(), settings(), signal());
    expect(scope.isDone()).toBe(true);
  });

  it('says who acknowledged in the OpsGenie note when there is no note', async () => {
    const scope = nock('https://api.opsgenie.com')
      .post('/v2/alerts/alertform-al_123/acknowledge', {
        user: 'Ann Oncall',
        source: 'alertform',
        note: `acknowledged by Ann Oncall until ${new Date((TIME + 7200) * 1000).toISOString()}`,
      })
      .query({ identifierType: 'alias' })
      .reply(202, {});
    await sendNotification(channel('opsgenie', 'og-key'), acknowledged(null), settings(), signal());
    expect(scope.isDone()).toBe(true);
  });

  it('sends VictorOps an ACKNOWLEDGEMENT with the entity_id of its CRITICAL, the author and the message', async () => {
    const endpoint = 'https://alert.victorops.com/integrations/generic/20131114/alert/vo-api-key/routing-key';
    const scope = nock('https://alert.victorops.com')
      .post('/integrations/generic/20131114/alert/vo-api-key/routing-key', (body) => {
        expect(body).toEqual({
          message_type: 'ACKNOWLEDGEMENT',
          entity_id: 'alertform-al_123',
          entity_display_name: `[ACKNOWLEDGED] CPU "hot" <web> & co: acknowledged by Ann Oncall until ${new Date((TIME + 7200) * 1000).toISOString()}: disk replaced, watching`,
          state_message: expect.stringContaining('Acknowledged: acknowledged by Ann Oncall'),
          ack_author: 'Ann Oncall',
          ack_msg: 'disk replaced, watching',
          state_start_time: TIME,
          monitoring_tool: 'alertform',
        });
        return true;
      })
      .reply(200, { result: 'success' });
    await sendNotification(channel('victorops', endpoint), acknowledged(), settings(), signal());
    expect(scope.isDone()).toBe(true);
  });

  it('sends the acknowledgement whether or not the channel resolves by itself', async () => {
    const scope = nock('https://events.pagerduty.com').post('/v2/enqueue', (body) => body.event_action === 'acknowledge').twice().reply(202, {});
    await sendNotification(channel('pagerduty', 'k', false), acknowledged(), settings(), signal());
    await sendNotification(channel('pagerduty', 'k', true), acknowledged(), settings(), signal());
    expect(scope.isDone()).toBe(true);
  });
});

describe('the acknowledgement link in a page', () => {
  const page = (): Notification => ({ ...plainNotification('alerting'), ackUrl: ACK_URL });

  it('is one of PagerDuty links', async () => {
    const scope = nock('https://events.pagerduty.com')
      .post('/v2/enqueue', (body) => {
        expect(body.links).toEqual([{ href: ACK_URL, text: 'Acknowledge in alertform' }]);
        return true;
      })
      .reply(202, {});
    await sendNotification(channel('pagerduty', 'k'), page(), settings(), signal());
    expect(scope.isDone()).toBe(true);
  });

  it('is ack_url in the webhook body, a link in Slack and in the email', () => {
    expect(buildWebhookPayload(page())).toMatchObject({ status: 'alerting', ack_url: ACK_URL });
    expect(buildWebhookPayload(plainNotification('alerting'))).not.toHaveProperty('ack_url');
    const fields = (buildSlackPayload(page()).attachments as { fields: { title: string; value: string }[] }[])[0]!.fields;
    expect(fields).toContainEqual({ title: 'Acknowledge', value: `<${ACK_URL}|Acknowledge this alert>`, short: false });
    const email = buildEmail(page());
    expect(email.html).toContain(`<a href="${ACK_URL}">Acknowledge this alert</a>`);
    expect(email.text).toContain(`Acknowledge: ${ACK_URL}`);
  });

  it('turns into a short "acknowledged by" message on the webhook, Slack and email', () => {
    const body = buildWebhookPayload(acknowledged());
    expect(body).toMatchObject({ status: 'acknowledged', acknowledgement: { by: 'Ann Oncall', note: 'disk replaced, watching', at: TIME, until: TIME + 7200 } });
    const until = new Date((TIME + 7200) * 1000).toISOString();
    expect(buildSlackPayload(acknowledged()).text).toBe(
      `[ACKNOWLEDGED] CPU "hot" &lt;web&gt; &amp; co: acknowledged by Ann Oncall until ${until}: disk replaced, watching`,
    );
    expect(buildEmail(acknowledged()).subject).toBe(`[ACKNOWLEDGED] CPU "hot" <web> & co: acknowledged by Ann Oncall until ${until}: disk replaced, watching`);
  });
});
