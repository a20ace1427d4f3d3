import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { startDeliveryWorker, type DeliveryWorker } from '../../../../src/server/outbox/delivery-worker.js';
import { type DeliveryChannel, type Notification } from '../../../../src/notifications/types.js';
import { DeliveryError } from '../../../../src/server/notifiers/delivery.js';
import { openSqliteStore } from '../../../../src/server/store/sqlite/sqlite-store.js';
import { until } from '../../../helpers/until.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A store with two webhook channels (secret URLs) and one alert on each, plus a writer of transitions. */
async function setup() {
  const store = openSqliteStore(':memory:');
  cleanups.push(() => store.close());
  const account = await store.accounts.createAccount('ops@example.com');
  const slow = await store.channels.createChannel(account.id, { type: 'webhook', description: 'slow', destination: 'https://slow.example/?token=s3cret', autoResolve: false });
  const fast = await store.channels.createChannel(account.id, { type: 'webhook', description: 'fast', destination: 'https://fast.example/?token=s3cret', autoResolve: false });
  const alert = await store.alerts.createAlert(account.id, {
    name: 'cpu', metric: 'cpu', alertCriteria: { type: 'above', above_value: 1 }, additionalCriteria: {}, expression: 'a',
    notificationChannels: [slow.id, fast.id], notificationType: ['state_change'], scheduledMutes: [], info: null, onQueryFailure: null,
  });
  const write = (event: string, channels = [slow.id, fast.id]) =>
    store.evaluation.saveEvaluations([
      {
        alertId: alert.id,
        status: 'alerting', currentlyTriggeredMetrics: [], evalState: null,
        history: [],
        deliveries: channels.map((channelId) => ({ channelId, event, payload: { event, alert: { id: alert.id, name: 'cpu' } }, createdAt: Date.now() })),
      },
    ]);
  const list = (states: ('pending' | 'dead' | 'delivered')[]) => store.outbox.listDeliveries(account.id, { states, page: 1, max: 100 }).then((p) => p.items);
  return { store, account, slow, fast, write, list };
}

function start(options: Parameters<typeof startDeliveryWorker>[0]): DeliveryWorker {
  const worker = startDeliveryWorker(options);
  cleanups.push(() => worker.stop(100));
  return worker;
}

/** A logger whose JSON lines land in `lines`. */
function captureLogs() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
  return { logger, lines };
}

describe('the delivery worker', () => {
  it("times an attempt out, aborts it, and a slow channel does not hold another channel's deliveries", async () => {
    const { store, slow, fast, write, list } = await setup();
    const sent: string[] = [];
    let aborted = false;
    await write('alerting');
    const worker = start({
      store: store.outbox,
      attemptTimeoutMs: 150,
      retry: { firstDelayMs: 60_000 },
      send: (channel: DeliveryChannel, notification: Notification, signal: AbortSignal) => {
        if (channel.id === slow.id) {
          signal.addEventListener('abort', () => (aborted = true));
          return new Promise<void>(() => undefined);
        }
        sent.push(`${channel.id}:${notification.event}:${notification.deliveryId}`);
        return Promise.resolve();
      },
    });
    worker.wake();
    await worker.idle();
    const [pending] = await list(['pending']);
    expect(pending).toMatchObject({ channel: { id: slow.id }, attempts: 1, lastError: 'webhook delivery timed out after 150 ms' });
    expect(aborted).toBe(true);
    const [delivered] = await list(['delivered']);
    expect(sent).toEqual([`${fast.id}:alerting:${delivered!.id}`]);
  });

  it('retries an unexpected error with a message naming only the channel type, and logs no destination', async () => {
    const { store, write, list, fast } = await setup();
    const { logger, lines } = captureLogs();
    let calls = 0;
    await write('alerting', [fast.id]);
    const worker = start({
      store: store.outbox,
      logger,
      retry: { firstDelayMs: 20, maxDelayMs: 20 },
      pollMs: 20,
      send: async () => {
        calls += 1;
        if (calls === 1) throw new TypeError('fetch failed for https://fast.example/?token=s3cret');
        if (calls === 2) throw new DeliveryError('webhook answered HTTP 502', true);
      },
    });
    worker.wake();
    await until(() => list(['delivered']), (done) => done.length === 1, 5_000, 10);
    expect(calls).toBe(3);
    expect((await list(['delivered']))[0]).toMatchObject({ attempts: 3, lastError: 'webhook answered HTTP 502' });
    const logged = lines.join('');
    expect(logged).toContain('webhook delivery failed');
    expect(logged).toContain('notification delivered');
    // Each line names the alert and the channel by name beside their ids.
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((entry) => /^notification deliver/.test(String(entry.msg)))).toHaveLength(3);
    for (const entry of entries.filter((entry) => /^notification deliver/.test(String(entry.msg)))) {
      expect(entry).toMatchObject({ alertName: 'cpu', channel: fast.id, channelName: 'fast', type: 'webhook', event: 'alerting' });
    }
    expect(logged).not.toContain('s3cret');
    expect(logged).not.toContain('fast.example');
  });

  it('dead-letters a rejected request without retrying it, and keeps the next notification of that alert going', async () => {
    const { store, write, list, fast } = await setup();
    const events: string[] = [];
    await write('alerting', [fast.id]);
    await write('recovered', [fast.id]);
    const worker = start({
      store: store.outbox,
      send: async (_channel, notification) => {
        events.push(notification.event);
        if (notification.event === 'alerting') throw new DeliveryError('webhook answered HTTP 410', false);
      },
    });
    worker.wake();
    await until(() => list(['pending']), (left) => left.length === 0, 5_000, 10);
    expect(events).toEqual(['alerting', 'recovered']);
    expect(await list(['dead'])).toMatchObject([{ event: 'alerting', attempts: 1, lastError: 'webhook answered HTTP 410' }]);
  });
});
