import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendNotification } from '../../../../src/server/notifiers/send.js';
import { channel, plainNotification, settings, TIME } from './fixtures.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(() => nock.enableNetConnect());

const signal = () => AbortSignal.timeout(5_000);

describe('pagerduty (Events API v2)', () => {
  it('triggers with the routing key and a dedup key per alert, then resolves on recovery with auto_resolve', async () => {
    const trigger = nock('https://events.pagerduty.com')
      .post('/v2/enqueue', (body) => {
        expect(body).toEqual({
          routing_key: 'pd-routing-key',
          event_action: 'trigger',
          dedup_key: 'alertform-al_123',
          payload: {
            summary: '[ALERTING] CPU "hot" <web> & co: web.2.cpu = 95.5 (above 90 for 5 minutes)',
            source: 'web.2.cpu',
            severity: 'critical',
            timestamp: new Date(TIME * 1000).toISOString(),
            component: 'web.*.cpu',
            class: 'above',
            custom_details: {
              criteria: 'above 90 for 5 minutes',
              triggered_metrics: [{ metric: 'web.2.cpu', value: 95.5 }],
              info: 'Check the runbook: https://runbooks.example/cpu',
            },
          },
          client: 'alertform',
          client_url: 'https://alertform.example/alerts/al_123',
          images: [{ src: 'https://alertform.example/v2/graphs/eyJhIjoiYWxfMTIzIn0.c2ln.png', alt: 'Graph of the alert' }],
        });
        return true;
      })
      .matchHeader('content-type', 'application/json')
      .reply(202, { status: 'success', dedup_key: 'alertform-al_123' });
    const resolve = nock('https://events.pagerduty.com')
      .post('/v2/enqueue', { routing_key: 'pd-routing-key', event_action: 'resolve', dedup_key: 'alertform-al_123' })
      .reply(202, { status: 'success' });
    const pd = channel('pagerduty', 'pd-routing-key', true);
    await sendNotification(pd, plainNotification('alerting'), settings(), signal());
    await sendNotification(pd, plainNotification('recovered'), settings(), signal());
    expect(trigger.isDone() && resolve.isDone()).toBe(true);
  });

  it('sends no resolve without auto_resolve', async () => {
    // disableNetConnect would make any request fail: reaching the end without a mock proves none was made.
    await sendNotification(channel('pagerduty', 'k', false), plainNotification('recovered'), settings(), signal());
  });

  it('uses a configured base URL (regions, tests)', async () => {
    const scope = nock('https://events.eu.pagerduty.com').post('/v2/enqueue').reply(202, {});
    await sendNotification(channel('pagerduty', 'k'), plainNotification(), settings({ pagerdutyUrl: 'https://events.eu.pagerduty.com' }), signal());
    expect(scope.isDone()).toBe(true);
  });

  it('fails with a message that names the service and status but not the key', async () => {
    nock('https://events.pagerduty.com').post('/v2/enqueue').reply(400, { status: 'invalid event' });
    const failure = sendNotification(channel('pagerduty', 'secret-routing-key'), plainNotification(), settings(), signal());
    await expect(failure).rejects.toMatchObject({ message: 'pagerduty answered HTTP 4xx', retryable: false });
  });
});

describe('opsgenie (Alert API)', () => {
  it('creates an alert with GenieKey auth and an alias per alert, and closes it by alias on recovery', async () => {
    const create = nock('https://api.opsgenie.com')
      .post('/v2/alerts', (body) => {
        expect(body).toMatchObject({
          message: '[ALERTING] CPU "hot" <web> & co: web.2.cpu = 95.5 (above 90 for 5 minutes)',
          alias: 'alertform-al_123',
          source: 'alertform',
          entity: 'web.2.cpu',
          priority: 'P1',
          details: { criteria: 'above 90 for 5 minutes', metric: 'web.2.cpu', value: '95.5', status: 'alerting' },
        });
        expect(body.description).toContain('Check the runbook');
        return true;
      })
      .matchHeader('authorization', 'GenieKey og-key')
      .reply(202, { result: 'Request will be processed', requestId: 'r1' });
    const close = nock('https://api.opsgenie.com')
      .post('/v2/alerts/alertform-al_123/close', { source: 'alertform', note: '[RECOVERED] CPU "hot" <web> & co: web.2.cpu = 40 (above 90 for 5 minutes)' })
      .query({ identifierType: 'alias' })
      .matchHeader('authorization', 'GenieKey og-key')
      .reply(202, { result: 'Request will be processed' });
    const og = channel('opsgenie', 'og-key');
    await sendNotification(og, plainNotification('alerting'), settings(), signal());
    await sendNotification(og, plainNotification('recovered'), settings(), signal());
    expect(create.isDone() && close.isDone()).toBe(true);
  });

  it('keeps the message within OpsGenie\'s 130 characters', async () => {
    const long = plainNotification();
    long.alert.name = 'x'.repeat(300);
    const scope = nock('https://api.eu.opsgenie.com')
      .post('/v2/alerts', (body) => body.message.length === 130)
      .reply(202, {});
    await sendNotification(channel('opsgenie', 'k'), long, settings({ opsgenieUrl: 'https://api.eu.opsgenie.com' }), signal());
    expect(scope.isDone()).toBe(true);
  });
});

