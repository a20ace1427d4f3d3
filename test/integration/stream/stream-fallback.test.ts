import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiteAvailability, startGraphite, type Graphite } from '../../helpers/graphite.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { until } from '../../helpers/until.js';
import { carbonTee, type CarbonTee } from '../../helpers/carbon-tee.js';
import { freePort } from '../../helpers/free-port.js';

/**
 * The stream failing, with a real carbon-cache and graphite-web: a receiver left without a connection for longer
 * than the settle delay makes its alerts poll render (loudly: /readyz, /metrics, evaluated_by), and a relay that
 * half fails (half the series stop reaching alertform while Graphite still has them) pages no no-data: the silent
 * series are confirmed against render. A series that really stops still goes no data. The flow watch's slots are
 * a second here (a "minute" is six seconds) so that its baseline is learnt in half a minute.
 */
const availability = graphiteAvailability();

const SETTLE = 6;
const SERIES = Array.from({ length: 10 }, (_, i) => `relay.s${i}`);

describe.skipIf(availability.skip)(`the stream failing (${availability.skip ? availability.reason : 'carbon and graphite-web'})`, () => {
  let graphite: Graphite;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let server: TestServer;
  let tee: CarbonTee;
  let writer: NodeJS.Timeout | undefined;
  /** When the collectors' first points reached the receiver (epoch ms): the flow watch counts from there. */
  let flowSince = 0;
  /** How each series is written now: through the tee, to carbon only (the relay's lost share), or not at all. */
  const route = new Map<string, 'tee' | 'carbon' | 'none'>(SERIES.map((path) => [path, 'tee']));

  beforeAll(async () => {
    const carbonPort = await freePort();
    [graphite, receiver] = await Promise.all([startGraphite({ retentions: '10s:6h' }), startWebhookReceiver()]);
    server = await startTestServer({
      graphiteUrl: graphite.url,
      evalIntervalSeconds: 1,
      settleDelaySeconds: SETTLE,
      allowPrivateDestinations: true,
      carbon: { plaintext: `127.0.0.1:${carbonPort}` },
      streamFlow: { slotMs: 1000, minPointsPerMinute: 10 },
    });
    tee = carbonTee(graphite, carbonPort);
    const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'pager', destination: `${receiver.url}/pager` });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    // Three minutes of history in Graphite, so that the alerts' warm-up finds complete buckets of data.
    const start = Math.floor(Date.now() / 1000);
    await graphite.writePoints(SERIES.flatMap((path) => Array.from({ length: 18 }, (_, k) => ({ path, value: 10, time: start - 180 + 10 * k }))));
    // A collector per series, one point a second, as the route map says. A tick late on a busy machine (this
    // process's event loop also runs the server) sends the seconds it missed, as a collector catching up does:
    // the flow watch must see the collectors' steady flow, not this process's scheduling.
    let nextSecond = Math.floor(Date.now() / 1000);
    const tick = async () => {
      const now = Math.floor(Date.now() / 1000);
      const times = Array.from({ length: Math.max(0, now - nextSecond + 1) }, (_, k) => nextSecond + k);
      nextSecond = now + 1;
      const points = (how: string) => SERIES.filter((path) => route.get(path) === how).flatMap((path) => times.map((time) => ({ path, value: 10, time })));
      await Promise.all([tee.write(points('tee')), graphite.writePoints(points('carbon'))]).catch(() => undefined);
      writer = setTimeout(() => void tick(), 1000 - (Date.now() % 1000));
    };
    await tick();
    flowSince = Date.now();
  }, 60_000);

  afterAll(async () => {
    clearTimeout(writer);
    await tee?.close();
    await server?.close();
    await Promise.all([graphite?.stop(), receiver?.close()]);
  });

  const read = async (id: string) => (await server.request('GET', `/v2/alerts/${id}/`)).body as { status: string; state: string; evaluated_by: string };
  const metric = async (name: string) => {
    const text = (await server.request('GET', '/metrics')).text;
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
  };
  const readyDetail = async () => ((await server.request('GET', '/readyz')).body.checks as { name: string; detail?: string }[]).find((c) => c.name === 'evaluator')?.detail ?? '';
  const pages = (event: string) => receiver.received.filter((r) => r.path === '/pager' && (r.body as { status?: string }).status === event);

  it('confirms silent series against render when half the relay fails, and calls only a really silent series no data', async () => {
    // Graphite knows every series (a new one is found once carbon has written its file).
    await until(() => graphite.findMetrics('relay.*'), (found) => found.length === SERIES.length, 30_000, 500);
    const ids = new Map<string, string>();
    for (const path of SERIES) {
      const created = await server.request('POST', '/v2/alerts/', {
        name: `relay ${path}`, metric: path, alert_criteria: { type: 'above', above_value: 95, time_period: 1 },
        notification_channels: ['pager'], notification_type: 'state_change', on_no_data: 'notify',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids.set(path, created.body.id);
    }
    for (const id of ids.values()) await until(() => read(id), (alert) => alert.evaluated_by === 'stream' && alert.state === 'healthy', 30_000, 200);
    // The flow watch's baseline: half a minute of the whole flow since the collectors' first points (the wait for
    // carbon's files and the alerts' warm-up is part of it).
    await until(async () => Date.now(), (now) => now >= flowSince + 30_000, 35_000, 100);
    expect(await metric('alertform_stream_flow_dropped')).toBe(0);

    // The relay loses half its share to alertform (Graphite still gets it), and s9's collector dies altogether.
    for (const path of SERIES.slice(5, 9)) route.set(path, 'carbon');
    route.set('relay.s9', 'none');
    await until(() => metric('alertform_stream_flow_dropped'), (value) => value === 1, 30_000, 500);
    expect(await readyDetail()).toMatch(/dropped .* confirmed against render/);
    // s9 goes no data (render confirms it has nothing either); the relay's lost series never do.
    await receiver.waitFor((r) => r.path === '/pager' && (r.body as { status?: string; name?: string }).name === 'relay relay.s9', 150_000);
    // Five more full cycles (one a second) judge the relay's lost series again: none of them goes no data.
    const cycles = await metric('alertform_evaluation_cycle_duration_seconds_count');
    await until(() => metric('alertform_evaluation_cycle_duration_seconds_count'), (count) => count >= cycles + 5, 30_000, 250);
    expect(pages('no_data').map((r) => (r.body as { name: string }).name)).toEqual(['relay relay.s9']);
    for (const path of SERIES.slice(5, 9)) expect((await read(ids.get(path)!)).state, path).toBe('healthy');
    expect(await metric('alertform_stream_renders_total{reason="confirm"}')).toBeGreaterThan(0);
  }, 300_000);

  it('falls back to polling when the receiver has had no connection for longer than the settle delay, loudly, and back', async () => {
    for (const path of SERIES.slice(5, 9)) route.set(path, 'tee');
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'fallback', metric: 'relay.s0', alert_criteria: { type: 'above', above_value: 95 }, notification_channels: ['pager'], notification_type: 'state_change',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    await until(() => read(id), (alert) => alert.evaluated_by === 'stream', 20_000, 200);
    // The relay's destination goes away: everything reaches carbon only.
    await tee.cut();
    await until(() => read(id), (alert) => alert.evaluated_by === 'render', 30_000, 500);
    expect(await metric('alertform_stream_fallback')).toBe(1);
    expect(await readyDetail()).toMatch(/no connection for longer than the settle delay/);
    expect((await server.request('GET', '/readyz')).status).toBe(200);
    // Still judged, from render: a breach written to carbon alone pages.
    route.set('relay.s0', 'none');
    const time = Math.floor(Date.now() / 1000);
    await graphite.writePoints([{ path: 'relay.s0', value: 500, time }]);
    const page = await receiver.waitFor((r) => r.path === '/pager' && (r.body as { name?: string }).name === 'fallback', 30_000);
    expect(page.body).toMatchObject({ status: 'alerting' });
    // The relay comes back: the alerts warm from render and are judged on the stream again.
    tee.restore();
    await until(() => read(id), (alert) => alert.evaluated_by === 'stream', 20_000, 500);
    expect(await metric('alertform_stream_fallback')).toBe(0);
  }, 120_000);
});
