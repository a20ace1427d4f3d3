import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { graphiteAvailability, startGraphite, type Graphite } from '../helpers/graphite.js';
import { postgresAvailability, type SharedPostgres } from '../helpers/postgres.js';
import { filePostgres } from '../helpers/shared-postgres.js';
import { callServe, spawnServe, type ServeProcess } from '../helpers/server-process.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { until } from '../helpers/until.js';
import { carbonTee, feedSlots, type CarbonTee, type SlotFeed } from '../helpers/carbon-tee.js';
import { freePort } from '../helpers/free-port.js';
import { alertPartition } from '../../src/server/store/evaluation-store.js';
import { missingNote } from '../helpers/system.js';

/**
 * Two `alertform serve` replicas on one PostgreSQL, each receiving the whole stream (the test is the relay: every
 * point goes to carbon-cache and to both receivers), with real graphite-web behind the warm-ups. Alerts are judged
 * on the stream by the replica holding their partition; a breach pages once. The holder is killed (SIGKILL: no
 * hand-over) the moment the point completing the recovered bucket reached it, judging or saving or sending the
 * recovery or not yet: the other replica takes the partition over when its lease expires, warms the alerts from
 * render, and the recovery is paged exactly once, with no duplicate, no missed page and no no-data (the alerts
 * page on no data, so a false one would be seen).
 */
const graphiteReady = graphiteAvailability();
const postgresReady = postgresAvailability();
const skip = graphiteReady.skip || postgresReady.skip;

const INTERVAL = 2;
const SETTLE = 10;
const SUM = ['replica.sum.s0', 'replica.sum.s1', 'replica.sum.s2'];
const PLAIN = 'replica.plain.load';

interface Page {
  id: string;
  name: string;
  status: string;
}

