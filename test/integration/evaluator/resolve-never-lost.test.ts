import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { describeEachStore } from '../../helpers/store-backends.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver, type ReceivedRequest } from '../../helpers/webhook-receiver.js';

/**
 * An alert whose alerting notification went out gets its recovery on the channel that got the alerting, whatever
 * happened in between: a mute, an acknowledgement, a throttle whose window is full, a flap guard that trips on the
 * recovery itself, the channel taken off the alert. Each path on a running server, on both stores, with real deliveries to a local receiver.
 */
describeEachStore('a resolve is never lost on $name', (backend) => {
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let render: Awaited<ReturnType<typeof startFakeRender>>;
  let server: TestServer;
  /** What the fake Graphite answers per metric (0 until set). */
  const values: Record<string, number> = {};

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [values[target] ?? 0, values[target] ?? 0], Math.floor(Date.now() / 1000) - 30, 30)),
    }));
    server = await startTestServer({ db: await backend.createDb(), graphiteUrl: render.url, evalIntervalSeconds: 0.2, allowPrivateDestinations: true });
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([receiver?.close(), render?.close()]);
  });

  /** An alert on `metric` notifying a webhook channel of its own at /<metric>, with `extra` fields on the alert or channel. */
  async function alertOn(metric: string, extra: { alert?: object; channel?: object } = {}): Promise<string> {
    const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: metric, destination: `${receiver.url}/${metric}`, ...extra.channel });
    expect(channel.status, channel.text).toBe(201);
    const alert = await server.request('POST', '/v2/alerts/', {
      name: metric, metric, alert_criteria: { type: 'above', above_value: 100 }, notification_channels: [metric], notification_type: 'state_change', ...extra.alert,
    });
    expect(alert.status, alert.text).toBe(201);
    return alert.body.id as string;
  }

  const statusesAt = (metric: string) => receiver.received.filter((r) => r.path === `/${metric}`).map((r) => (r.body as { status: string }).status);
  const event = (metric: string, status: string) => (r: ReceivedRequest) => r.path === `/${metric}` && (r.body as { status?: string }).status === status;

  /** Breaches `metric` and waits for the alerting page. */
  async function page(metric: string): Promise<void> {
    values[metric] = 500;
    await receiver.waitFor(event(metric, 'alerting'), 15_000);
  }

  it('sends the recovery of a notified episode although the alert was muted in between', async () => {
    const id = await alertOn('resolve.muted');
    await page('resolve.muted');
    expect((await server.request('POST', `/v2/alerts/${id}/muted/`, { duration: 60 })).status).toBe(200);
    values['resolve.muted'] = 1;
    await receiver.waitFor(event('resolve.muted', 'recovered'), 15_000);
    const read = await until(() => server.request('GET', `/v2/alerts/${id}/`), (r) => r.body.status === 'healthy');
    expect(read.body.muted).toBe(true);
    expect(statusesAt('resolve.muted')).toEqual(['alerting', 'recovered']);
  });

  it('sends the recovery of an acknowledged episode', async () => {
    const id = await alertOn('resolve.acked');
    await page('resolve.acked');
    expect((await server.request('POST', `/v2/alerts/${id}/ack/`, { by: 'Ann', note: 'on it' })).status).toBe(200);
    await receiver.waitFor(event('resolve.acked', 'acknowledged'), 15_000);
    values['resolve.acked'] = 1;
    await receiver.waitFor(event('resolve.acked', 'recovered'), 15_000);
    expect(statusesAt('resolve.acked')).toEqual(['alerting', 'acknowledged', 'recovered']);
  });

  it('sends the recovery through a throttle whose window is already full, and holds no resolve', async () => {
    await alertOn('resolve.throttled', { channel: { throttle: { max_notifications: 1, window_minutes: 60 } } });
    // The alerting takes the window's only slot.
    await page('resolve.throttled');
    values['resolve.throttled'] = 1;
    await receiver.waitFor(event('resolve.throttled', 'recovered'), 15_000);
    const held = await server.request('GET', '/v2/deliveries/?state=held');
    expect((held.body.deliveries as { alert: { name: string } }[]).filter((d) => d.alert.name === 'resolve.throttled')).toEqual([]);
    expect(statusesAt('resolve.throttled')).toEqual(['alerting', 'recovered']);
  });

  it('sends the recovery to a channel taken off the alert during the episode: it was told, it is owed the resolve', async () => {
    const id = await alertOn('resolve.moved');
    const other = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'resolve.moved.next', destination: `${receiver.url}/resolve.moved.next` });
    expect(other.status).toBe(201);
    await page('resolve.moved');
    expect((await server.request('PUT', `/v2/alerts/${id}/`, { notification_channels: ['resolve.moved.next'] })).status).toBe(200);
    values['resolve.moved'] = 1;
    await receiver.waitFor(event('resolve.moved', 'recovered'), 15_000);
    await receiver.waitFor(event('resolve.moved.next', 'recovered'), 15_000);
    expect(statusesAt('resolve.moved')).toEqual(['alerting', 'recovered']);
  });

  it('sends the recovery even when that very change makes the flap guard trip', async () => {
    const id = await alertOn('resolve.flapping', { alert: { flap_guard: { max_changes: 1, window_minutes: 60 } } });
    await page('resolve.flapping');
    values['resolve.flapping'] = 1;
    // The second change within the window: the guard reports flapping, and the recovery still goes out.
    await receiver.waitFor(event('resolve.flapping', 'recovered'), 15_000);
    const timeline = await until(
      () => server.request('GET', `/v2/alerts/${id}/timeline`),
      (r) => (r.body.entries as { kind: string; reason: string | null }[]).some((e) => e.kind === 'notification_sent' && e.reason === 'flapping'),
    );
    const sent = (timeline.body.entries as { kind: string; reason: string | null }[]).filter((e) => e.kind === 'notification_sent').map((e) => e.reason);
    expect(sent.sort()).toEqual(['alerting', 'flapping', 'recovered']);
    // Flapping now: the next alerting is held, and no recovery is owed for it.
    values['resolve.flapping'] = 500;
    await until(() => server.request('GET', `/v2/alerts/${id}/`), (r) => r.body.status === 'alerting');
    values['resolve.flapping'] = 1;
    await until(() => server.request('GET', `/v2/alerts/${id}/`), (r) => r.body.status === 'healthy');
    expect(statusesAt('resolve.flapping').filter((s) => s === 'alerting' || s === 'recovered')).toEqual(['alerting', 'recovered']);
  });
});
