import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { callServe, spawnServe, type ServeProcess } from '../helpers/server-process.js';
import { storeBackends } from '../helpers/store-backends.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver, type ReceivedRequest } from '../helpers/webhook-receiver.js';

/** Preloaded into each server so that an escalation minute passes in a real second (test/helpers/clock-rate.mjs). */
const CLOCK_RATE = fileURLToPath(new URL('../helpers/clock-rate.mjs', import.meta.url));
const RATE = 60;

/** The webhook body as these checks read it. */
interface Body {
  id: string;
  status: string;
  escalation?: { step: number };
}

/** What a request was, by the channel (the receiver's path) and the event: `lead escalated#1`, `oncall recovered`. */
function describeRequest(request: ReceivedRequest): string {
  const body = request.body as Body;
  const event = body.escalation ? `escalated#${body.escalation.step}` : body.status;
  return `${request.path.slice(1)} ${event}`;
}

// An alert escalates in three steps; its server is killed (SIGKILL) right after the first step reached its channel,
// and a new process on the same database takes over: on SQLite the same file, on PostgreSQL another replica that
// must wait for the dead one's evaluation lease to expire. The two backends run side by side (each has its own
// render endpoint, receiver, database and server): the test waits mostly on the servers' clock.
describe.concurrent.each(storeBackends())('escalation across kill -9 on $name', (backend) => {
  afterAll(() => backend.dispose());
  it.skipIf(backend.skip)('delivers every step once, in order, at its minute, and the recovery to every escalated channel once', async ({ onTestFinished }) => {
    // This test's own closers, run when it ends (the other backend's test runs beside it).
    const closers: (() => Promise<unknown>)[] = [];
    onTestFinished(async () => {
      while (closers.length) await closers.pop()!().catch(() => undefined);
    });
    const dir = await mkdtemp(join(tmpdir(), 'alertform-escalation-crash-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    let value = 500;
    const epoch = Date.now();
    /** The server's clock (ms), RATE times faster from the epoch: Graphite answers points of the server's own now. */
    const serverNow = () => epoch + (Date.now() - epoch) * RATE;
    const render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [value, value], Math.floor(serverNow() / 1000) - 30, 30)),
    }));
    closers.push(render.close);
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const db = backend.name === 'sqlite' ? join(dir, 'alertform.db') : await backend.createDb();
    const start = () =>
      spawnServe({
        db,
        key: 'escalation-crash-key-0123456789abcdef',
        env: { NODE_OPTIONS: `--import ${CLOCK_RATE}`, ALERTFORM_TEST_CLOCK_RATE: String(RATE), ALERTFORM_TEST_CLOCK_EPOCH_MS: String(epoch) },
        extraArgs: [
          '--graphite-url', render.url, '--eval-interval', '0.3', '--allow-private-destinations',
          '--delivery-first-retry', '100ms', '--delivery-max-retry-delay', '300ms', '--delivery-timeout', '2s',
        ],
      });
    let server: ServeProcess = await start();
    closers.push(() => server.kill());
    /** The server's clock in minutes since the epoch. */
    const minutesNow = () => ((Date.now() - epoch) * RATE) / 60_000;

    for (const description of ['oncall', 'lead', 'manager', 'director']) {
      const made = await callServe(server, 'POST', '/v2/notifications/', { type: 'webhook', description, destination: `${receiver.url}/${description}` });
      expect(made.status).toBe(201);
    }
    const created = await callServe(server, 'POST', '/v2/alerts/', {
      name: 'checkout errors',
      metric: 'esc.crash',
      alert_criteria: { type: 'above', above_value: 100 },
      notification_channels: ['oncall'],
      notification_type: ['state_change'],
      escalation: [
        { after_minutes: 3, notification_channels: ['lead'] },
        { after_minutes: 12, notification_channels: ['manager'] },
        { after_minutes: 16, notification_channels: ['director', 'lead'] },
      ],
    });
    expect(created.status).toBe(201);
    const arrivals: Record<string, number> = {};
    const seen = async (what: string, timeoutMs = 60_000) => {
      await until(async () => receiver.received.map(describeRequest), (list) => list.includes(what), timeoutMs);
      arrivals[what] ??= minutesNow();
    };

    await seen('oncall alerting');
    await seen('lead escalated#1');
    expect(await server.kill()).toBe('SIGKILL');
    server = await start();

    await seen('manager escalated#2');
    await seen('director escalated#3');
    await seen('lead escalated#3');
    value = 10;
    for (const channel of ['oncall', 'lead', 'manager', 'director']) await seen(`${channel} recovered`);
    // Whatever is still in flight lands before the count.
    await until(() => callServe(server, 'GET', '/v2/deliveries/?state=pending'), (r) => r.body.deliveries.length === 0, 30_000);

    // Exactly once: one delivery id per (channel, event); a resend after the kill would carry the same id.
    const ids = new Map<string, Set<string>>();
    for (const request of receiver.received) {
      const key = describeRequest(request);
      ids.set(key, (ids.get(key) ?? new Set()).add((request.body as Body).id));
      expect(request.headers['idempotency-key']).toBe((request.body as Body).id);
    }
    expect(Object.fromEntries([...ids].map(([key, set]) => [key, set.size]))).toEqual({
      'oncall alerting': 1,
      'lead escalated#1': 1,
      'manager escalated#2': 1,
      'director escalated#3': 1,
      'lead escalated#3': 1,
      'oncall recovered': 1,
      'lead recovered': 1,
      'manager recovered': 1,
      'director recovered': 1,
    });
    // Each step came at its minute after the alert began alerting: not before, and (a cycle, a delivery and,
    // across the kill, a restart later) not long after.
    const began = arrivals['oncall alerting']!;
    for (const [what, after] of [['lead escalated#1', 3], ['manager escalated#2', 12], ['director escalated#3', 16]] as const) {
      expect(arrivals[what]! - began, what).toBeGreaterThanOrEqual(after - 1);
    }
    expect(arrivals['lead escalated#1']! - began).toBeLessThan(3 + 5);
    // In order: the first arrival of each step after the one before.
    const order = receiver.received.map(describeRequest);
    const firstOf = (what: string) => order.indexOf(what);
    expect(firstOf('oncall alerting')).toBeLessThan(firstOf('lead escalated#1'));
    expect(firstOf('lead escalated#1')).toBeLessThan(firstOf('manager escalated#2'));
    expect(firstOf('manager escalated#2')).toBeLessThan(firstOf('director escalated#3'));
    await server.stop();
  }, 180_000);
});