describe.skipIf(skip)(`stream judging by two replicas on PostgreSQL${missingNote(graphiteReady, postgresReady)}`, () => {
  let postgres: SharedPostgres;
  let graphite: Graphite;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let tee: CarbonTee | undefined;
  let feeder: SlotFeed | undefined;
  const replicas: ServeProcess[] = [];

  beforeAll(async () => {
    [postgres, graphite, receiver] = await Promise.all([filePostgres(), startGraphite({ retentions: '10s:6h' }), startWebhookReceiver()]);
  }, 120_000);

  afterAll(async () => {
    feeder?.stop();
    await tee?.close();
    for (const replica of replicas) await replica.stop();
    await Promise.all([graphite?.stop(), receiver?.close()]);
    await postgres?.dispose();
  });

  it('pages each transition once when the replica holding the alerts is killed and the other takes over', async () => {
    // A failure here is a judgement made in another process: its log is the only record of why.
    onTestFailed(() => {
      for (const [index, replica] of replicas.entries()) console.error(`replica ${index} (pid ${replica.pid}), the end of its log:\n${replica.stderr()}`);
    });
    const db = await postgres.createDatabase();
    const key = 'stream-replica-key-of-at-least-24-characters';
    const ports = [await freePort(), await freePort()];
    for (const port of ports) {
      replicas.push(await spawnServe({
        db, key, logLevel: 'info',
        extraArgs: [
          '--graphite-url', graphite.url, '--eval-interval', String(INTERVAL), '--settle-delay', String(SETTLE), '--allow-private-destinations',
          '--carbon-listen', `127.0.0.1:${port}`,
          '--delivery-timeout', '2s', '--delivery-first-retry', '100ms', '--delivery-max-retry-delay', '300ms',
        ],
      }));
    }
    const owners = async () => {
      const client = new pg.Client({ connectionString: db });
      await client.connect();
      try {
        const { rows } = await client.query<{ partition: number; owner: string }>('SELECT partition, owner FROM evaluation_leases WHERE owner IS NOT NULL AND expires_at > now()');
        return new Map(rows.map((row) => [row.partition, row.owner]));
      } finally {
        await client.end();
      }
    };
    /** The replica whose lease holds the alert's partition (owners are HOST:PID:RANDOM). */
    const holderOf = async (alertId: string) => {
      const owner = (await owners()).get(alertPartition(alertId, 64));
      return replicas.find((replica) => owner?.split(':')[1] === String(replica.pid));
    };
    // Both replicas hold a share of the partitions.
    await until(owners, (held) => held.size === 64 && new Set(held.values()).size === 2, 30_000, 200);

    // The relay: ten minutes of history, then a point of each series per 10 s slot as the slot begins.
    const values = new Map<string, number>([[PLAIN, 1], ...SUM.map((path): [string, number] => [path, 1])]);
    tee = carbonTee(graphite, ports);
    /** When each slot's points were written, and the plain series' value in it. */
    const slots = new Map<number, { at: number; value: number }>();
    /** Run once the slot's points reached carbon and every receiver. */
    const afterSlot = new Map<number, () => void>();
    // A slot written later than the settle delay would be no data by the rules, not by a fault of the replicas.
    onTestFailed(() => {
      const written = [...slots.keys()].sort((a, b) => a - b);
      // The first slot is the one the feed started in, written when it started: its lateness says nothing.
      const lateness = written.slice(1).map((slot) => slots.get(slot)!.at - slot * 1000);
      const skipped = written.filter((slot, i) => i > 0 && slot - written[i - 1]! > 10);
      console.error(`${slots.size} slots written, the latest ${Math.max(0, ...lateness)} ms after its slot began; slots after a skipped one: ${skipped.join(', ') || 'none'}`);
    });
    feeder = await feedSlots(tee, values, (slot, write) => {
      slots.set(slot, { at: Date.now(), value: values.get(PLAIN)! });
      void write.then(() => afterSlot.get(slot)?.(), () => undefined);
    });

    const [first] = replicas as [ServeProcess, ServeProcess];
    expect((await callServe(first, 'POST', '/v2/notifications/', { type: 'webhook', description: 'pager', destination: `${receiver.url}/pager` })).status).toBe(201);
    const create = async (name: string, metric: string) => {
      const created = await callServe(first, 'POST', '/v2/alerts/', {
        name, metric, alert_criteria: { type: 'above', above_value: 100 }, notification_channels: ['pager'], notification_type: 'state_change', on_no_data: 'notify',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    };
    const plain = await create('replica plain', PLAIN);
    const holder = (await holderOf(plain))!;
    expect(holder).toBeDefined();
    // The aggregate on the same replica's partitions (a new id lands on either: the others are deleted).
    let sum = '';
    for (let attempt = 0; attempt < 20 && !sum; attempt += 1) {
      const id = await create(`replica sum ${attempt}`, `sumSeries(replica.sum.*)`);
      if ((await holderOf(id)) === holder) sum = id;
      else expect((await callServe(first, 'DELETE', `/v2/alerts/${id}/`)).status).toBe(200);
    }
    expect(sum).not.toBe('');
    const sumName = (await callServe(first, 'GET', `/v2/alerts/${sum}/`)).body.name as string;
    const survivor = replicas.find((replica) => replica !== holder)!;
    const read = (replica: ServeProcess, id: string) => callServe(replica, 'GET', `/v2/alerts/${id}/`).then((r) => r.body as { status: string; evaluated_by: string });
    for (const id of [plain, sum]) await until(() => read(holder, id), (alert) => alert.evaluated_by === 'stream' && alert.status === 'healthy', 30_000, 200);

    const pages = () => receiver.received.filter((r) => r.path === '/pager').map((r) => r.body as Page);
    const pagedOnce = (name: string, status: string) => async () => new Set(pages().filter((p) => p.name === name && p.status === status).map((p) => p.id)).size;
    // The breach, on the holder: each alert pages once.
    for (const path of values.keys()) values.set(path, 200);
    await until(pagedOnce('replica plain', 'alerting'), (n) => n === 1, 60_000, 100);
    await until(pagedOnce(sumName, 'alerting'), (n) => n === 1, 60_000, 100);
    const warmups = async (replica: ServeProcess) =>
      Number(/^alertform_stream_renders_total\{reason="warmup"\} (\d+)/m.exec(await (await fetch(`${replica.url}/metrics`)).text())?.[1] ?? NaN);
    const survivorWarmups = await warmups(survivor);

    // The data recovers from the next bucket on, and the holder dies the moment the point completing that bucket
    // reached it: it may be judging, saving or sending the recovery, or not yet. Whichever, one page per transition.
    await until(async () => feeder!.lastSlot, (slot) => slot % 30 === 20, 40_000, 50);
    const recovering = feeder!.lastSlot + 10;
    for (const path of values.keys()) values.set(path, 1);
    let killedAt = 0;
    const killed = new Promise<number | string>((resolve) =>
      afterSlot.set(recovering + 20, () => {
        killedAt = Date.now();
        resolve(holder.kill());
      }),
    );
    expect(await killed).toBe('SIGKILL');
    tee.drop(ports[replicas.indexOf(holder)]!);
    // The survivor takes the partition over and warms the two alerts from render.
    await until(() => warmups(survivor), (n) => n >= survivorWarmups + 2, 30_000, 50);
    const takeoverMs = Date.now() - killedAt;
    await until(pagedOnce('replica plain', 'recovered'), (n) => n === 1, 60_000, 100);
    const recoveredAt = Date.now();
    await until(pagedOnce(sumName, 'recovered'), (n) => n === 1, 60_000, 100);
    const recoveredMs = Date.now() - killedAt;
    // From the write of the point that completed the recovered bucket to the page.
    const pageLatencyMs = recoveredAt - slots.get(recovering + 20)!.at;
    expect((await read(survivor, plain)).evaluated_by).toBe('stream');

    // Two more buckets judged past the settle delay on the survivor: nothing else is paged (no no-data, no repeat).
    const quietUntil = Date.now() + (SETTLE + 40) * 1000;
    await until(async () => Date.now(), (now) => now >= quietUntil, SETTLE * 1000 + 45_000, 500);
    await until(() => callServe(survivor, 'GET', '/v2/deliveries/?state=pending'), (r) => r.body.deliveries.length === 0, 30_000, 200);

    const byTransition = new Map<string, Set<string>>();
    for (const page of pages()) {
      const transition = `${page.name} ${page.status}`;
      byTransition.set(transition, (byTransition.get(transition) ?? new Set()).add(page.id));
    }
    expect(Object.fromEntries([...byTransition].map(([transition, ids]) => [transition, ids.size]))).toEqual({
      'replica plain alerting': 1,
      'replica plain recovered': 1,
      [`${sumName} alerting`]: 1,
      [`${sumName} recovered`]: 1,
    });
    const requests = pages().length;
    console.info(
      `stream replicas: ${byTransition.size} transitions, ${requests} webhook requests (${requests - byTransition.size} resent with their delivery id); ` +
        `takeover (kill to the survivor's warm-up of both alerts) ${takeoverMs} ms; kill to both recovery pages ${recoveredMs} ms; ` +
        `recovery page ${pageLatencyMs} ms after the point completing its bucket`,
    );
    // Within seconds of the data, not after polling's delay: at worst the dead replica had claimed the delivery, and
    // it is sent again when the claim's lease (twice the 2 s delivery timeout) has passed.
    expect(pageLatencyMs).toBeLessThan(10_000);
    // A dead replica's partitions are taken within 1.25 intervals and a cycle (docs/operations.md), then warmed.
    expect(takeoverMs).toBeLessThan(4 * INTERVAL * 1000);
  }, 300_000);
});
