import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiteAvailability, startGraphite, type Graphite, type GraphitePoint } from '../../helpers/graphite.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { until } from '../../helpers/until.js';

/**
 * Late points on a real carbon-cache and graphite-web: collectors that land the newest point for some series (or
 * the first point of a 30 s bucket) and the rest seconds later. Each scenario runs two alerts on the same data: one
 * with the server's settle delay, which must make no transition at all, and one with settle_seconds 0, which must
 * make the false recovery and re-alert (so the scenario is real, not one that could not have failed).
 *
 * The two scenarios run side by side on one server: each waits on the wall clock (30 s buckets, the settle delay)
 * and touches only its own series, alerts and pages (told apart by alert name), so neither can see the other.
 */
const availability = graphiteAvailability();

/** The server's settle delay in this test: short, so the test is quick; the rule is the same at 60 s. */
const SETTLE = 12;
/** Seconds between cycles. */
const INTERVAL = 1;
const SUM = Array.from({ length: 10 }, (_, i) => `late.sum.s${i}`);
const EACH = ['late.each.a', 'late.each.b', 'late.each.c'];
/** Each series' points at +0, +10, +20 s of a bucket written on time: every prefix of the bucket breaches 95. */
const ON_TIME = [100, 100, 120];
/** The late bucket's: the first point alone (90) is below 95, the whole bucket (mean 100) above. */
const LATE = [90, 100, 110];

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe.skipIf(availability.skip)(`late points on a real Graphite (${availability.skip ? availability.reason : 'carbon and graphite-web'})`, () => {
  let graphite: Graphite;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let server: TestServer;

  beforeAll(async () => {
    [graphite, receiver] = await Promise.all([startGraphite({ retentions: '10s:6h' }), startWebhookReceiver()]);
    server = await startTestServer({ graphiteUrl: graphite.url, evalIntervalSeconds: INTERVAL, settleDelaySeconds: SETTLE, allowPrivateDestinations: true });
    const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'pager', destination: `${receiver.url}/pager` });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await Promise.all([graphite?.stop(), receiver?.close()]);
  });

  /** Resolves once the wall clock has reached `time` (unix seconds): points are written when they are due, never ahead. */
  async function clockAt(time: number): Promise<void> {
    await until(async () => Date.now() / 1000, (now) => now >= time, (time - Date.now() / 1000) * 1000 + 5_000, 100);
  }

  async function createAlert(name: string, metric: string, settle: number | null, criteria: object) {
    const created = await server.request('POST', '/v2/alerts/', {
      name,
      metric,
      alert_criteria: criteria,
      notification_channels: ['pager'],
      notification_type: 'state_change',
      ...(settle === null ? {} : { settle_seconds: settle }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  }

  const statusOf = async (id: string) => (await server.request('GET', `/v2/alerts/${id}/`)).body.status as string;
  // The transitions (alerting, recovered): before the first settled bucket an alert may also record that it has no
  // data yet (`no_data`), which is true and pages nobody (on_no_data: ignore).
  const historyOf = async (id: string) =>
    ((await server.request('GET', `/v2/alerts/history/?id=${id}`)).body[id] ?? [])
      .filter((e: { status: string }) => e.status === 'alerting' || e.status === 'recovered')
      .map((e: { status: string; value: number | null }) => [e.status, e.value])
      .reverse();
  const pagesOf = (name: string) =>
    receiver.received.filter((r) => r.path === '/pager' && (r.body as { name?: string }).name === name).map((r) => (r.body as { status: string }).status);

  /** Every series' point at `time` (a 10 s slot), as collectors on time write it. */
  function onTime(time: number): GraphitePoint[] {
    const k = (time % 30) / 10;
    return [...SUM.map((path) => ({ path, value: 10, time })), ...EACH.map((path) => ({ path, value: ON_TIME[k]!, time }))];
  }

  /** Writes every 10 s slot from `from` to before `to`, each once the clock has reached it. */
  async function writeOnTime(from: number, to: number): Promise<void> {
    for (let time = from; time < to; time += 10) {
      await clockAt(time);
      await graphite.writePoints(onTime(time));
    }
  }

  it.concurrent('gives zero false transitions when part of the newest points land seconds late, for sumSeries and per-series wildcards', async () => {
    const criteria = { type: 'above', above_value: 95, time_period: 1 };
    const settledSum = await createAlert('settled sum', 'sumSeries(late.sum.*)', null, criteria);
    const eagerSum = await createAlert('eager sum', 'sumSeries(late.sum.*)', 0, criteria);
    const settledEach = await createAlert('settled each', 'late.each.*', null, criteria);
    const eagerEach = await createAlert('eager each', 'late.each.*', 0, criteria);

    // Three minutes before the current bucket: every alert breaches (sum 100, each series above 95 throughout).
    const current = Math.floor(nowSeconds() / 30) * 30;
    const history: GraphitePoint[] = [];
    for (let time = current - 180; time < current; time += 10) history.push(...onTime(time));
    await graphite.writePoints(history);
    // The collectors stay on time while the alerts judge the breach: on a loaded machine carbon's first whisper files
    // and graphite-web's first renders can take a while, and a minute's window with no new points would go quiet.
    let due = current;
    const keepOnTime = async () => {
      for (; due <= nowSeconds(); due += 10) await graphite.writePoints(onTime(due));
    };
    for (const id of [settledSum, eagerSum, settledEach, eagerEach]) {
      await until(async () => (await keepOnTime(), statusOf(id)), (s) => s === 'alerting', 60_000, 200);
    }

    // The late bucket: the next one, so that all of it is written as it happens. Its first point comes from five
    // collectors of ten for the sum, and for each series only the first 10 s point (90) until the rest arrive.
    const late = Math.floor(nowSeconds() / 30) * 30 + 30;
    await writeOnTime(due, late);
    await clockAt(late);
    // The eager sum judges each bucket as it fills, so a render that reads the ten series while carbon is still taking
    // an on-time write in can fool it too, for a cycle (a recovery at 90 was seen). What the eager alerts do from the
    // late bucket on is counted from here, ten seconds after the last on-time write, once they alert.
    await until(() => statusOf(eagerSum), (s) => s === 'alerting', 15_000, 100);
    // Every transition so far paged (a page per transition of the sum), so that a late page is not counted after.
    const sumHistory = await until(() => historyOf(eagerSum), (entries) => entries.length === pagesOf('eager sum').length, 15_000, 100);
    const before = { sum: sumHistory.length, each: pagesOf('eager each').length };
    await graphite.writePoints([...SUM.slice(0, 5).map((path) => ({ path, value: 10, time: late })), ...EACH.map((path) => ({ path, value: LATE[0]!, time: late }))]);
    // Without a settle delay the half-filled bucket is judged: 50 for the sum, 90 for each series: both "recover".
    await until(() => statusOf(eagerSum), (s) => s === 'healthy', 15_000, 100);
    await until(() => statusOf(eagerEach), (s) => s === 'healthy', 15_000, 100);
    // The rest of the collectors report, late; then the bucket fills on time.
    await graphite.writePoints(SUM.slice(5).map((path) => ({ path, value: 10, time: late })));
    for (const k of [1, 2]) {
      await clockAt(late + 10 * k);
      await graphite.writePoints([...SUM.map((path) => ({ path, value: 10, time: late + 10 * k })), ...EACH.map((path) => ({ path, value: LATE[k]!, time: late + 10 * k }))]);
    }
    await until(() => statusOf(eagerSum), (s) => s === 'alerting', 15_000, 100);
    await until(() => statusOf(eagerEach), (s) => s === 'alerting', 15_000, 100);
    // On time again, past the late bucket's end + the settle delay + a few cycles: the settled alerts judged it whole.
    await writeOnTime(late + 30, late + 30 + SETTLE + 3 * INTERVAL);
    await clockAt(late + 30 + SETTLE + 3 * INTERVAL);

    // The settled alerts never moved: one alerting each, in the history and on the pager.
    for (const [id, name] of [[settledSum, 'settled sum'], [settledEach, 'settled each']] as const) {
      expect(await statusOf(id)).toBe('alerting');
      const entries = await historyOf(id);
      // One transition: one entry per triggered series (three for the wildcard).
      expect(entries.map(([status]: [string]) => status), name).toEqual(name === 'settled each' ? ['alerting', 'alerting', 'alerting'] : ['alerting']);
      expect(pagesOf(name), name).toEqual(['alerting']);
    }
    // The history value is one Graphite returned: 100 for the sum, 120 (the worst point) for each series, not a mean.
    expect((await historyOf(settledSum))[0]).toEqual(['alerting', 100]);
    expect((await historyOf(settledEach)).map(([, value]: [string, number]) => value)).toEqual([120, 120, 120]);
    // The eager ones were fooled by the late bucket, as a server without the delay is: they alerted, then recovered
    // and alerted again (and the on-time writes that follow may fool the sum once more, as above).
    expect(pagesOf('eager sum')[0]).toBe('alerting');
    expect(pagesOf('eager each')[0]).toBe('alerting');
    expect(pagesOf('eager sum').slice(before.sum, before.sum + 2)).toEqual(['recovered', 'alerting']);
    expect(pagesOf('eager each').slice(before.each, before.each + 2)).toEqual(['recovered', 'alerting']);
    // The eager sum recovered on the collectors on time: 50 when carbon had written all five of them, less on a
    // loaded machine where it had written only some when the eager server read the bucket.
    const eagerSumHistory = (await historyOf(eagerSum)) as [string, number][];
    const [fooled, again] = eagerSumHistory.slice(before.sum, before.sum + 2);
    expect([eagerSumHistory[0], again]).toEqual([['alerting', 100], ['alerting', 100]]);
    expect(fooled![0]).toBe('recovered');
    expect(fooled![1]).toBeGreaterThanOrEqual(10);
    expect(fooled![1]).toBeLessThanOrEqual(50);
  }, 180_000);

  it.concurrent('still catches a real breach within the interval plus the delay of its bucket being complete', async () => {
    const id = await createAlert('real breach', 'sumSeries(late.breach.*)', null, { type: 'above', above_value: 95 });
    const paths = SUM.map((path) => path.replace('late.sum', 'late.breach'));
    const start = Math.floor(nowSeconds() / 30) * 30;
    await graphite.writePoints(paths.flatMap((path) => [0, 10, 20].map((k) => ({ path, value: 1, time: start - 30 + k }))));
    // The breach: the bucket after the current one, every collector on time.
    const breach = start + 30;
    for (const k of [0, 10, 20]) {
      await clockAt(breach + k);
      await graphite.writePoints(paths.map((path) => ({ path, value: 10, time: breach + k })));
    }
    const complete = breach + 30;
    const page = await receiver.waitFor((r) => r.path === '/pager' && (r.body as { name?: string }).name === 'real breach', (complete + SETTLE + 10 - nowSeconds()) * 1000);
    const caughtAt = Date.now() / 1000;
    expect(page.body).toMatchObject({ status: 'alerting', value: 100 });
    // Judged no earlier than when the bucket is complete plus the delay, and no later than one interval after it
    // (plus three seconds of slack for graphite-web's render and the delivery on a busy machine).
    expect(caughtAt).toBeGreaterThanOrEqual(complete + SETTLE);
    expect(caughtAt).toBeLessThanOrEqual(complete + SETTLE + INTERVAL + 3);
    expect(await historyOf(id)).toEqual([['alerting', 100]]);
  }, 120_000);
});
