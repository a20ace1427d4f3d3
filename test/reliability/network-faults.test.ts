import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countTransitions, expectExactlyOnce, startWriteLoad } from '../helpers/exactly-once.js';
import { makeSeries, startFakeRender, type RenderRequest } from '../helpers/fake-render-server.js';
import { postgresAvailability, type SharedPostgres } from '../helpers/postgres.js';
import { filePostgres } from '../helpers/shared-postgres.js';
import { callServe, spawnServe, type ServeProcess } from '../helpers/server-process.js';
import { startTcpFaultProxy, type TcpFaultProxy } from '../helpers/tcp-fault-proxy.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

const availability = postgresAvailability();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!().catch(() => undefined);
});

const KEY = 'network-faults-key-of-at-least-24-chars';
const INTERVAL_SECONDS = 2;
/** A lease lasts one interval (src/server/evaluator/service.ts). */
const LEASE_MS = INTERVAL_SECONDS * 1000;

/**
 * Replicas each behind a fault proxy of its own in front of PostgreSQL, all reading the render endpoint through one
 * more fault proxy, each under a root of its own (`/r0/render`), so the endpoint's log tells who evaluated what.
 */
async function startReplicas(postgres: SharedPostgres, count: number) {
  const dbUrl = await postgres.createDatabase();
  const dbName = new URL(dbUrl).pathname.slice(1);
  const values = new Map<string, number>();
  // Replica 0's answers are slow, so that a fault often finds it in the middle of a cycle.
  const render = await startFakeRender((request) => ({
    series: request.targets.map((target) => makeSeries(target, [values.get(target) ?? 0, values.get(target) ?? 0], Math.floor(Date.now() / 1000) - 20, 10)),
    delayMs: request.path.startsWith('/r0/') ? 150 : 0,
  }));
  closers.push(render.close);
  const renderProxy = await startTcpFaultProxy(Number(new URL(render.url).port));
  closers.push(renderProxy.close);
  const receiver = await startWebhookReceiver();
  closers.push(receiver.close);
  // The replicas start side by side, as a deployment's do, rather than one after the other (several replicas
  // migrating an empty database at once is covered by the store's own tests).
  const replicas = await Promise.all(Array.from({ length: count }, async (_, index) => {
    const proxy = await startTcpFaultProxy(postgres.port);
    closers.push(proxy.close);
    // A statement unanswered for 3 s gives its connection up (the default is 30 s; the test is shorter).
    const db = `postgres://postgres@${proxy.address}/${dbName}?query_timeout=3000`;
    const server = await spawnServe({
      db, key: KEY,
      extraArgs: [
        '--graphite-url', `http://${renderProxy.address}/r${index}`, '--eval-interval', String(INTERVAL_SECONDS), '--allow-private-destinations', '--max-channels-per-account', '1000000',
        '--delivery-timeout', '2s', '--delivery-first-retry', '100ms', '--delivery-max-retry-delay', '500ms',
      ],
    });
    closers.push(() => server.kill());
    return { proxy, server };
  }));
  const dbProxies: TcpFaultProxy[] = replicas.map((replica) => replica.proxy);
  const servers: ServeProcess[] = replicas.map((replica) => replica.server);
  /** Partitions held per live replica, as the lease table says (read directly, not through a proxy). */
  const liveOwners = async () => {
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      const result = await client.query<{ owner: string; held: number }>(
        'SELECT owner, count(*)::int AS held FROM evaluation_leases WHERE owner IS NOT NULL AND expires_at > now() GROUP BY owner ORDER BY 2',
      );
      return result.rows;
    } finally {
      await client.end();
    }
  };
  const metrics = Array.from({ length: 200 }, (_, index) => `faults.host${index}.load`);
  const createAlerts = async (via: ServeProcess) => {
    expect((await callServe(via, 'POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` })).status).toBe(201);
    for (let batch = 0; batch < metrics.length; batch += 20) {
      const created = await Promise.all(metrics.slice(batch, batch + 20).map((metric) => callServe(via, 'POST', '/v2/alerts/', {
        name: metric, metric, alert_criteria: { type: 'above', above_value: 100 }, notification_channels: ['hook'], notification_type: ['every', 60],
      })));
      for (const response of created) expect(response.status).toBe(201);
    }
  };
  const setAll = (value: number) => {
    for (const metric of metrics) values.set(metric, value);
  };
  /** Render requests of replica `index` (or of every other replica) at or after `since`. */
  const requestsBy = (index: number, since: number, others = false): RenderRequest[] =>
    render.requests.filter((request) => request.at >= since && request.path.startsWith(`/r${index}/`) !== others);
  return { dbUrl, dbName, render, renderProxy, receiver, dbProxies, servers, liveOwners, metrics, createAlerts, setAll, requestsBy };
}

describe.skipIf(availability.skip)('network faults between the replicas, PostgreSQL and the render endpoint', () => {
  let postgres: SharedPostgres;
  beforeAll(async () => {
    postgres = await filePostgres();
  });
  afterAll(() => postgres?.dispose());

  it('a replica partitioned from PostgreSQL (still reaching Graphite) stops evaluating before its lease expires, the others take over without evaluating with it, and every transition is notified exactly once, also after the partition heals', async () => {
    const cluster = await startReplicas(postgres, 3);
    const { dbProxies, renderProxy, receiver, servers, liveOwners, metrics, requestsBy } = cluster;
    for (const proxy of dbProxies) proxy.setLatency(5);
    renderProxy.setLatency(10);
    await until(liveOwners, (owners) => owners.length === 3 && owners.every((owner) => owner.held >= 20), 30_000);
    cluster.setAll(500);
    const alertingFrom = Date.now();
    await cluster.createAlerts(servers[1]!);

    // The partition falls while replica 0 is evaluating the alerting data.
    await until(async () => requestsBy(0, alertingFrom).length, (n) => n > 0, 30_000);
    const victimTargets = new Set(requestsBy(0, alertingFrom).flatMap((request) => request.targets));
    dbProxies[0]!.setState('partition');
    const partitionedAt = Date.now();

    // The others evaluate every alert replica 0 was evaluating, once its lease has expired.
    await until(async () => new Set(requestsBy(0, partitionedAt, true).flatMap((request) => request.targets)), (seen) => [...victimTargets].every((target) => seen.has(target)), 20_000);
    await until(async () => countTransitions(receiver.received, 'alerting'), (n) => n === 200, 30_000);
    const victimAfter = requestsBy(0, partitionedAt);
    // Replica 0 asked Graphite nothing once its lease could have expired (its own clock, from before the partition).
    for (const request of victimAfter) expect(request.at - partitionedAt).toBeLessThan(LEASE_MS);
    // No alert was evaluated by two replicas at once: each target replica 0 asked after the partition, it asked
    // before any other replica did after the partition.
    for (const target of new Set(victimAfter.flatMap((request) => request.targets))) {
      const lastByVictim = Math.max(...victimAfter.filter((request) => request.targets.includes(target)).map((request) => request.at));
      const firstByOthers = Math.min(...requestsBy(0, partitionedAt, true).filter((request) => request.targets.includes(target)).map((request) => request.at));
      expect(lastByVictim).toBeLessThan(firstByOthers);
    }
    const takeoverMs = Math.min(...requestsBy(0, partitionedAt, true).filter((request) => request.targets.some((t) => victimTargets.has(t))).map((request) => request.at)) - partitionedAt;
    // Replica 0 holds nothing now: the other two share all 64 partitions. Awaited, not read once: a lease lasts one
    // 2 s interval here, and on a starved machine a healthy replica's can lapse for a moment before its next heartbeat
    // renews it.
    await until(liveOwners, (owners) => owners.length === 2 && owners.reduce((sum, owner) => sum + owner.held, 0) === 64, 10_000);

    // The partition heals: replica 0 comes back, takes a share again, and evaluates the recoveries with the others.
    const healedAt = Date.now();
    dbProxies[0]!.setState('pass');
    await until(liveOwners, (owners) => owners.length === 3, 30_000);
    const rejoinMs = Date.now() - healedAt;
    cluster.setAll(0);
    await until(async () => countTransitions(receiver.received, 'recovered'), (n) => n === 200, 30_000);
    await until(() => callServe(servers[1]!, 'GET', '/v2/deliveries/?state=pending'), (r) => r.status === 200 && r.body.deliveries.length === 0, 30_000);
    const resent = expectExactlyOnce(receiver.received, metrics, ['alerting', 'recovered']);
    console.info(`partition: replica 0 made ${victimAfter.length} render requests after the partition, the last ${Math.max(0, ...victimAfter.map((r) => r.at - partitionedAt))} ms after it (lease ${LEASE_MS} ms); ` +
      `others took over after ${takeoverMs} ms; rejoined ${rejoinMs} ms after healing; ${receiver.received.length} webhook requests, ${resent} resent`);
  }, 120_000);

  it('under latency, stalls and connection resets on the database and render links, loses no acknowledged write, answers no 500 and notifies every transition exactly once', async () => {
    const cluster = await startReplicas(postgres, 2);
    const { dbProxies, renderProxy, receiver, servers, liveOwners, metrics } = cluster;
    for (const proxy of dbProxies) proxy.setLatency(20);
    renderProxy.setLatency(30);
    await until(liveOwners, (owners) => owners.length === 2, 30_000);
    cluster.setAll(500);
    await cluster.createAlerts(servers[0]!);
    const load = startWriteLoad(servers, `${receiver.url}/load`, 2);
    closers.push(() => load.stop());

    /** One round of faults while notifications are being saved and sent. */
    const faults = async () => {
      expect(dbProxies[0]!.resetAll()).toBeGreaterThan(0);
      renderProxy.resetAll();
      // A stall shorter than a lease: the replica keeps its partitions and carries on when the link resumes.
      dbProxies[1]!.setState('stall');
      renderProxy.setState('stall');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      dbProxies[1]!.setState('pass');
      renderProxy.setState('pass');
      dbProxies[1]!.resetAll();
    };
    await until(async () => countTransitions(receiver.received, 'alerting'), (n) => n >= 10, 30_000);
    await faults();
    await until(async () => countTransitions(receiver.received, 'alerting'), (n) => n === 200, 30_000);
    cluster.setAll(0);
    await until(async () => countTransitions(receiver.received, 'recovered'), (n) => n >= 10, 30_000);
    await faults();
    await until(async () => countTransitions(receiver.received, 'recovered'), (n) => n === 200, 30_000);
    await load.stop();
    await until(() => callServe(servers[0]!, 'GET', '/v2/deliveries/?state=pending'), (r) => r.status === 200 && r.body.deliveries.length === 0, 30_000);

    // A write cut by a reset may be refused (503) or never answered (0, the client's connection was not cut, so
    // this would be a server hang): only 201 and 503 are fine.
    const statuses = new Set(load.writes.map((write) => write.status));
    for (const status of statuses) expect([201, 503]).toContain(status);
    const client = new pg.Client({ connectionString: cluster.dbUrl });
    await client.connect();
    const stored = new Set((await client.query<{ description: string }>(`SELECT description FROM channels WHERE description LIKE 'load-%'`)).rows.map((row) => row.description));
    await client.end();
    expect(load.acknowledged().filter((description) => !stored.has(description))).toEqual([]);
    expect(load.acknowledged().length).toBeGreaterThan(10);
    const resent = expectExactlyOnce(receiver.received, metrics, ['alerting', 'recovered']);
    console.info(`latency/stalls/resets: ${load.acknowledged().length} writes acknowledged, ${load.writes.filter((w) => w.status === 503).length} answered 503; ${receiver.received.length} webhook requests, ${resent} resent`);
    for (const server of servers) expect(server.stderr()).not.toMatch(/unexpected error/);
  }, 120_000);
});
