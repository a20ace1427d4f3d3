import { afterEach, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import packageJson from '../../../package.json' with { type: 'json' };

// /metrics' counters of what the evaluator and the outbox did: transitions by the status entered, deliveries sent
// and failed by channel type (counted once their outcome is in the outbox), and the build.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** Every sample of `name` in the Prometheus text, as `{labels} value` lines (labels as printed). */
function samples(text: string, name: string): Record<string, number> {
  const found: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    found[/\{(.*)\}/.exec(line)?.[1] ?? ''] = Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return found;
}

const metricsOf = (server: TestServer) => server.request('GET', '/metrics', undefined, { key: null }).then((r) => r.text);

describe('/metrics counters', () => {
  it('count one transition to alerting, one failed attempt and one sent webhook, by exact labels', async () => {
    // The first delivery is answered 503 (retried), the second 200.
    let calls = 0;
    const receiver = await startWebhookReceiver(() => (++calls === 1 ? 503 : 200));
    closers.push(receiver.close);
    const render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [500, 500], Math.floor(Date.now() / 1000) - 30, 30)),
    }));
    closers.push(render.close);
    const server = await startTestServer({
      graphiteUrl: render.url,
      evalIntervalSeconds: 0.2,
      allowPrivateDestinations: true,
      delivery: { retry: { firstDelayMs: 100, maxDelayMs: 200 }, timeoutMs: 2_000 },
    });
    closers.push(() => server.close());

    const before = await metricsOf(server);
    expect(samples(before, 'alertform_build_info')).toEqual({ [`version="${packageJson.version}",node="${process.version}"`]: 1 });
    expect(samples(before, 'alertform_transitions_total')).toEqual({});
    expect(before).toContain('# TYPE alertform_notifications_sent_total counter');

    const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
    expect(channel.status).toBe(201);
    const alert = await server.request('POST', '/v2/alerts/', {
      name: 'counted',
      metric: 'counted.load',
      alert_criteria: { type: 'above', above_value: 100 },
      notification_channels: ['hook'],
      notification_type: ['state_change'],
    });
    expect(alert.status).toBe(201);

    await receiver.waitFor(() => receiver.answered.filter((status) => status === 200).length === 1);
    const after = await until(
      () => metricsOf(server),
      (text) => samples(text, 'alertform_notifications_sent_total')['channel_type="webhook"'] === 1,
    );
    expect(samples(after, 'alertform_transitions_total')).toEqual({ 'to="alerting"': 1 });
    expect(samples(after, 'alertform_notifications_sent_total')).toEqual({ 'channel_type="webhook"': 1 });
    expect(samples(after, 'alertform_notifications_failed_total')).toEqual({ 'channel_type="webhook",outcome="retry"': 1 });
    // Without --heartbeat-url no ping is counted.
    expect(samples(after, 'alertform_heartbeats_sent_total')).toEqual({ '': 0 });
  }, 60_000);
});
