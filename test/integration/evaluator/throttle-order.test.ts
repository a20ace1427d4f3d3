import { it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer } from '../../helpers/server.js';
import { describeEachStore } from '../../helpers/store-backends.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

/**
 * One order a receiver of a throttled channel can follow, on both stores at once (each waits out a throttle window's
 * minute): nothing is resolved before it was announced. An alert whose alerting the throttle held, and that recovers before the window ends, gets no recovery
 * of its own: the window's summary lists its alerting and its recovery, in order.
 */
describeEachStore('a throttled channel on $name', (backend) => {
  it('holds the recovery of an alert whose alerting it held, and the summary says it recovered meanwhile', async ({ expect, onTestFinished }) => {
    const closers: (() => Promise<void>)[] = [];
    onTestFinished(async () => {
      while (closers.length) await closers.pop()!();
    });
    const receiver = await startWebhookReceiver(() => 200);
    closers.push(receiver.close);
    const values: Record<string, number> = {};
    const render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [values[target] ?? 0, values[target] ?? 0], Math.floor(Date.now() / 1000) - 30, 30)),
    }));
    closers.push(render.close);
    const server = await startTestServer({
      db: await backend.createDb(), graphiteUrl: render.url, evalIntervalSeconds: 0.2, allowPrivateDestinations: true,
      delivery: { pollMs: 50, retry: { firstDelayMs: 100, maxDelayMs: 300 } },
    });
    closers.push(() => server.close());
    const channel = await server.request('POST', '/v2/notifications/', {
      type: 'webhook', description: 'ops', destination: `${receiver.url}/hook`, throttle: { max_notifications: 1, window_minutes: 1 },
    });
    expect(channel.status, channel.text).toBe(201);
    const ids: Record<string, string> = {};
    for (const metric of ['thr.a', 'thr.b']) {
      const created = await server.request('POST', '/v2/alerts/', {
        name: `alert ${metric}`, metric, alert_criteria: { type: 'above', above_value: 100 }, notification_channels: ['ops'], notification_type: ['state_change'],
      });
      expect(created.status, created.text).toBe(201);
      ids[metric] = created.body.id as string;
    }
    const seen = () => receiver.received.map((r) => r.body as { name: string; event: string; throttled?: { held: { alert_name: string; event: string }[] } });

    // a takes the window's one slot; b's page is held.
    values['thr.a'] = 500;
    await until(async () => seen().length, (count) => count === 1);
    values['thr.b'] = 500;
    await until(() => server.request('GET', '/v2/deliveries/?state=held').then((r) => r.body.deliveries as { event: string }[]), (list) => list.length === 1);
    // b recovers inside the window: its recovery is held beside its alerting, not sent ahead of the summary.
    values['thr.b'] = 0;
    const held = await until(
      () => server.request('GET', '/v2/deliveries/?state=held').then((r) => r.body.deliveries as { alert: { name: string }; event: string }[]),
      (list) => list.length === 2,
    );
    expect(held.map((d) => [d.alert.name, d.event]).sort()).toEqual([
      ['alert thr.b', 'alerting'],
      ['alert thr.b', 'recovered'],
    ]);
    expect(seen().map((body) => `${body.name} ${body.event}`)).toEqual(['alert thr.a alerting']);

    // The window ends: one summary, which names b's page and its recovery, in order; nothing else about b.
    await until(async () => seen().length, (count) => count === 2, 90_000, 200);
    const summary = seen()[1]!;
    expect(summary.event).toBe('throttled');
    expect(summary.throttled!.held.map((one) => `${one.alert_name} ${one.event}`)).toEqual(['alert thr.b alerting', 'alert thr.b recovered']);
    const timeline = await server.request('GET', `/v2/alerts/${ids['thr.b']}/timeline`);
    const reasons = (timeline.body.entries as { kind: string; reason: string | null }[]).filter((e) => e.kind === 'notification_suppressed').map((e) => e.reason);
    expect(reasons.filter((reason) => reason?.startsWith('recovered: throttled: what it resolves is held for the summary at '))).toHaveLength(1);
    await until(() => server.request('GET', '/v2/deliveries/?state=pending').then((r) => r.body.deliveries as unknown[]), (list) => list.length === 0);
    expect(seen().map((body) => `${body.name} ${body.event}`)).toEqual(['alert thr.a alerting', 'throttled notifications throttled']);
  }, 150_000);
}, { concurrent: true });
