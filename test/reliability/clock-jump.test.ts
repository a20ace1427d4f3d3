import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countTransitions, expectExactlyOnce } from '../helpers/exactly-once.js';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { postgresAvailability, type SharedPostgres } from '../helpers/postgres.js';
import { filePostgres } from '../helpers/shared-postgres.js';
import { callServe, spawnServe, type ServeProcess } from '../helpers/server-process.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

const availability = postgresAvailability();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!().catch(() => undefined);
});

/** Preloaded into a replica to shift its wall clock (test/helpers/clock-offset.mjs). */
const CLOCK_OFFSET = fileURLToPath(new URL('../helpers/clock-offset.mjs', import.meta.url));
const JUMP_MS = 90_000;

describe.skipIf(availability.skip)('a replica whose clock jumps', () => {
  let postgres: SharedPostgres;
  beforeAll(async () => {
    postgres = await filePostgres();
  });
  afterAll(() => postgres?.dispose());

  it(`sends no notification twice when its wall clock is ${JUMP_MS / 1000} s ahead: evaluation leases and outbox claims run on the database's clock`, async () => {
    const db = await postgres.createDatabase();
    const values = new Map<string, number>();
    const render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [values.get(target) ?? 0, values.get(target) ?? 0], Math.floor(Date.now() / 1000) - 20, 10)),
    }));
    closers.push(render.close);
    // A slow receiver: every claim is in flight for a while, long enough for a replica to take it over if it
    // thought the claim had expired.
    const receiver = await startWebhookReceiver(() => new Promise((resolve) => setTimeout(() => resolve(200), 300)));
    closers.push(receiver.close);
    const key = 'clock-jump-key-of-at-least-24-characters';
    const servers: ServeProcess[] = [];
    for (const offset of [0, JUMP_MS]) {
      const server = await spawnServe({
        db, key,
        logLevel: 'info',
        env: offset === 0 ? {} : { NODE_OPTIONS: `--import ${CLOCK_OFFSET}`, ALERTFORM_TEST_CLOCK_OFFSET_MS: String(offset) },
        extraArgs: [
          '--graphite-url', render.url, '--eval-interval', '2', '--allow-private-destinations',
          '--delivery-timeout', '2s', '--delivery-first-retry', '100ms', '--delivery-max-retry-delay', '500ms',
        ],
      });
      servers.push(server);
      closers.push(() => server.kill());
    }
    const [steady, jumped] = servers as [ServeProcess, ServeProcess];
    // The jumped replica's clock really is ahead: its log's timestamps say so.
    await until(async () => /"time":"([^"]+)"/.exec(jumped.stderr()), (match) => match !== null);
    expect(Date.parse(/"time":"([^"]+)"/.exec(jumped.stderr())![1]!) - Date.now()).toBeGreaterThan(JUMP_MS - 10_000);

    const client = new pg.Client({ connectionString: db });
    await client.connect();
    closers.push(() => client.end());
    await until(async () => (await client.query('SELECT DISTINCT owner FROM evaluation_leases WHERE expires_at > now()')).rowCount, (n) => n === 2, 30_000);

    expect((await callServe(steady, 'POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` })).status).toBe(201);
    const metrics = Array.from({ length: 100 }, (_, index) => `clock.host${index}.load`);
    for (const metric of metrics) values.set(metric, 500);
    for (let batch = 0; batch < metrics.length; batch += 20) {
      const created = await Promise.all(metrics.slice(batch, batch + 20).map((metric) => callServe(steady, 'POST', '/v2/alerts/', {
        name: metric, metric, alert_criteria: { type: 'above', above_value: 100 }, notification_channels: ['hook'], notification_type: ['every', 60],
      })));
      for (const response of created) expect(response.status).toBe(201);
    }
    await until(async () => countTransitions(receiver.received, 'alerting'), (n) => n === metrics.length, 30_000);
    for (const metric of metrics) values.set(metric, 0);
    await until(async () => countTransitions(receiver.received, 'recovered'), (n) => n === metrics.length, 30_000);
    await until(() => callServe(steady, 'GET', '/v2/deliveries/?state=pending'), (r) => r.body.deliveries.length === 0, 30_000);

    // Both replicas evaluated and sent; no request was a resend (nobody crashed, so none may be).
    expect(steady.stderr()).toMatch(/notification delivered/);
    expect(jumped.stderr()).toMatch(/notification delivered/);
    const resent = expectExactlyOnce(receiver.received, metrics, ['alerting', 'recovered']);
    expect(resent).toBe(0);
    expect(receiver.received).toHaveLength(2 * metrics.length);
  }, 90_000);
});
