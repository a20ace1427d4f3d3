import { afterEach, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { runCli } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver, type ReceiverAnswer } from '../../helpers/webhook-receiver.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A render endpoint answering every target with two points of the value `values[target]` (default 0). */
async function renderOf(values: Record<string, number>) {
  const render = await startFakeRender((request) => ({
    series: request.targets.map((target) => makeSeries(target, [values[target] ?? 0, values[target] ?? 0], Math.floor(Date.now() / 1000) - 30, 30)),
  }));
  closers.push(render.close);
  return render;
}

/** A server evaluating every 200 ms with retries shortened to 100..400 ms, and one webhook channel with `alerts` alerts. */
async function serverWithAlerts(renderUrl: string, hookUrl: string, alerts: string[], maxAgeMs = 3_600_000) {
  const server = await startTestServer({
    keys: ['outbox-key', 'other-account-key'],
    graphiteUrl: renderUrl,
    evalIntervalSeconds: 0.2,
    // The webhook receiver listens on 127.0.0.1.
    allowPrivateDestinations: true,
    delivery: { retry: { firstDelayMs: 100, maxDelayMs: 400, maxAgeMs }, timeoutMs: 2_000 },
  });
  closers.push(() => server.close());
  const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: hookUrl });
  expect(channel.status).toBe(201);
  const ids: Record<string, string> = {};
  for (const metric of alerts) {
    const created = await server.request('POST', '/v2/alerts/', {
      name: `alert ${metric}`,
      metric,
      alert_criteria: { type: 'above', above_value: 100 },
      notification_channels: ['hook'],
      notification_type: ['state_change'],
    });
    expect(created.status).toBe(201);
    ids[metric] = created.body.id;
  }
  return { server, channelId: channel.body.id as string, ids };
}

/** The safe message of a 503 (the exact status, or only its class where messages keep to classes). */
const SERVER_ERROR = /^webhook answered HTTP 5(03|xx)$/;

const pending = (server: TestServer) => server.request('GET', '/v2/deliveries/?state=pending').then((r) => r.body.deliveries as any[]);

