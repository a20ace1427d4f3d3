import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiteAvailability, startGraphite, type Graphite, type GraphitePoint } from '../../helpers/graphite.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { storeBackends } from '../../helpers/store-backends.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { until } from '../../helpers/until.js';

/**
 * What the window, settle and latency rules promise, on a real carbon-cache and graphite-web, with points written as
 * the clock reaches them and two servers judging them side by side, one on SQLite and one on PostgreSQL:
 *
 * - a breach shorter than a window pages nobody, one as long as the window pages, and `GET .../backtest/` counts
 *   the very same episodes;
 * - a transition is seen at most `delay + 2 buckets - step + interval` after the data crossed, and that bound is
 *   reached (a drop at a bucket's second point whose mean still breaches);
 * - a host that stops reporting: its `missing` heartbeat and its disk alert's no data are judged on the same settled
 *   buckets, in the same cycle, so the disk alert that depends on the heartbeat is held, not paged beside it.
 *
 * The scenarios run concurrently, each on its own series and alerts (told apart by name and path).
 */
const availability = graphiteAvailability();

/** The servers' settle delay: short, so the test is quick; the rules are the same at 60 s. */
const SETTLE = 12;
const INTERVAL = 2;
/** The data's step (carbon's retention below) and the evaluation's bucket. */
const STEP = 10;
const BUCKET = 30;
/** Seconds of slack for graphite-web's render and the delivery on a busy machine. */
const SLACK = 3;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Resolves once the wall clock has reached `time` (unix seconds): points are written when they are due, never ahead. */
async function clockAt(time: number): Promise<void> {
  await until(async () => Date.now() / 1000, (now) => now >= time, (time - Date.now() / 1000) * 1000 + 5_000, 100);
}

