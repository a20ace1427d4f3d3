import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { callServe, spawnServe } from '../helpers/server-process.js';
import { storeBackends } from '../helpers/store-backends.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

const call = callServe;

const ALERTS = ['crash.a', 'crash.b', 'crash.c'];

// The same crash on each backend: a SQLite file, or a fresh PostgreSQL database (`serve --db postgres://...`). The
// two run side by side, each with its own receiver, render endpoint and closers: most of each is the wait for a
// dead worker's claim to lapse.
describe.concurrent.each(storeBackends())('the outbox across kill -9 on $name', (backend) => {
  afterAll(() => backend.dispose());
  it.skipIf(backend.skip)('delivers what was pending after a restart (of a server that does not evaluate), exactly once per transition by idempotency id', async ({ onTestFinished }) => {
    const closers: (() => Promise<unknown>)[] = [];
    onTestFinished(async () => {
      while (closers.length) await closers.pop()!();
    });
    const dir = await mkdtemp(join(tmpdir(), 'alertform-outbox-crash-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [500, 500], Math.floor(Date.now() / 1000) - 30, 30)),
    }));
    closers.push(render.close);
    // Before the kill: the first request is received but its answer held back (the sender dies not knowing it
    // landed), the others fail with 503. After the restart: everything is accepted.
    let release: () => void = () => undefined;
    const held = new Promise<number>((resolve) => (release = () => resolve(200)));
    let restarted = false;
    const receiver = await startWebhookReceiver((request) => {
      if (restarted) return 200;
      return receiver.received.indexOf(request) === 0 ? held : 503;
    });
    closers.push(receiver.close);
    const args = (db: string, evaluating = true) => ({
      db,
      key: 'outbox-crash-key-0123456789abcdef',
      extraArgs: [
        ...(evaluating ? ['--graphite-url', render.url, '--eval-interval', '0.3'] : []),
        '--delivery-first-retry', '100ms', '--delivery-max-retry-delay', '300ms', '--delivery-timeout', '2s',
        '--allow-private-destinations',
      ],
    });
    // SQLite in memory would die with the process: the crash test needs a file.
    const db = backend.name === 'sqlite' ? join(dir, 'alertform.db') : await backend.createDb();

    let server = await spawnServe(args(db));
    closers.push(() => server.kill());
    const channel = await call(server, 'POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
    expect(channel.status).toBe(201);
    for (const metric of ALERTS) {
      const created = await call(server, 'POST', '/v2/alerts/', {
        name: metric, metric, alert_criteria: { type: 'above', above_value: 100 }, notification_channels: ['hook'],
      });
      expect(created.status).toBe(201);
    }
    // Every alert's notification reached the endpoint once (one of them still waiting for its answer).
    await until(async () => new Set(receiver.received.map((r) => r.headers['idempotency-key'])).size, (n) => n === ALERTS.length, 20_000);
    const before = await call(server, 'GET', '/v2/deliveries/?state=pending');
    expect(before.body.deliveries).toHaveLength(ALERTS.length);
    expect(await server.kill()).toBe('SIGKILL');
    release();
    restarted = true;

    // Restarted without a Graphite: every serve process sends the outbox, evaluating or not.
    server = await spawnServe(args(db, false));
    // The held delivery's claim outlives its dead worker for at most its lease (2 x 2 s + 1 s); then it goes again.
    await until(() => call(server, 'GET', '/v2/deliveries/?state=pending'), (r) => r.body.deliveries.length === 0, 30_000);
    const delivered = await call(server, 'GET', '/v2/deliveries/?state=delivered');
    expect(delivered.body.deliveries).toHaveLength(ALERTS.length);

    const accepted = receiver.received.filter((_, i) => receiver.answered[i] === 200);
    const byKey = new Map<string, number>();
    for (const request of accepted) {
      const key = request.headers['idempotency-key'] as string;
      expect((request.body as { id: string }).id).toBe(key);
      byKey.set(key, (byKey.get(key) ?? 0) + 1);
    }
    // The held request was answered 200 to a dead process, then sent again after the restart with the same id:
    // a receiver that drops repeated ids sees each transition exactly once.
    const heldKey = receiver.received[0]!.headers['idempotency-key'] as string;
    expect(byKey.get(heldKey)).toBe(2);
    expect([...byKey.values()].filter((n) => n === 1)).toHaveLength(ALERTS.length - 1);
    expect(new Set(byKey.keys())).toEqual(new Set(delivered.body.deliveries.map((d: { id: string }) => d.id)));
    const perAlert = new Map<string, Set<string>>();
    for (const request of accepted) {
      const body = request.body as { metric: string; status: string; id: string };
      if (!perAlert.has(body.metric)) perAlert.set(body.metric, new Set());
      perAlert.get(body.metric)!.add(`${body.status}:${body.id}`);
    }
    for (const metric of ALERTS) expect([...perAlert.get(metric)!].map((e) => e.split(':')[0]), metric).toEqual(['alerting']);
    await server.stop();
  }, 120_000);
});
