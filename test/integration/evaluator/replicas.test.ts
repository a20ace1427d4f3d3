import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { postgresAvailability, startPostgres, type Postgres } from '../../helpers/postgres.js';
import { spawnServe, type ServeProcess } from '../../helpers/server-process.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

const availability = postgresAvailability();

// Three evaluating replicas on one PostgreSQL share the alerts through leases: every transition reaches the
// channel once, and when a replica is killed (SIGKILL), the others take its partitions over.
describe.skipIf(availability.skip)('evaluation by several replicas on PostgreSQL', () => {
  let postgres: Postgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(() => postgres?.stop());

  it('notifies each transition exactly once across three replicas, and a killed replica\'s alerts are taken over', async () => {
    const values = new Map<string, number>();
    const render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [values.get(target) ?? 0, values.get(target) ?? 0], Math.floor(Date.now() / 1000) - 20, 10)),
    }));
    const receiver = await startWebhookReceiver();
    const db = await postgres.createDatabase();
    // The webhook receiver listens on loopback, which deliveries may reach only when allowed.
    const key = 'replica-key-of-at-least-24-characters';
    const options = { db, keys: [key], graphiteUrl: render.url, evalIntervalSeconds: 1, allowPrivateDestinations: true };
    const replicas: TestServer[] = [];
    let crashing: ServeProcess | undefined;
    /** Partitions held per live replica, as the lease table says. */
    const liveOwners = async () => {
      const client = new pg.Client({ connectionString: db });
      await client.connect();
      try {
        const result = await client.query<{ held: number }>(
          'SELECT count(*)::int AS held FROM evaluation_leases WHERE owner IS NOT NULL AND expires_at > now() GROUP BY owner ORDER BY 1',
        );
        return result.rows.map((row) => row.held);
      } finally {
        await client.end();
      }
    };
    try {
      for (let index = 0; index < 2; index += 1) replicas.push(await startTestServer(options));
      // The third is a process of its own, to be killed with SIGKILL: no shutdown hook hands its leases over.
      crashing = await spawnServe({ db, key, extraArgs: ['--graphite-url', render.url, '--eval-interval', '1', '--allow-private-destinations'] });
      const api = replicas[0]!;
      await api.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
      const alerts: string[] = [];
      for (let index = 0; index < 30; index += 1) {
        const metric = `replicas.host${index}.load`;
        values.set(metric, 500);
        const created = await replicas[index % 2]!.request('POST', '/v2/alerts/', {
          name: `load ${index}`, metric, alert_criteria: { type: 'above', above_value: 100 }, notification_channels: ['hook'], notification_type: ['every', 60],
        });
        expect(created.status).toBe(201);
        alerts.push(created.body.id);
      }
      for (let count = 0; count < 30; count += 1) await receiver.next(30_000);
      // The work is shared: after a few cycles every replica holds about a third of the partitions.
      expect(await until(liveOwners, (owners) => owners.length === 3)).toEqual([expect.any(Number), expect.any(Number), expect.any(Number)]);
      expect((await liveOwners()).every((count) => count >= 20 && count <= 22)).toBe(true);

      // kill -9 of one replica: its leases are no longer renewed; the others take its partitions once they expire.
      await crashing.kill();
      const stoppedAt = Date.now();
      for (const metric of values.keys()) values.set(metric, 0);
      for (let count = 0; count < 30; count += 1) await receiver.next(30_000);
      const takeoverMs = Date.now() - stoppedAt;
      expect(await until(liveOwners, (owners) => owners.length === 2 && owners[0]! + owners[1]! === 64)).toHaveLength(2);

      const byAlert = new Map<string, string[]>();
      for (const request of receiver.received) {
        const body = request.body as { status: string; name: string };
        const key = String(body.name);
        byAlert.set(key, [...(byAlert.get(key) ?? []), body.status]);
      }
      expect(receiver.received).toHaveLength(60);
      expect(byAlert.size).toBe(30);
      for (const [name, statuses] of byAlert) expect([name, statuses]).toEqual([name, ['alerting', 'recovered']]);
      // Lease 1.5 intervals, then the next cycle of a live replica; generous for a loaded machine.
      expect(takeoverMs).toBeLessThan(15_000);
    } finally {
      await crashing?.kill();
      for (const replica of replicas) await replica.close();
      await render.close();
      await receiver.close();
    }
  }, 120_000);
});

/** Polls `read` every 100 ms until `done` accepts its value (at most 20 s); returns that value. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
