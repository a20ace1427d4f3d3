import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { countTransitions, expectExactlyOnce, startWriteLoad } from '../helpers/exactly-once.js';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { postgresAvailability, startPostgres, type Postgres } from '../helpers/postgres.js';
import { callServe, spawnServe, type ServeProcess } from '../helpers/server-process.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

const availability = postgresAvailability();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!().catch(() => undefined);
});

/** One query on a server of its own connection. */
async function sql<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A primary with a synchronous streaming standby: a commit is acknowledged only once the standby has it, which is
 * what "an acknowledged write survives the primary's death" takes (asynchronous replication may lose the last ones).
 */
async function startReplicatedPair(): Promise<{ primary: Postgres; standby: Postgres }> {
  const primary = await startPostgres();
  closers.push(() => primary.stop());
  const standby = await startPostgres({ standbyOf: primary });
  closers.push(() => standby.stop());
  await until(() => sql<{ n: number }>(primary.url, `SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'`), (rows) => rows[0]!.n === 1);
  await sql(primary.url, `ALTER SYSTEM SET synchronous_standby_names = '*'`);
  await sql(primary.url, 'SELECT pg_reload_conf()');
  await until(() => sql<{ n: number }>(primary.url, `SELECT count(*)::int AS n FROM pg_stat_replication WHERE sync_state = 'sync'`), (rows) => rows[0]!.n === 1);
  return { primary, standby };
}

describe.skipIf(availability.skip)('PostgreSQL primary failover under load', () => {
  it('loses no acknowledged write, notifies every transition of 200 alerts exactly once and answers 503 (never 500) while no primary is reachable, when the primary is killed (SIGKILL) and its standby promoted', async () => {
    const { primary, standby } = await startReplicatedPair();
    const dbUrl = await primary.createDatabase();
    const dbName = new URL(dbUrl).pathname.slice(1);
    // libpq's multi-host syntax: the serve processes find the writable one themselves.
    const db = `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/${dbName}?target_session_attrs=read-write`;

    const values = new Map<string, number>();
    const render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [values.get(target) ?? 0, values.get(target) ?? 0], Math.floor(Date.now() / 1000) - 20, 10)),
    }));
    closers.push(render.close);
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);

    const key = 'failover-key-of-at-least-24-characters';
    const servers: ServeProcess[] = [];
    for (let index = 0; index < 2; index += 1) {
      const server = await spawnServe({
        db, key,
        extraArgs: [
          '--graphite-url', `${render.url}/r${index}`, '--eval-interval', '2', '--allow-private-destinations',
          // The write load creates a channel per write: far more than the default quota on a fast machine.
          '--max-channels-per-account', '1000000',
          '--delivery-timeout', '2s', '--delivery-first-retry', '100ms', '--delivery-max-retry-delay', '500ms',
        ],
      });
      servers.push(server);
      closers.push(() => server.kill());
    }
    const [first] = servers as [ServeProcess, ServeProcess];
    expect((await callServe(first, 'POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` })).status).toBe(201);
    const metrics = Array.from({ length: 200 }, (_, index) => `failover.host${index}.load`);
    for (const metric of metrics) values.set(metric, 500);
    for (let batch = 0; batch < metrics.length; batch += 20) {
      const created = await Promise.all(metrics.slice(batch, batch + 20).map((metric) => callServe(servers[batch % 2]!, 'POST', '/v2/alerts/', {
        name: metric, metric, alert_criteria: { type: 'above', above_value: 100 }, notification_channels: ['hook'], notification_type: ['every', 60],
      })));
      for (const response of created) expect(response.status).toBe(201);
    }

    const load = startWriteLoad(servers, `${receiver.url}/load`);
    closers.push(() => load.stop());
    // The primary dies while the alerting notifications are being saved and sent.
    await until(async () => countTransitions(receiver.received, 'alerting'), (n) => n >= 20, 30_000);
    await until(async () => load.acknowledged().length, (n) => n >= 20);
    await primary.kill();
    const killedAt = Date.now();

    // No primary anywhere: the API refuses writes with 503 `unavailable` (the standby is read-only, and found so).
    await until(async () => load.writes.filter((write) => write.at > killedAt + 200 && write.status === 503).length, (n) => n >= 10);
    const promoteAt = Date.now();
    await standby.promote();
    const promotedAt = Date.now();
    // Both servers write again, to the new primary.
    await until(async () => servers.map((_, index) => load.writes.some((write) => write.at > promotedAt && write.status === 201 && Number(write.description.slice(5)) % 2 === index)), (both) => both.every(Boolean), 30_000);
    const firstWriteAfter = Math.min(...load.writes.filter((write) => write.at > promotedAt && write.status === 201).map((write) => write.at));

    await until(async () => countTransitions(receiver.received, 'alerting'), (n) => n === 200, 30_000);
    for (const metric of metrics) values.set(metric, 0);
    await until(async () => countTransitions(receiver.received, 'recovered'), (n) => n === 200, 30_000);
    await load.stop();
    await until(() => callServe(first, 'GET', '/v2/deliveries/?state=pending'), (r) => r.status === 200 && r.body.deliveries.length === 0, 30_000);

    // Never a 500: an answer is 201, or 503 `unavailable` while no primary could be reached.
    const statuses = new Map<number, number>();
    for (const write of load.writes) statuses.set(write.status, (statuses.get(write.status) ?? 0) + 1);
    expect([...statuses.keys()].sort()).toEqual([201, 503]);
    expect(new Set(load.writes.filter((write) => write.status === 503).map((write) => write.code))).toEqual(new Set(['unavailable']));
    // Every acknowledged write is on the new primary.
    const stored = new Set((await sql<{ description: string }>(standby.url.replace(/\/postgres$/, `/${dbName}`), `SELECT description FROM channels WHERE description LIKE 'load-%'`)).map((row) => row.description));
    const lost = load.acknowledged().filter((description) => !stored.has(description));
    expect(lost).toEqual([]);
    const resent = expectExactlyOnce(receiver.received, metrics, ['alerting', 'recovered']);
    const refused = statuses.get(503) ?? 0;
    console.info(
      `failover: ${load.acknowledged().length} writes acknowledged, ${refused} answered 503; writes resumed ${firstWriteAfter - killedAt} ms after the kill, ` +
        `${firstWriteAfter - promotedAt} ms after promotion (pg_ctl promote took ${promotedAt - promoteAt} ms); ${receiver.received.length} webhook requests, ${resent} resent`,
    );
    for (const server of servers) expect(server.stderr()).not.toMatch(/unexpected error/);
  }, 120_000);
});
