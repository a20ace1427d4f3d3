import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { describeEachStore } from '../../helpers/store-backends.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/**
 * A fake Graphite whose series are set by the test: `values` maps a series name to its value (absent: 0), and a
 * target answers every series of `series` that its pattern matches (as graphite-web expands a wildcard).
 */
async function outageGraphite(series: string[]) {
  const values = new Map<string, number>();
  const matches = (pattern: string, name: string) => new RegExp(`^${pattern.split('.').map((part) => part.replaceAll('*', '[^.]*')).join('\\.')}$`).test(name);
  const render = await startFakeRender((request) => ({
    series: request.targets.flatMap((target) =>
      series.filter((name) => matches(target, name)).map((name) => makeSeries(name, [values.get(name) ?? 0, values.get(name) ?? 0], Math.floor(Date.now() / 1000) - 30, 30)),
    ),
  }));
  closers.push(render.close);
  return { render, values };
}

async function startServerOn(db: string, graphiteUrl: string, logLines?: string[]): Promise<TestServer> {
  const server = await startTestServer({
    db, graphiteUrl, evalIntervalSeconds: 0.2, allowPrivateDestinations: true,
    ...(logLines ? { logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }) } : {}),
    delivery: { pollMs: 50, retry: { firstDelayMs: 100, maxDelayMs: 300 } },
  });
  closers.push(() => server.close());
  return server;
}

