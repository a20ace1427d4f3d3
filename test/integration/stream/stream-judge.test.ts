import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiteAvailability, startGraphite, type Graphite, type GraphitePoint } from '../../helpers/graphite.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { until } from '../../helpers/until.js';
import { carbonTee, type CarbonTee } from '../../helpers/carbon-tee.js';
import { freePort } from '../../helpers/free-port.js';

/**
 * Alerts judged on the metric stream, with a real carbon-cache and graphite-web fed the same points (a relay's
 * tee): the late-point scenarios of the settle-delay tests (late-points.test.ts) give no false transition, and a
 * real breach pages within seconds of the point that completes its bucket, not after the settle delay. The
 * server's cycles run only every 5 s: what pages within seconds is the bucket completing, not a timer.
 */
const availability = graphiteAvailability();

const SETTLE = 12;
const INTERVAL = 5;
const SUM = Array.from({ length: 10 }, (_, i) => `late.sum.s${i}`);
const EACH = ['late.each.a', 'late.each.b', 'late.each.c'];
const ON_TIME = [100, 100, 120];
const LATE = [90, 100, 110];

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe.skipIf(availability.skip)(`alerts judged on the metric stream (${availability.skip ? availability.reason : 'carbon and graphite-web'})`, () => {
  let graphite: Graphite;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let server: TestServer;
  let tee: CarbonTee;

  beforeAll(async () => {
    const carbonPort = await freePort();
    [graphite, receiver] = await Promise.all([startGraphite({ retentions: '10s:6h' }), startWebhookReceiver()]);
    server = await startTestServer({
      graphiteUrl: graphite.url,
      evalIntervalSeconds: INTERVAL,
      settleDelaySeconds: SETTLE,
      allowPrivateDestinations: true,
      carbon: { plaintext: `127.0.0.1:${carbonPort}` },
    });
    tee = carbonTee(graphite, carbonPort);
    const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'pager', destination: `${receiver.url}/pager` });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await tee?.close();
    await server?.close();
    await Promise.all([graphite?.stop(), receiver?.close()]);
  });

  async function clockAt(time: number): Promise<void> {
    await until(async () => Date.now() / 1000, (now) => now >= time, (time - Date.now() / 1000) * 1000 + 5_000, 50);
  }

  async function createAlert(name: string, metric: string, criteria: object) {
    const created = await server.request('POST', '/v2/alerts/', { name, metric, alert_criteria: criteria, notification_channels: ['pager'], notification_type: 'state_change' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  }

  const read = async (id: string) => (await server.request('GET', `/v2/alerts/${id}/`)).body as { status: string; evaluated_by: string };
  const statusOf = async (id: string) => (await read(id)).status;
  const pagesOf = (name: string) =>
    receiver.received.filter((r) => r.path === '/pager' && (r.body as { name?: string }).name === name).map((r) => (r.body as { status: string }).status);

  function onTime(time: number): GraphitePoint[] {
    const k = (time % 30) / 10;
    return [...SUM.map((path) => ({ path, value: 10, time })), ...EACH.map((path) => ({ path, value: ON_TIME[k]!, time }))];
  }

  async function writeOnTime(from: number, to: number): Promise<void> {
    for (let time = from; time < to; time += 10) {
      await clockAt(time);
      await tee.write(onTime(time));
    }
  }

  it.concurrent('gives zero false transitions when part of the newest points land seconds late, for sumSeries and per-series wildcards', async () => {
    const criteria = { type: 'above', above_value: 95, time_period: 1 };
    const sum = await createAlert('stream sum', 'sumSeries(late.sum.*)', criteria);
    const each = await createAlert('stream each', 'late.each.*', criteria);
    expect((await read(sum)).evaluated_by).toBe('stream');
    expect((await read(each)).evaluated_by).toBe('stream');

    const current = Math.floor(nowSeconds() / 30) * 30;
    const history: GraphitePoint[] = [];
    for (let time = current - 180; time < current; time += 10) history.push(...onTime(time));
    await tee.write(history);
    for (const id of [sum, each]) await until(() => statusOf(id), (s) => s === 'alerting', 40_000, 200);

    const late = Math.floor(nowSeconds() / 30) * 30 + 30;
    await writeOnTime(current, late);
    await clockAt(late);
    // Half the sum's collectors, and each series' first point only (90, below the threshold alone).
    await tee.write([...SUM.slice(0, 5).map((path) => ({ path, value: 10, time: late })), ...EACH.map((path) => ({ path, value: LATE[0]!, time: late }))]);
    // Seconds later (a cycle has run meanwhile), the other collectors, and the rest of the bucket on time.
    await clockAt(late + 7);
    await tee.write(SUM.slice(5).map((path) => ({ path, value: 10, time: late })));
    for (const k of [1, 2]) {
      await clockAt(late + 10 * k);
      await tee.write([...SUM.map((path) => ({ path, value: 10, time: late + 10 * k })), ...EACH.map((path) => ({ path, value: LATE[k]!, time: late + 10 * k }))]);
    }
    await writeOnTime(late + 30, late + 30 + SETTLE + 2 * INTERVAL);
    await clockAt(late + 30 + SETTLE + 2 * INTERVAL);

    for (const [id, name] of [[sum, 'stream sum'], [each, 'stream each']] as const) {
      expect(await statusOf(id), name).toBe('alerting');
      expect(pagesOf(name), name).toEqual(['alerting']);
    }
  }, 180_000);

  it.concurrent('pages a real breach within seconds of the point that completes its bucket', async () => {
    const name = 'stream breach';
    const id = await createAlert(name, 'sumSeries(late.breach.*)', { type: 'above', above_value: 95 });
    const paths = SUM.map((path) => path.replace('late.sum', 'late.breach'));
    const start = Math.floor(nowSeconds() / 30) * 30;
    await tee.write(paths.flatMap((path) => [-60, -50, -40, -30, -20, -10].map((k) => ({ path, value: 1, time: start + k }))));
    // Warmed from render and judged healthy on the stream before the breach.
    await until(() => read(id), (alert) => alert.evaluated_by === 'stream' && alert.status === 'healthy', 20_000, 200);
    const breach = start + 30;
    await writeUpTo(start, breach, paths, 1);
    let completedAt = 0;
    for (const k of [0, 10, 20]) {
      await clockAt(breach + k);
      completedAt = Date.now();
      await tee.write(paths.map((path) => ({ path, value: 10, time: breach + k })));
    }
    const page = await receiver.waitFor((r) => r.path === '/pager' && (r.body as { name?: string }).name === name, 20_000);
    const latencyMs = Date.now() - completedAt;
    expect(page.body).toMatchObject({ status: 'alerting', value: 100 });
    // The bucket completed with its +20 s point: paged within seconds of it, before the bucket even ended on the
    // clock, where render polling with the settle delay pages no earlier than its end plus the delay (42 s later).
    expect(latencyMs).toBeLessThan(3_000);
    expect(pagesOf(name)).toEqual(['alerting']);
  }, 120_000);

  /** On-time points of value `value` for every 10 s slot from `from` to before `to`. */
  async function writeUpTo(from: number, to: number, paths: string[], value: number): Promise<void> {
    for (let time = from; time < to; time += 10) {
      await clockAt(time);
      await tee.write(paths.map((path) => ({ path, value, time })));
    }
  }
});