describe('the outbox', () => {
  it('delivers every notification after an outage of the endpoint, in order per alert, none twice', async () => {
    let up = false;
    const receiver = await startWebhookReceiver(() => (up ? 200 : 503));
    closers.push(receiver.close);
    const metrics = ['outage.a', 'outage.b', 'outage.c'];
    const values: Record<string, number> = {};
    const render = await renderOf(values);
    const { server, channelId, ids } = await serverWithAlerts(render.url, `${receiver.url}/hook?token=s3cret`, metrics);

    // While the endpoint answers 503, each alert fires, recovers and fires again: 9 notifications wait.
    for (const [round, value] of [[1, 500], [2, 0], [3, 500]] as const) {
      for (const metric of metrics) values[metric] = value;
      await until(() => pending(server), (list) => list.length === round * metrics.length);
    }
    const waiting = await pending(server);
    // The triggers have failed at least once, so the recoveries behind them had every chance to overtake.
    await until(() => pending(server), (list) => list.filter((d) => d.attempts > 0).length >= metrics.length);
    const channel = await server.request('GET', `/v2/notifications/${channelId}/`);
    expect(channel.body).toMatchObject({ pending_deliveries: 9, oldest_pending_seconds: expect.any(Number), last_error: { message: expect.stringMatching(SERVER_ERROR) } });
    const exposition = await fetch(`${server.url}/metrics`).then((r) => r.text());
    expect(exposition).toMatch(/^alertform_deliveries_pending\{channel_type="webhook"\} 9$/m);
    expect(JSON.stringify(waiting)).not.toContain('s3cret');

    up = true;
    await until(() => pending(server), (list) => list.length === 0, 30_000);
    const accepted = receiver.received.filter((_, i) => receiver.answered[i] === 200);
    expect(accepted).toHaveLength(9);
    const deliveryIds = accepted.map((r) => (r.body as { id: string }).id);
    expect(new Set(deliveryIds).size).toBe(9);
    for (const request of accepted) expect(request.headers['idempotency-key']).toBe((request.body as { id: string }).id);
    for (const metric of metrics) {
      const events = accepted.filter((r) => (r.body as { metric: string }).metric === metric).map((r) => (r.body as { status: string }).status);
      expect(events, metric).toEqual(['alerting', 'recovered', 'alerting']);
    }
    // Each failed attempt of a delivery carried the id of its successful one: one id per notification, whatever the tries.
    const tried = new Set(receiver.received.map((r) => (r.body as { id: string }).id));
    expect(tried).toEqual(new Set(deliveryIds));
    const read = await server.request('GET', `/v2/notifications/${channelId}/`);
    expect(read.body).not.toHaveProperty('pending_deliveries');
    expect(read.body).not.toHaveProperty('last_error');
    const delivered = await server.request('GET', '/v2/deliveries/?state=delivered');
    expect(delivered.body.deliveries.map((d: any) => d.alert.id).sort()).toEqual([...metrics, ...metrics, ...metrics].map((m) => ids[m]).sort());
  }, 60_000);

  it("waits as long as the service's Retry-After says, as seconds or as an HTTP date", async () => {
    // The date is made when the request comes; HTTP dates have whole seconds, so it is 2 to 3 s ahead.
    const answers: (() => ReceiverAnswer)[] = [
      () => ({ status: 429, headers: { 'retry-after': '2' } }),
      () => ({ status: 503, headers: { 'retry-after': new Date(Date.now() + 3_000).toUTCString() } }),
    ];
    const receiver = await startWebhookReceiver(() => (answers.shift() ?? (() => 200))());
    closers.push(receiver.close);
    const times: number[] = [];
    const values = { 'retry.after': 500 };
    const render = await renderOf(values);
    await serverWithAlerts(render.url, `${receiver.url}/hook`, ['retry.after']);
    for (let i = 0; i < 3; i += 1) {
      await receiver.next(15_000);
      times.push(Date.now());
    }
    // Without Retry-After the backoff here is 100..400 ms; the service asked for 2 s, then for a time >= 2 s later.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1_950);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(1_950);
    const ids = new Set(receiver.received.map((r) => r.headers['idempotency-key']));
    expect(ids.size).toBe(1);
  });

  it('dead-letters a notification after the maximum age, and `alertform deliveries --failed` lists it', async () => {
    const receiver = await startWebhookReceiver(() => 503);
    closers.push(receiver.close);
    const render = await renderOf({ 'dead.letter': 500 });
    const { server, channelId } = await serverWithAlerts(render.url, `${receiver.url}/hook?token=s3cret`, ['dead.letter'], 1_500);
    const dead = await until(() => server.request('GET', '/v2/deliveries/?state=dead'), (r) => r.body.deliveries.length === 1, 15_000);
    expect(dead.body.deliveries[0]).toMatchObject({
      state: 'dead',
      event: 'alerting',
      channel: { id: channelId, type: 'webhook', description: 'hook' },
      alert: { name: 'alert dead.letter' },
      next_attempt_at: null,
      last_error: expect.stringMatching(SERVER_ERROR),
    });
    expect(dead.body.deliveries[0].attempts).toBeGreaterThanOrEqual(3);
    // The alert's timeline says what became of the delivery, beside the entry that it was written to the outbox.
    const timeline = await server.request('GET', `/v2/alerts/${dead.body.deliveries[0].alert.id}/timeline`);
    const kinds = (timeline.body.entries as { kind: string; reason: string | null; channel: { id: string } | null }[]).filter((e) => e.kind.startsWith('notification_'));
    expect(kinds.map((e) => [e.kind, e.channel?.id])).toEqual([
      ['notification_failed', channelId],
      ['notification_sent', channelId],
    ]);
    expect(kinds[0]!.reason).toMatch(/^alerting: dead-lettered: webhook answered HTTP 5(03|xx)$/);
    expect(kinds[1]!.reason).toBe('alerting');
    // Another account sees none of it, neither in the listing nor on its channels.
    const other = await server.request('GET', '/v2/deliveries/?state=dead&state=pending', undefined, { key: 'other-account-key' });
    expect(other.body).toEqual({ deliveries: [], next_page: false });
    // No further attempt after it died.
    const tries = receiver.received.length;
    expect(tries).toBe(dead.body.deliveries[0].attempts);

    const cli = await runCli(['deliveries', '--failed', '--server', server.url, '--api-key', server.key]);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/^dead .* webhook "hook"  alert dead\.letter: alerting  last error: webhook answered HTTP 5(03|xx)$/m);
    expect(cli.stdout).toContain('1 delivery');
    const json = await runCli(['deliveries', '--json', '--server', server.url, '--api-key', server.key]);
    expect(JSON.parse(json.stdout)).toMatchObject({ formatVersion: expect.anything(), deliveries: [{ state: 'dead', alert: { name: 'alert dead.letter' } }] });
    expect(cli.stdout + json.stdout).not.toContain('s3cret');
    expect(cli.stdout + json.stdout).not.toContain(receiver.url);

    // A server without an outbox (the hosted API): a clear message, not a bare 404.
    const hosted = await startWebhookReceiver(() => 404);
    closers.push(hosted.close);
    const elsewhere = await runCli(['deliveries', '--server', hosted.url, '--api-key', 'k']);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('this server has no /v2/deliveries/ (only alertform serve keeps an outbox)');
    const elsewhereJson = await runCli(['deliveries', '--json', '--server', hosted.url, '--api-key', 'k']);
    expect(JSON.parse(elsewhereJson.stdout)).toMatchObject({ error: { message: expect.stringContaining('no /v2/deliveries/') } });

    const bad = await server.request('GET', '/v2/deliveries/?state=lost');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: expect.anything() });
  }, 90_000);
});
