/**
 * `npm run bench:outbox`: how fast the durable outbox drains a backlog (say, after a provider outage) compared
 * with sending the same notifications bare. 2,000 deliveries (100 alerts x 20 webhook channels) are written in one
 * transaction to a SQLite file (synchronous=FULL: every claim and every outcome is an fsync'd commit, which is
 * the price of durability), then the delivery worker sends them to a receiver in a child process. The baseline
 * sends the very same webhook requests (same bodies, same 16 in flight) straight, with no database. Prints both
 * times and the ratio.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { parseDestinationPolicy } from '../src/server/net/destination-policy.js';
import { sendWebhook } from '../src/server/notifiers/webhook.js';
import type { Notification } from '../src/notifications/types.js';
import { startDeliveryWorker } from '../src/server/outbox/delivery-worker.js';
import { openSqliteStore } from '../src/server/store/sqlite/sqlite-store.js';
import type { ChannelRecord } from '../src/server/store/store.js';

const ALERTS = Number(process.env.BENCH_ALERTS ?? 100);
const CHANNELS = Number(process.env.BENCH_CHANNELS ?? 20);
const CONCURRENCY = 16;
// The receiver listens on 127.0.0.1, which only an opted-in install may reach.
const LOCAL = { destinations: parseDestinationPolicy(true) };

/** The receiver runs in a child process, so answering does not compete with the sender's event loop. */
async function startReceiver(): Promise<{ url: string; count: () => Promise<number>; close: () => void }> {
  const child = fork(fileURLToPath(import.meta.url), ['--receiver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let pendingCount: ((n: number) => void) | null = null;
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (message: { url?: string; count?: number }) => {
      if (message.url) resolve(message.url);
      if (message.count !== undefined) pendingCount?.(message.count);
    });
    child.once('exit', (code) => reject(new Error(`receiver exited ${code}`)));
  });
  return {
    url,
    count: () =>
      new Promise<number>((resolve) => {
        pendingCount = resolve;
        child.send('count');
      }),
    close: () => child.kill(),
  };
}

async function serveReceiver() {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', () => process.send!({ count }));
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

function notificationFor(index: number): Notification {
  return {
    event: 'alerting',
    alert: {
      id: `alert-${index}`,
      name: `bench alert ${index}`,
      metric: `bench.h${index}.cpu`,
      alert_criteria: { type: 'above', above_value: 90, time_period: 2 },
      additional_criteria: {},
      expression: 'a',
      info: 'Runbook: https://wiki.example/cpu',
      notification_type: ['every', 60],
    },
    triggered: [{ metric: `bench.h${index}.cpu`, value: 95 }],
    conditions: [],
    graphUrl: `http://graphite.example/render?target=bench.h${index}.cpu`,
    time: Math.floor(Date.now() / 1000),
  };
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'alertform-bench-outbox-'));
  const receiver = await startReceiver();
  const store = openSqliteStore(join(dir, 'bench.db'));
  try {
    const account = await store.accounts.createAccount('bench@example.com');
    const channels: ChannelRecord[] = [];
    for (let c = 0; c < CHANNELS; c += 1) {
      channels.push(await store.channels.createChannel(account.id, { type: 'webhook', description: `hook ${c}`, destination: `${receiver.url}/hook/${c}`, autoResolve: false }));
    }
    const alertIds: string[] = [];
    for (let a = 0; a < ALERTS; a += 1) {
      const alert = await store.alerts.createAlert(account.id, {
        name: `bench alert ${a}`, metric: `bench.h${a}.cpu`, alertCriteria: { type: 'above', above_value: 90, time_period: 2 },
        additionalCriteria: {}, expression: 'a', notificationChannels: channels.map((c) => c.id), notificationType: ['every', 60],
        scheduledMutes: [], info: null, onQueryFailure: null,
      });
      alertIds.push(alert.id);
    }
    const total = ALERTS * CHANNELS;
    console.log(`outbox: ${total} deliveries (${ALERTS} alerts x ${CHANNELS} webhook channels), ${CONCURRENCY} in flight, SQLite file in ${tmpdir()}`);

    // Baseline: the same requests, sent bare.
    const limit = pLimit(CONCURRENCY);
    const bareStarted = performance.now();
    await Promise.all(
      alertIds.flatMap((_, a) =>
        channels.map((channel) =>
          limit(() =>
            sendWebhook(
              { id: channel.id, type: 'webhook', description: channel.description, destination: channel.destination, autoResolve: false },
              { ...notificationFor(a), deliveryId: `bare-${a}-${channel.id}` },
              LOCAL,
              AbortSignal.timeout(10_000),
            ),
          ),
        ),
      ),
    );
    const bareMs = performance.now() - bareStarted;

    const writeStarted = performance.now();
    await store.evaluation.saveEvaluations(
      alertIds.map((alertId, a) => ({
        alertId,
        status: 'alerting', currentlyTriggeredMetrics: [], evalState: null,
        history: [],
        deliveries: channels.map((channel) => ({ channelId: channel.id, event: 'alerting', payload: notificationFor(a), createdAt: Date.now() })),
      })),
    );
    const writeMs = performance.now() - writeStarted;

    const drainStarted = performance.now();
    const worker = startDeliveryWorker({ store: store.outbox, send: (channel, notification, signal) => sendWebhook(channel, notification, LOCAL, signal), concurrency: CONCURRENCY });
    worker.wake();
    await worker.idle();
    const drainMs = performance.now() - drainStarted;
    await worker.stop();
    const delivered = (await store.outbox.listDeliveries(account.id, { states: ['delivered'], page: 1, max: 100 })).items.length;
    const received = await receiver.count();
    if (received !== 2 * total || delivered === 0) throw new Error(`receiver got ${received} requests, expected ${2 * total}`);

    const rate = (ms: number) => `${Math.round((total / ms) * 1000)}/s`;
    console.log(`baseline (the same ${total} webhook requests, bare): ${(bareMs / 1000).toFixed(2)} s  ${rate(bareMs)}`);
    console.log(`outbox write (one transaction, with the transitions): ${writeMs.toFixed(0)} ms`);
    console.log(`outbox drain (claim, send, mark; fsync per commit): ${(drainMs / 1000).toFixed(2)} s  ${rate(drainMs)}  ratio to baseline ${(drainMs / bareMs).toFixed(2)}x`);
  } finally {
    await store.close();
    receiver.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--receiver')) void serveReceiver();
else await main();