describe.skipIf(availability.skip)(`windows, settling and latency on a real Graphite (${availability.skip ? availability.reason : 'carbon and graphite-web'})`, () => {
  let graphite: Graphite;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const backends = storeBackends().filter((backend) => !backend.skip);
  const servers: { name: string; server: TestServer }[] = [];

  beforeAll(async () => {
    [graphite, receiver] = await Promise.all([startGraphite({ retentions: '10s:6h' }), startWebhookReceiver()]);
    for (const backend of backends) {
      const server = await startTestServer({
        db: await backend.createDb(), graphiteUrl: graphite.url, evalIntervalSeconds: INTERVAL, settleDelaySeconds: SETTLE, allowPrivateDestinations: true,
      });
      servers.push({ name: backend.name, server });
      const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'pager', destination: `${receiver.url}/${backend.name}` });
      expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map(({ server }) => server.close()));
    await Promise.all([graphite?.stop(), receiver?.close(), ...backends.map((backend) => backend.dispose())]);
  });

  /** Creates an alert on every server; its ids by server name. */
  async function createEverywhere(body: Record<string, unknown>): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (const { name, server } of servers) {
      const created = await server.request('POST', '/v2/alerts/', { notification_channels: ['pager'], notification_type: ['state_change'], ...body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids.set(name, created.body.id as string);
    }
    return ids;
  }

  /** The events one server paged for an alert name, in order. */
  const pagesOf = (server: string, alert: string) =>
    receiver.received
      .filter((r) => r.path === `/${server}` && (r.body as { name?: string }).name === alert)
      .map((r) => (r.body as { event: string }).event);

  /**
   * Writes `value(time)` for each path at every 10 s slot from `from` to before `to`, each once the clock has
   * reached it.
   */
  async function writeLive(paths: string[], from: number, to: number, value: (time: number) => number | null): Promise<void> {
    for (let time = from; time < to; time += STEP) {
      await clockAt(time);
      const v = value(time);
      if (v !== null) await graphite.writePoints(paths.map((path) => ({ path, value: v, time })));
    }
  }

  it.concurrent('pages no breach shorter than its window, pages one as long, and the backtest counts the same', async () => {
    // Two series side by side (one after the other, on one series, took a minute longer): one bucket of 100 on the
    // first (30 s: B, B+10, B+20), two buckets of 100 on the second (60 s), both quiet before and after.
    const blipPath = 'truth.blip.x';
    const breachPath = 'truth.breach.x';
    const alerts = {
      'blip 1m': await createEverywhere({ name: 'blip 1m', metric: blipPath, alert_criteria: { type: 'above', above_value: 50, time_period: 1 } }),
      'blip 2m': await createEverywhere({ name: 'blip 2m', metric: blipPath, alert_criteria: { type: 'above', above_value: 50, time_period: 2 } }),
      'breach 1m': await createEverywhere({ name: 'breach 1m', metric: breachPath, alert_criteria: { type: 'above', above_value: 50, time_period: 1 } }),
      'breach 2m': await createEverywhere({ name: 'breach 2m', metric: breachPath, alert_criteria: { type: 'above', above_value: 50, time_period: 2 } }),
    };
    // Three quiet minutes before the current bucket, so every window is full of data.
    const current = Math.floor(nowSeconds() / BUCKET) * BUCKET;
    const history: GraphitePoint[] = [];
    for (let time = current - 180; time < current; time += STEP) history.push({ path: blipPath, value: 1, time }, { path: breachPath, value: 1, time });
    await graphite.writePoints(history);
    const start = current + BUCKET;
    const end = start + 3 * BUCKET;
    const high: Record<string, (time: number) => boolean> = { [blipPath]: (time: number) => time >= start && time < start + BUCKET, [breachPath]: (time: number) => time >= start && time < start + 2 * BUCKET };
    await Promise.all([blipPath, breachPath].map((path) => writeLive([path], current, end, (time) => (high[path]!(time) ? 100 : 1))));
    // The breach's recovery, once the window after it is settled; then a few cycles more for anything else.
    for (const { name } of servers) {
      await receiver.waitFor((r) => r.path === `/${name}` && (r.body as { name?: string; event?: string }).name === 'breach 1m' && (r.body as { event: string }).event === 'recovered', 60_000);
    }
    await clockAt(nowSeconds() + 3 * INTERVAL);
    const fired = { 'blip 1m': 0, 'blip 2m': 0, 'breach 1m': 1, 'breach 2m': 0 };
    for (const { name, server } of servers) {
      expect(pagesOf(name, 'breach 1m'), `${name}: the 60 s breach pages the 1-minute window`).toEqual(['alerting', 'recovered']);
      expect(pagesOf(name, 'blip 1m'), `${name}: the 30 s breach does not page the 1-minute window`).toEqual([]);
      expect(pagesOf(name, 'blip 2m'), `${name}: the 30 s breach is not as long as 2 minutes`).toEqual([]);
      expect(pagesOf(name, 'breach 2m'), `${name}: the 60 s breach is not as long as 2 minutes`).toEqual([]);
      for (const [alert, ids] of Object.entries(alerts)) {
        const backtest = await server.request('GET', `/v2/alerts/${ids.get(name)}/backtest?window=1h`);
        expect(backtest.status, JSON.stringify(backtest.body)).toBe(200);
        expect(backtest.body.error).toBeNull();
        expect(backtest.body.fired, `${name}: the backtest of ${alert}`).toBe(fired[alert as keyof typeof fired]);
      }
      // The backtest's episode is the server's: from the end of the breach's second bucket to the end of the next.
      const episodes = (await server.request('GET', `/v2/alerts/${alerts['breach 1m'].get(name)}/backtest?window=1h`)).body.episodes as { from: number; until: number }[];
      expect(episodes, name).toEqual([{ from: start + 2 * BUCKET - 1, until: start + 3 * BUCKET - 1 }]);
    }
  }, 360_000);

  it.concurrent('sees a recovery within delay + 2 buckets - step + interval, and no sooner when a bucket mean still breaches', async () => {
    const path = 'truth.latency.x';
    await createEverywhere({ name: 'latency', metric: path, alert_criteria: { type: 'above', above_value: 50 } });
    const current = Math.floor(nowSeconds() / BUCKET) * BUCKET;
    const history: GraphitePoint[] = [];
    for (let time = current - 120; time < current; time += STEP) history.push({ path, value: 200, time });
    await graphite.writePoints(history);
    for (const { name } of servers) await receiver.waitFor((r) => r.path === `/${name}` && (r.body as { name?: string }).name === 'latency', 60_000);
    // The drop at the second point of bucket B: B is 200, 1, 1 (mean 67, still above 50); B+30 is all 1.
    const bucket = Math.floor(nowSeconds() / BUCKET) * BUCKET + BUCKET;
    const drop = bucket + STEP;
    const writing = writeLive([path], Math.floor(nowSeconds() / STEP) * STEP + STEP, bucket + 3 * BUCKET, (time) => (time < drop ? 200 : 1));
    const bound = SETTLE + 2 * BUCKET - STEP + INTERVAL;
    const arrivals = await Promise.all(
      servers.map(async ({ name }) => {
        // Counted from the drop, which is 10-40 s ahead (the next bucket's second point), not from now: a wait that
        // began early in a bucket used to give up before the bound had passed.
        const waitMs = (drop + bound + 30) * 1000 - Date.now();
        await receiver.waitFor((r) => r.path === `/${name}` && (r.body as { name?: string; event?: string }).name === 'latency' && (r.body as { event: string }).event === 'recovered', waitMs);
        return { name, latency: Date.now() / 1000 - drop };
      }),
    );
    await writing;
    for (const { name, latency } of arrivals) {
      // Measured: printed for the docs' figure, and held between the bound's two ends.
      console.log(`recovery latency on ${name}: ${latency.toFixed(1)} s after the drop (bound ${bound} s)`);
      expect(latency, name).toBeGreaterThanOrEqual(SETTLE + 2 * BUCKET - STEP);
      expect(latency, name).toBeLessThanOrEqual(bound + SLACK);
    }
  }, 300_000);

  it.concurrent("holds a host's disk alert behind its heartbeat: both judged on the same settled buckets when the host stops", async () => {
    const beat = 'truth.hosts.h1.beat';
    const disk = 'truth.hosts.h1.disk';
    const current = Math.floor(nowSeconds() / BUCKET) * BUCKET;
    const history: GraphitePoint[] = [];
    for (let time = current - 120; time < current; time += STEP) history.push({ path: beat, value: 40, time }, { path: disk, value: 40, time });
    await graphite.writePoints(history);
    // The alerts come once graphite-web shows the host (a query that matches nothing is missing, and pages).
    const shown = async () => {
      const answer = await fetch(`${graphite.url}/render?target=truth.hosts.*.beat&target=truth.hosts.*.disk&from=-5min&format=json`);
      return answer.ok ? ((await answer.json()) as unknown[]).length : 0;
    };
    await until(shown, (count) => count === 2, 30_000, 200);
    await createEverywhere({ name: 'heartbeat', metric: 'truth.hosts.*.beat', alert_criteria: { type: 'missing', time_period: 1 } });
    const diskIds = new Map<string, string>();
    for (const { name, server } of servers) {
      // The host's own disk alert, held by the heartbeat series of the same host (node 2).
      const created = await server.request('POST', '/v2/alerts/', {
        name: 'disk', metric: disk, alert_criteria: { type: 'above', above_value: 90, time_period: 1 }, on_no_data: 'alerting',
        notification_channels: ['pager'], notification_type: ['state_change'], depends_on: [{ alert: 'heartbeat', nodes: [2] }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      diskIds.set(name, created.body.id as string);
    }
    // The host reports until the last point of the next bucket, then stops: its last point ends a bucket.
    const last = Math.floor(nowSeconds() / BUCKET) * BUCKET + BUCKET + 2 * STEP;
    await writeLive([beat, disk], current, last + STEP, () => 40);
    for (const { name } of servers) {
      await receiver.waitFor((r) => r.path === `/${name}` && (r.body as { name?: string }).name === 'heartbeat', (last + 2 * BUCKET + 60 + SETTLE + 30 - nowSeconds()) * 1000);
    }
    // A few cycles after the heartbeat paged: the disk alert alerts (no data) and is held, on both stores.
    await clockAt(nowSeconds() + 3 * INTERVAL + SLACK);
    for (const { name, server } of servers) {
      expect(pagesOf(name, 'heartbeat'), name).toEqual(['alerting']);
      expect(pagesOf(name, 'disk'), `${name}: the disk alert is held behind the heartbeat`).toEqual([]);
      expect((await server.request('GET', `/v2/alerts/${diskIds.get(name)}/`)).body.status, name).toBe('alerting');
    }
  }, 300_000);
});