describeEachStore('noise that scales with the outage, on a running server', (backend) => {
  it('sends 50 series of 5 alerts firing in 2 data centres as exactly 2 grouped messages, and their resolves as 2 more', async () => {
    const series = [0, 1, 2, 3, 4].flatMap((i) => ['dc1', 'dc2'].flatMap((dc) => [0, 1, 2, 3, 4].map((host) => `servers.${dc}.web${host}.cpu${i}`)));
    const { render, values } = await outageGraphite(series);
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const server = await startServerOn(await backend.createDb(), render.url);
    const channel = await server.request('POST', '/v2/notifications/', {
      type: 'webhook', description: 'dc hook', destination: `${receiver.url}/hook`, group_by: { nodes: [1], wait_seconds: 2, interval_seconds: 5 },
    });
    expect(channel.status, channel.text).toBe(201);
    expect((await server.request('GET', `/v2/notifications/${channel.body.id}`)).body.group_by).toEqual({ nodes: [1], wait_seconds: 2, interval_seconds: 5 });
    for (let i = 0; i < 5; i += 1) {
      const created = await server.request('POST', '/v2/alerts/', {
        name: `cpu ${i}`, metric: `servers.*.*.cpu${i}`, alert_criteria: { type: 'above', above_value: 90 }, notification_channels: ['dc hook'], notification_type: ['state_change'],
      });
      expect(created.status, created.text).toBe(201);
    }
    const firedAt = Date.now();
    for (const name of series) values.set(name, 99);
    const fired = await until(async () => receiver.received.slice(), (list) => list.length >= 2);
    // The first page of each group leaves within its wait (2 s; every alert fires in the cycles of that wait), plus
    // a cycle, a poll and a busy machine's slack.
    expect(Date.now() - firedAt).toBeLessThan(6_000);
    const bodies = fired.map((request) => request.body as { event: string; grouped: { group_key: string; count: number; members: { event: string }[] } });
    expect(bodies.map((body) => [body.event, body.grouped.group_key, body.grouped.count, body.grouped.members.length]).sort()).toEqual([
      ['grouped', 'dc1', 25, 10],
      ['grouped', 'dc2', 25, 10],
    ]);
    for (const name of series) values.set(name, 0);
    const all = await until(async () => receiver.received.slice(), (list) => list.length >= 4);
    const resolves = all.slice(2).map((request) => request.body as { grouped: { group_key: string; count: number; members: { event: string }[] } });
    expect(resolves.map((body) => [body.grouped.group_key, body.grouped.count, body.grouped.members.every((member) => member.event === 'recovered')]).sort()).toEqual([
      ['dc1', 25, true],
      ['dc2', 25, true],
    ]);
    // Each group's messages carry the group's own id, the same on its page and its resolve, and describe the group:
    // its members' series and values, no invented criterion, no graph.
    const byGroup = (list: typeof all) => list.map((request) => request.body as { alert_id: string; grouped: { group_key: string; group_id: string; nodes: number[] } });
    for (const body of byGroup(all)) expect([body.alert_id, body.grouped.group_id, body.grouped.nodes]).toEqual([`group:${body.grouped.group_key}`, `group:${body.grouped.group_key}`, [1]]);
    expect(new Set(byGroup(all.slice(0, 2)).map((body) => body.alert_id))).toEqual(new Set(byGroup(all.slice(2)).map((body) => body.alert_id)));
    const page = all[0]!.body as { metric: string; value: number; graph: null; thresholds: unknown; criteria: string };
    expect(page.metric).toMatch(/^servers\.dc[12]\.web\d\.cpu\d$/);
    expect([page.value, page.graph, page.thresholds]).toEqual([99, null, { above: null, below: null }]);
    expect(page.criteria).toMatch(/^group dc[12] of dc hook: 25 notifications$/);
    // Nothing more is owed: no fifth message once the outbox is empty.
    await until(() => server.request('GET', '/v2/deliveries/?state=pending').then((r) => r.body.deliveries as unknown[]), (list) => list.length === 0);
    expect(receiver.received).toHaveLength(4);
  });

  it.runIf(backend.name === 'postgres')('sends each group once when two replicas evaluate and deliver from one database', async () => {
    const series = [0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => ['dc1', 'dc2'].flatMap((dc) => [0, 1, 2].map((host) => `servers.${dc}.web${host}.mem${i}`)));
    const { render, values } = await outageGraphite(series);
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const db = await backend.createDb();
    const first = await startServerOn(db, render.url);
    const key = first.key;
    const second = await startTestServer({
      db, keys: [key], graphiteUrl: render.url, evalIntervalSeconds: 0.2, allowPrivateDestinations: true,
      delivery: { pollMs: 50, retry: { firstDelayMs: 100, maxDelayMs: 300 } },
    });
    closers.push(() => second.close());
    await first.request('POST', '/v2/notifications/', {
      type: 'webhook', description: 'dc hook', destination: `${receiver.url}/hook`, group_by: { nodes: [1], wait_seconds: 1, interval_seconds: 5 },
    });
    // Eight alerts: the replicas' leases split them, so both save members of both groups and both close groups.
    for (let i = 0; i < 8; i += 1) {
      const created = await first.request('POST', '/v2/alerts/', {
        name: `mem ${i}`, metric: `servers.*.*.mem${i}`, alert_criteria: { type: 'above', above_value: 90 }, notification_channels: ['dc hook'], notification_type: ['state_change'],
      });
      expect(created.status, created.text).toBe(201);
    }
    for (const name of series) values.set(name, 99);
    const counted = () => {
      const sums: Record<string, number> = {};
      for (const request of receiver.received) {
        const { group_key: key, count } = (request.body as { grouped: { group_key: string; count: number } }).grouped;
        sums[key] = (sums[key] ?? 0) + count;
      }
      return sums;
    };
    // Every member in a sent message (a member of a later round may go in its group's next one)...
    await until(async () => counted(), (sums) => (sums.dc1 ?? 0) + (sums.dc2 ?? 0) >= 48);
    await until(() => first.request('GET', '/v2/deliveries/?state=pending').then((r) => r.body.deliveries as unknown[]), (list) => list.length === 0);
    // ...and none in two: the closers of both replicas took each one once.
    expect(counted()).toEqual({ dc1: 24, dc2: 24 });
    expect(new Set(receiver.received.map((request) => (request.body as { id: string }).id)).size).toBe(receiver.received.length);
  });

  it("keeps a child (and its child) quiet while the parent's series of the same host alerts, and resolves only what was paged", async () => {
    const series = ['hosts.a.ping', 'hosts.a.disk', 'hosts.a.app', 'hosts.b.ping', 'hosts.b.disk'];
    const { render, values } = await outageGraphite(series);
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const logLines: string[] = [];
    const server = await startServerOn(await backend.createDb(), render.url, logLines);
    await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
    const create = async (name: string, metric: string, dependsOn?: unknown) => {
      const created = await server.request('POST', '/v2/alerts/', {
        name, metric, alert_criteria: { type: 'above', above_value: 90 }, notification_channels: ['hook'], notification_type: ['state_change'],
        ...(dependsOn ? { depends_on: dependsOn } : {}),
      });
      expect(created.status, created.text).toBe(201);
      return created.body.id as string;
    };
    const ping = await create('ping', 'hosts.*.ping');
    const disk = await create('disk', 'hosts.*.disk', [{ alert: 'ping', nodes: [1] }]);
    const app = await create('app', 'hosts.*.app', ['disk'].map((alert) => ({ alert })));
    expect((await server.request('GET', `/v2/alerts/${disk}`)).body.depends_on).toEqual([{ alert: ping, nodes: [1] }]);
    const events = () => receiver.received.map((request) => `${(request.body as { name: string }).name} ${(request.body as { event: string }).event}`);

    // Host a goes down: ping pages; disk (same host) and app (under disk) are held.
    values.set('hosts.a.ping', 99);
    values.set('hosts.a.disk', 99);
    values.set('hosts.a.app', 99);
    await until(async () => (await server.request('GET', `/v2/alerts/${app}`)).body.status, (status) => status === 'alerting');
    await until(async () => (await server.request('GET', `/v2/alerts/${disk}`)).body.status, (status) => status === 'alerting');
    await until(() => server.request('GET', '/v2/deliveries/?state=pending').then((r) => r.body.deliveries as unknown[]), (list) => list.length === 0);
    expect(events()).toEqual(['ping alerting']);
    const timeline = await server.request('GET', `/v2/alerts/${disk}/timeline`);
    expect((timeline.body.entries as { kind: string; reason: string }[]).filter((entry) => entry.kind === 'held').map((entry) => entry.reason)).toEqual([
      'depends on ping, which is alerting',
    ]);
    const appTimeline = await server.request('GET', `/v2/alerts/${app}/timeline`);
    expect((appTimeline.body.entries as { kind: string; reason: string }[]).filter((entry) => entry.kind === 'held').map((entry) => entry.reason)).toEqual([
      'depends on disk, which is alerting',
    ]);
    // The log says it too, naming the alert held and the parent: an operator learns why a page did not go out.
    const logged = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.filter((entry) => entry.msg === 'notification held by a dependency').map((entry) => [entry.alert, entry.alertName, entry.metric, entry.reason])).toEqual([
      [disk, 'disk', 'hosts.a.disk', 'depends on ping, which is alerting'],
      [app, 'app', 'hosts.a.app', 'depends on disk, which is alerting'],
    ]);
    // The cycle's line names the alerts whose state changed (a cycle longer than the 0.2 s interval, as on a busy
    // machine, is logged as a warning that says so, with the same fields); the delivery's line names the alert and the
    // channel.
    const cycleLines = new Set(['evaluation cycle', 'evaluation cycle took longer than the interval']);
    const cycles = logged.filter((entry) => cycleLines.has(entry.msg as string)).flatMap((entry) => entry.changed as { alertName: string; to: string }[]);
    expect(cycles).toContainEqual({ alert: ping, alertName: 'ping', from: 'healthy', to: 'alerting' });
    expect(logged.find((entry) => entry.msg === 'notification delivered')).toMatchObject({ alert: ping, alertName: 'ping', channelName: 'hook', event: 'alerting' });

    // Everything recovers: ping's resolve goes out; disk and app were never paged, so nothing is resolved for them.
    for (const name of series) values.set(name, 0);
    await until(async () => (await server.request('GET', `/v2/alerts/${disk}`)).body.status, (status) => status === 'healthy');
    await until(async () => (await server.request('GET', `/v2/alerts/${app}`)).body.status, (status) => status === 'healthy');
    await until(async () => receiver.received.length, (count) => count === 2);
    await until(() => server.request('GET', '/v2/deliveries/?state=pending').then((r) => r.body.deliveries as unknown[]), (list) => list.length === 0);
    expect(events()).toEqual(['ping alerting', 'ping recovered']);

    // Disk pages first (ping healthy), then ping goes down: disk's resolve is owed and goes out.
    values.set('hosts.b.disk', 99);
    await until(async () => events(), (list) => list.includes('disk alerting'));
    values.set('hosts.b.ping', 99);
    await until(async () => events(), (list) => list.includes('ping alerting') && list.length === 4);
    values.set('hosts.b.disk', 0);
    await until(async () => events(), (list) => list.includes('disk recovered'));
    expect(events().filter((event) => event.startsWith('disk'))).toEqual(['disk alerting', 'disk recovered']);
  });

  it('pages a held child once when its parent recovers while the child is still broken, then resolves it', async () => {
    const series = ['hosts.c.ping', 'hosts.c.disk'];
    const { render, values } = await outageGraphite(series);
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const server = await startServerOn(await backend.createDb(), render.url);
    await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
    const create = async (name: string, metric: string, dependsOn?: unknown) => {
      const created = await server.request('POST', '/v2/alerts/', {
        name, metric, alert_criteria: { type: 'above', above_value: 90 }, notification_channels: ['hook'], notification_type: ['state_change'],
        ...(dependsOn ? { depends_on: dependsOn } : {}),
      });
      expect(created.status, created.text).toBe(201);
      return created.body.id as string;
    };
    const ping = await create('ping', 'hosts.*.ping');
    const disk = await create('disk', 'hosts.*.disk', [{ alert: 'ping', nodes: [1] }]);
    const events = () => receiver.received.map((request) => `${(request.body as { name: string }).name} ${(request.body as { event: string }).event}`);
    const statusOf = async (id: string) => (await server.request('GET', `/v2/alerts/${id}`)).body.status as string;

    // The host goes down: ping pages, disk is held. Many cycles pass while it is held: one `held` entry, no page.
    values.set('hosts.c.ping', 99);
    values.set('hosts.c.disk', 99);
    await until(() => statusOf(disk), (status) => status === 'alerting');
    await until(async () => events(), (list) => list.includes('ping alerting'));
    const cycles = async () => Number(/alertform_evaluation_cycle_duration_seconds_count (\d+)/.exec((await server.request('GET', '/metrics')).text)?.[1] ?? 0);
    const seen = await cycles();
    await until(cycles, (count) => count >= seen + 5, 10_000, 50);
    expect(events()).toEqual(['ping alerting']);
    const held = async () =>
      ((await server.request('GET', `/v2/alerts/${disk}/timeline`)).body.entries as { kind: string }[]).filter((entry) => entry.kind === 'held');
    expect(await held()).toHaveLength(1);

    // The host is back, its disk collector still says 99: ping's resolve, then disk's page, once.
    values.set('hosts.c.ping', 0);
    await until(() => statusOf(ping), (status) => status === 'healthy');
    await until(async () => events(), (list) => list.includes('disk alerting'));
    const after = await cycles();
    await until(cycles, (count) => count >= after + 5, 10_000, 50);
    // Ping's resolve and disk's page leave in the same round, to the outbox's two chains: either may land first.
    expect([...events()].sort()).toEqual(['disk alerting', 'ping alerting', 'ping recovered']);
    expect(await held()).toHaveLength(1);

    // The disk recovers: it was paged, so its resolve goes out.
    values.set('hosts.c.disk', 0);
    await until(async () => events(), (list) => list.includes('disk recovered'));
    expect(events().filter((event) => event.startsWith('disk'))).toEqual(['disk alerting', 'disk recovered']);
    expect(events()).toHaveLength(4);
  });
});
