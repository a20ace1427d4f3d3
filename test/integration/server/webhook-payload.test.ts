import { createHmac, timingSafeEqual } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { VERSION } from '../../../src/version.js';

// What a receiver needs from a real evaluation: pair a recovery with its alert, order and verify what it gets.
describeEachStore('webhook payloads for machines on $name', (backend) => {
  let value = 0;
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let render: Awaited<ReturnType<typeof startFakeRender>>;
  let channelId: string;
  let alertId: string;
  const logLines: string[] = [];
  const bodies = () => receiver.received.map((r) => r.body as Record<string, any>);

  beforeAll(async () => {
    receiver = await startWebhookReceiver(() => 200);
    render = await startFakeRender((request) => ({
      // The wildcard's series come b before a: the payload sorts them.
      series: request.targets.flatMap(() => ['app.queue.b', 'app.queue.a'].map((name) => makeSeries(name, [value, value], Math.floor(Date.now() / 1000) - 30, 30))),
    }));
    server = await startTestServer({
      keys: ['payload-key', 'other-tenant-key'],
      db: await backend.createDb(),
      logger: pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) }),
      graphiteUrl: render.url,
      evalIntervalSeconds: 0.1,
      allowPrivateDestinations: true,
      delivery: { retry: { firstDelayMs: 100, maxDelayMs: 400, maxAgeMs: 3_600_000 }, timeoutMs: 2_000, pollMs: 50 },
    });
    const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
    channelId = channel.body.id;
    const alert = await server.request('POST', '/v2/alerts/', {
      name: 'queue deep',
      metric: 'app.queue.*',
      alert_criteria: { type: 'outside_bounds', above_value: 100, below_value: -5.5 },
      notification_channels: ['hook'],
    });
    alertId = alert.body.id;
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await render?.close();
  });

  it('answers the channel signing secret to its account only, never in a log', async () => {
    const answer = await server.request('GET', `/v2/notifications/${channelId}/signing-secret/`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ id: channelId, header: 'X-Alertform-Signature', algorithm: 'HMAC-SHA256' });
    expect(answer.body.signing_secret).toMatch(/^[\w-]{43}$/);
    // The same secret on every read (derived, not random per request).
    expect((await server.request('GET', `/v2/notifications/${channelId}/signing-secret/`)).body.signing_secret).toBe(answer.body.signing_secret);
    const other = await server.request('GET', `/v2/notifications/${channelId}/signing-secret/`, undefined, { key: 'other-tenant-key' });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
    expect(logLines.join('\n')).not.toContain(answer.body.signing_secret);
  });

  it('sends alert_id, event, the episode times, thresholds and sorted metrics, signed, and pairs the recovery', async () => {
    const secret = (await server.request('GET', `/v2/notifications/${channelId}/signing-secret/`)).body.signing_secret as string;
    value = 500;
    await until(async () => bodies(), (b) => b.some((x) => x.event === 'alerting'));
    value = 0;
    await until(async () => bodies(), (b) => b.some((x) => x.event === 'recovered'));
    const alerting = bodies().find((b) => b.event === 'alerting')!;
    const recovered = bodies().find((b) => b.event === 'recovered')!;
    expect(alerting).toMatchObject({
      alert_id: alertId,
      status: 'alerting',
      started_at: expect.any(Number),
      ended_at: null,
      thresholds: { above: 100, below: -5.5 },
      triggered_metrics: [
        { metric: 'app.queue.a', value: 500 },
        { metric: 'app.queue.b', value: 500 },
      ],
    });
    expect(recovered).toMatchObject({ alert_id: alertId, status: 'recovered', started_at: alerting.started_at });
    expect(recovered.ended_at).toBeGreaterThanOrEqual(alerting.started_at);
    expect(recovered.id).not.toBe(alerting.id);

    for (const request of receiver.received) {
      expect(request.headers['user-agent']).toBe(`alertform/${VERSION}`);
      const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(request.raw).digest('hex')}`);
      const given = Buffer.from(String(request.headers['x-alertform-signature']));
      expect(given.length === expected.length && timingSafeEqual(given, expected)).toBe(true);
    }
    expect(logLines.join('\n')).not.toContain(secret);
  });
});