describe('victorops (REST endpoint)', () => {
  const endpoint = 'https://alert.victorops.com/integrations/generic/20131114/alert/vo-api-key/routing-key';

  it('posts CRITICAL to the destination URL, then RECOVERY with the same entity_id when auto_resolve', async () => {
    const critical = nock('https://alert.victorops.com')
      .post('/integrations/generic/20131114/alert/vo-api-key/routing-key', (body) => {
        expect(body).toMatchObject({
          message_type: 'CRITICAL',
          entity_id: 'alertform-al_123',
          entity_display_name: '[ALERTING] CPU "hot" <web> & co: web.2.cpu = 95.5 (above 90 for 5 minutes)',
          state_start_time: TIME,
          monitoring_tool: 'alertform',
        });
        expect(body.state_message).toContain('web.2.cpu = 95.5');
        return true;
      })
      .reply(200, { result: 'success' });
    const recovery = nock('https://alert.victorops.com')
      .post('/integrations/generic/20131114/alert/vo-api-key/routing-key', (body) => body.message_type === 'RECOVERY' && body.entity_id === 'alertform-al_123')
      .reply(200, { result: 'success' });
    const vo = channel('victorops', endpoint, true);
    await sendNotification(vo, plainNotification('alerting'), settings(), signal());
    await sendNotification(vo, plainNotification('recovered'), settings(), signal());
    expect(critical.isDone() && recovery.isDone()).toBe(true);
  });

  it('sends no RECOVERY without auto_resolve, and honours a base URL override', async () => {
    await sendNotification(channel('victorops', endpoint, false), plainNotification('recovered'), settings(), signal());
    const scope = nock('http://victorops.test').post('/integrations/generic/20131114/alert/vo-api-key/routing-key').reply(200, {});
    await sendNotification(channel('victorops', endpoint), plainNotification(), settings({ victoropsUrl: 'http://victorops.test' }), signal());
    expect(scope.isDone()).toBe(true);
  });
});

describe('slack (incoming webhook)', () => {
  it('posts valid JSON whatever the alert name holds, with the details in an attachment', async () => {
    const scope = nock('https://hooks.slack.com')
      .post('/services/T000/B000/XXXX', (body) => {
        expect(body).toEqual({
          text: '[ALERTING] CPU "hot" &lt;web&gt; &amp; co: web.2.cpu = 95.5 (above 90 for 5 minutes)',
          attachments: [
            {
              color: '#d00000',
              title: 'CPU "hot" &lt;web&gt; &amp; co',
              title_link: 'https://alertform.example/alerts/al_123',
              image_url: 'https://alertform.example/v2/graphs/eyJhIjoiYWxfMTIzIn0.c2ln.png',
              text: 'Check the runbook: https://runbooks.example/cpu',
              fields: [
                { title: 'Status', value: 'alerting', short: true },
                { title: 'Criteria', value: 'above 90 for 5 minutes', short: true },
                { title: 'Metrics', value: 'web.2.cpu: 95.5', short: false },
              ],
              ts: TIME,
            },
          ],
        });
        return true;
      })
      .matchHeader('content-type', 'application/json')
      .reply(200, 'ok');
    await sendNotification(channel('slack', 'https://hooks.slack.com/services/T000/B000/XXXX'), plainNotification(), settings(), signal());
    expect(scope.isDone()).toBe(true);
  });

  it('posts the recovery too, in green', async () => {
    const scope = nock('https://hooks.slack.com')
      .post('/services/T000/B000/XXXX', (body) => body.attachments[0].color === '#2eb886' && body.text.startsWith('[RECOVERED]'))
      .reply(200, 'ok');
    await sendNotification(channel('slack', 'https://hooks.slack.com/services/T000/B000/XXXX'), plainNotification('recovered'), settings(), signal());
    expect(scope.isDone()).toBe(true);
  });
});
