import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer } from '../../helpers/server.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { nockForThisFile } from '../../helpers/nock-for-this-file.js';

nockForThisFile();

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});
beforeAll(() => {
  // PagerDuty is a third party (nocked); our server, the render endpoint and the webhook receiver are real.
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});

describe('a templated channel, end to end', () => {
  it('an alert that fires sends the channel\'s templated message through the outbox, and PagerDuty gets the alert\'s severity', async () => {
    const render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [250, 250], Math.floor(Date.now() / 1000) - 30, 30)),
    }));
    closers.push(render.close);
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    let pagerduty: Record<string, any> | null = null;
    const scope = nock('https://events.pagerduty.test')
      .post('/v2/enqueue', (body) => ((pagerduty = body), true))
      .reply(202, {});
    const server = await startTestServer({
      graphiteUrl: render.url,
      evalIntervalSeconds: 0.2,
      allowPrivateDestinations: true,
      notifierUrls: { pagerduty: 'https://events.pagerduty.test' },
    });
    closers.push(() => server.close());
    const template = { title: '{{name}} is {{event}}', body: '{{#triggered}}{{metric}}={{value}};{{/triggered}} ({{criteria}})' };
    for (const channel of [
      { type: 'webhook', description: 'hook', destination: receiver.url, template },
      { type: 'pagerduty', description: 'pd', destination: 'routing-key', template },
    ]) {
      expect((await server.request('POST', '/v2/notifications/', channel)).status).toBe(201);
    }
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'Disk <full> & "hot"',
      metric: 'disk.used',
      alert_criteria: { type: 'above', above_value: 100 },
      notification_channels: ['hook', 'pd'],
      notification_type: ['state_change'],
      pagerduty_severity: 'info',
    });
    expect(created.status, created.text).toBe(201);

    const { body } = await receiver.next(15_000);
    expect(body).toMatchObject({
      name: 'Disk <full> & "hot"',
      status: 'alerting',
      title: 'Disk <full> & "hot" is alerting',
      body: 'disk.used=250; (above 100)',
    });
    await expect.poll(() => scope.isDone(), { timeout: 15_000 }).toBe(true);
    expect(pagerduty!.payload).toMatchObject({
      summary: 'Disk <full> & "hot" is alerting',
      severity: 'info',
      custom_details: { body: 'disk.used=250; (above 100)' },
    });
  });
});
