import { afterEach, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function serverWithHook(status: () => number) {
  const receiver = await startWebhookReceiver(status);
  closers.push(receiver.close);
  const render = await startFakeRender((request) => ({
    series: request.targets.map((target) => makeSeries(target, [target.startsWith('hot') ? 99 : 1, target.startsWith('hot') ? 99 : 1], Math.floor(Date.now() / 1000) - 30, 30)),
  }));
  closers.push(render.close);
  const server = await startTestServer({
    keys: ['deliveries-key', 'other-key'],
    graphiteUrl: render.url,
    evalIntervalSeconds: 0.2,
    allowPrivateDestinations: true,
    delivery: { retry: { firstDelayMs: 50, maxDelayMs: 100, maxAgeMs: 3_600_000 }, timeoutMs: 2_000 },
  });
  closers.push(() => server.close());
  const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
  expect(channel.status).toBe(201);
  return { server, receiver, channelId: channel.body.id as string };
}

const createAlert = async (server: TestServer, name: string, metric: string) => {
  const created = await server.request('POST', '/v2/alerts/', {
    name,
    metric,
    alert_criteria: { type: 'above', above_value: 90 },
    notification_channels: ['hook'],
    notification_type: ['state_change'],
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
};

describe('deliveries for the console', () => {
  it('lists one alert’s deliveries, retries a dead-lettered one until it is delivered, and refuses to retry another', async () => {
    let status = 400;
    const { server } = await serverWithHook(() => status);
    const hot = await createAlert(server, 'hot', 'hot.cpu');
    await createAlert(server, 'cold', 'cold.cpu');
    const dead = await until(
      () => server.request('GET', `/v2/deliveries/?state=dead&alert_id=${hot}`),
      (r) => r.body.deliveries?.length === 1,
    );
    const delivery = dead.body.deliveries[0];
    expect(delivery).toMatchObject({ state: 'dead', alert: { id: hot, name: 'hot' }, last_error: 'webhook answered HTTP 4xx' });

    expect((await server.request('POST', `/v2/deliveries/${delivery.id}/retry/`, undefined, { key: 'other-key' })).status).toBe(404);
    status = 200;
    const retried = await server.request('POST', `/v2/deliveries/${delivery.id}/retry/`);
    expect(retried.status).toBe(200);
    expect(retried.body.delivery).toMatchObject({ id: delivery.id, state: 'pending', attempts: 0 });
    await until(
      () => server.request('GET', `/v2/deliveries/?state=delivered&alert_id=${hot}`),
      (r) => r.body.deliveries?.some((d: { id: string }) => d.id === delivery.id),
    );
    const again = await server.request('POST', `/v2/deliveries/${delivery.id}/retry/`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect((await server.request('POST', '/v2/deliveries/nope/retry/')).status).toBe(404);
  });

  it('answers 404 for another account’s alert in alert_id', async () => {
    const { server } = await serverWithHook(() => 200);
    const hot = await createAlert(server, 'hot', 'hot.cpu');
    const other = await server.request('GET', `/v2/deliveries/?alert_id=${hot}`, undefined, { key: 'other-key' });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
  });

  it('sends a test notification through the outbox, marked as a test, to the account’s channel only', async () => {
    const { server, receiver, channelId } = await serverWithHook(() => 200);
    expect((await server.request('POST', `/v2/notifications/${channelId}/test/`, undefined, { key: 'other-key' })).status).toBe(404);
    const queued = await server.request('POST', `/v2/notifications/${channelId}/test/`);
    expect(queued.status).toBe(202);
    expect(queued.body.delivery).toMatchObject({ state: 'pending', event: 'test', channel: { id: channelId, type: 'webhook' }, alert: { id: '', name: 'alertform test notification' } });
    const request = await receiver.next();
    expect(request.body).toMatchObject({ id: queued.body.delivery.id, name: 'alertform test notification', test: true, status: 'alerting', graph: null });
    expect((request.body as { info: string }).info).toContain('No alert is firing');
  });
});
