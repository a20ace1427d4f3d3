import { afterEach, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const now = Math.floor(Date.now() / 1000);

/** A render endpoint that answers the graph's long reads with a series crossing 90, and the evaluator's short ones with `current`. */
async function renderWith(current: () => number | null) {
  const render = await startFakeRender((request) => ({
    series: request.targets.map((target) =>
      request.from === '-10080min' || request.from === '-1440min' || request.from === '-360min'
        ? makeSeries(target, [50, 95, null, 40], now, 60)
        : current() === null
          ? makeSeries(target, [], now)
          : makeSeries(target, [current(), current()], Math.floor(Date.now() / 1000) - 30, 30),
    ),
  }));
  closers.push(render.close);
  return render;
}

async function server(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const started = await startTestServer({ keys: ['views-key', 'other-key'], ...options });
  closers.push(() => started.close());
  return started;
}

const createAlert = async (s: TestServer, body: Record<string, unknown> = {}) => {
  const created = await s.request('POST', '/v2/alerts/', { name: 'cpu', metric: 'web.*.cpu', alert_criteria: { type: 'above', above_value: 90 }, ...body });
  expect(created.status).toBe(201);
  return created.body.id as string;
};

describe('the graph of an alert', () => {
  it('answers each criterion with its thresholds and series from the server’s Graphite, and the alerting periods from history', async () => {
    const render = await renderWith(() => null);
    const s = await server({ graphiteUrl: render.url, evalIntervalSeconds: 3600 });
    const id = await createAlert(s, {
      additional_criteria: { b: { metric: 'web.*.errors', type: 'outside_bounds', above_value: 10, below_value: 1 } },
      expression: 'a || b',
    });
    await s.store.history.appendHistory([
      { alertId: id, status: 'alerting', value: 95, time: now - 3000, metric: 'web.1.cpu' },
      { alertId: id, status: 'recovered', value: 40, time: now - 1200, metric: 'web.1.cpu' },
      { alertId: id, status: 'alerting', value: 96, time: now - 600, metric: 'web.1.cpu' },
    ]);
    const response = await s.request('GET', `/v2/alerts/${id}/graph/?range=24h`);
    expect(response.status).toBe(200);
    expect(response.body.until - response.body.from).toBe(86_400);
    expect(response.body.error).toBeNull();
    expect(response.body.criteria).toEqual([
      { name: 'alert_criteria', metric: 'web.*.cpu', type: 'above', thresholds: [90], series: [{ target: 'web.*.cpu', points: [[now - 180, 50], [now - 120, 95], [now - 60, null], [now, 40]] }] },
      { name: 'b', metric: 'web.*.errors', type: 'outside_bounds', thresholds: [1, 10], series: [expect.objectContaining({ target: 'web.*.errors' })] },
    ]);
    expect(response.body.alerting).toEqual([
      { from: now - 3000, until: now - 1200 },
      { from: now - 600, until: null },
    ]);
    expect(render.requests.some((r) => r.from === '-1440min' && r.maxDataPoints === '720')).toBe(true);
  });

  it('tells the settle delay in effect, the server’s or the alert’s own, which the console shades as not yet judged', async () => {
    const render = await renderWith(() => null);
    const s = await server({ graphiteUrl: render.url, evalIntervalSeconds: 3600, settleDelaySeconds: 45 });
    const byServer = await createAlert(s);
    const own = await createAlert(s, { name: 'own delay', settle_seconds: 0 });
    expect((await s.request('GET', `/v2/alerts/${byServer}/graph/`)).body.settle_seconds).toBe(45);
    expect((await s.request('GET', `/v2/alerts/${own}/graph/`)).body.settle_seconds).toBe(0);
  });

  it('refuses an unknown range with a JSON 400 and another account’s alert with 404', async () => {
    const render = await renderWith(() => null);
    const s = await server({ graphiteUrl: render.url, evalIntervalSeconds: 3600 });
    const id = await createAlert(s);
    const bad = await s.request('GET', `/v2/alerts/${id}/graph/?range=1y`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_query', details: [{ path: 'range', message: 'must be one of 6h, 24h, 7d' }] });
    expect((await s.request('GET', `/v2/alerts/${id}/graph/`, undefined, { key: 'other-key' })).status).toBe(404);
    expect((await s.request('GET', `/v2/alerts/${id}/timeline/`, undefined, { key: 'other-key' })).status).toBe(404);
  });

  it('says why there are no series: no Graphite, or a query outside the account’s metric prefixes (never run)', async () => {
    const plain = await server();
    const id = await createAlert(plain);
    const none = await plain.request('GET', `/v2/alerts/${id}/graph/`);
    expect(none.status).toBe(200);
    expect(none.body.error).toBe('this server reads no Graphite (alertform serve --graphite-url)');
    expect(none.body.criteria[0].series).toEqual([]);

    const render = await renderWith(() => null);
    const confined = await server({ graphiteUrl: render.url, evalIntervalSeconds: 3600 });
    const alertId = await createAlert(confined);
    const account = (await confined.store.accounts.findAccountByKey('views-key'))!.id;
    await confined.store.accounts.setMetricPrefixes(account, ['team1.']);
    const before = render.requests.length;
    const graph = await confined.request('GET', `/v2/alerts/${alertId}/graph/?range=6h`);
    expect(graph.body.error).toContain('outside the account\'s metric prefixes');
    expect(graph.body.criteria[0].series).toEqual([]);
    expect(render.requests.slice(before).some((r) => r.from === '-360min')).toBe(false);
  });
});

describe('the timeline of an alert', () => {
  it('shows the transition, the notification held back by a mute and why, and the mute and unmute, newest first', async () => {
    let value: number | null = 50;
    const render = await renderWith(() => value);
    const s = await server({ graphiteUrl: render.url, evalIntervalSeconds: 0.2 });
    const id = await createAlert(s, { notification_type: ['state_change'] });
    expect((await s.request('POST', `/v2/alerts/${id}/muted/`, { duration: 30 })).status).toBe(200);
    value = 99;
    const timeline = await until(
      () => s.request('GET', `/v2/alerts/${id}/timeline/?days=1`),
      (r) => r.body.entries?.some((e: { kind: string }) => e.kind === 'notification_suppressed'),
    );
    const kinds = timeline.body.entries.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(['notification_suppressed', 'alerting', 'muted']);
    expect(timeline.body.entries[0]).toMatchObject({ kind: 'notification_suppressed', reason: 'alerting: muted', metric: 'web.*.cpu', channel: null });
    expect(timeline.body.entries[2]).toMatchObject({ kind: 'muted', metric: null, value: null, reason: expect.stringMatching(/^muted for 30 minutes, until /) });

    expect((await s.request('DELETE', `/v2/alerts/${id}/muted/`)).status).toBe(200);
    value = 10;
    const after = await until(
      () => s.request('GET', `/v2/alerts/${id}/timeline/`),
      (r) => r.body.entries?.some((e: { kind: string }) => e.kind === 'recovered'),
    );
    const entries = after.body.entries as { kind: string; reason: string | null }[];
    expect(entries.map((e) => e.kind)).toContain('unmuted');
    // The alerting notice was never sent, so the recovery is not either, and says so.
    expect(entries.find((e) => e.kind === 'notification_suppressed' && e.reason?.startsWith('recovered'))?.reason).toBe(
      'recovered: no alerting notification was sent for this episode',
    );
    // The public history shows none of the console's kinds.
    const history = await s.request('GET', `/v2/alerts/history/?id=${id}`);
    expect(history.body[id].map((e: { status: string }) => e.status)).toEqual(['recovered', 'alerting']);
    expect((await s.request('GET', `/v2/alerts/${id}/timeline/?days=0`)).status).toBe(400);
  });

  it('records each notification sent with its channel', async () => {
    let value: number | null = 99;
    const render = await renderWith(() => value);
    const s = await server({ graphiteUrl: render.url, evalIntervalSeconds: 0.2 });
    const id = await createAlert(s, { notification_type: ['state_change'] });
    const timeline = await until(
      () => s.request('GET', `/v2/alerts/${id}/timeline/`),
      (r) => r.body.entries?.some((e: { kind: string }) => e.kind === 'notification_sent'),
    );
    const sent = timeline.body.entries.find((e: { kind: string }) => e.kind === 'notification_sent');
    expect(sent).toMatchObject({ reason: 'alerting', metric: 'web.*.cpu', value: 99, channel: { type: 'email', description: 'Email me' } });
    value = null;
  });
});
