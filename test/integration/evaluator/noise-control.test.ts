import { afterEach, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe('a throttled channel on a running server', () => {
  it('pages the first alert of its window, holds the others, and shows them held in the deliveries and the alert timeline', async () => {
    const receiver = await startWebhookReceiver(() => 200);
    closers.push(receiver.close);
    const values: Record<string, number> = {};
    const render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [values[target] ?? 0, values[target] ?? 0], Math.floor(Date.now() / 1000) - 30, 30)),
    }));
    closers.push(render.close);
    const server = await startTestServer({ graphiteUrl: render.url, evalIntervalSeconds: 0.2, allowPrivateDestinations: true });
    closers.push(() => server.close());
    const channel = await server.request('POST', '/v2/notifications/', {
      type: 'webhook', description: 'paged hook', destination: `${receiver.url}/hook`, throttle: { max_notifications: 1, window_minutes: 60 },
    });
    expect(channel.status, channel.text).toBe(201);
    const ids: string[] = [];
    for (const metric of ['noisy.a', 'noisy.b', 'noisy.c']) {
      const created = await server.request('POST', '/v2/alerts/', {
        name: `alert ${metric}`, metric, alert_criteria: { type: 'above', above_value: 100 }, notification_channels: ['paged hook'], notification_type: ['state_change'],
      });
      ids.push(created.body.id);
    }
    values['noisy.a'] = 500;
    await until(async () => receiver.received.length, (count) => count === 1);
    values['noisy.b'] = 500;
    values['noisy.c'] = 500;
    const held = await until(
      () => server.request('GET', '/v2/deliveries/?state=held').then((r) => r.body.deliveries as any[]),
      (list) => list.length === 2,
    );
    expect(held.map((d) => [d.alert.name, d.event, d.state]).sort()).toEqual([
      ['alert noisy.b', 'alerting', 'held'],
      ['alert noisy.c', 'alerting', 'held'],
    ]);
    expect(receiver.received).toHaveLength(1);
    expect((receiver.received[0]!.body as { name: string }).name).toBe('alert noisy.a');
    const timeline = await server.request('GET', `/v2/alerts/${ids[1]}/timeline`);
    const suppressed = (timeline.body.entries as any[]).filter((entry) => entry.kind === 'notification_suppressed');
    expect(suppressed).toHaveLength(1);
    expect(suppressed[0].channel).toMatchObject({ description: 'paged hook' });
    expect(suppressed[0].reason).toMatch(/^alerting: throttled: channel paged hook sent 1 in the last 1h; in the summary at \d\d:\d\d UTC$/);
  });
});
