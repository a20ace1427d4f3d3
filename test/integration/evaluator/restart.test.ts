import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** Resolves once the render endpoint has received `count` more requests than now: cycles have run. */
async function cyclesRun(requests: unknown[], count: number, timeoutMs = 20_000): Promise<void> {
  const target = requests.length + count;
  const deadline = Date.now() + timeoutMs;
  while (requests.length < target) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} cycles within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('evaluation state across a restart', () => {
  it('keeps the alert alerting and does not notify again within the backoff', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'alertform-restart-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const db = join(dir, 'alertform.db');
    const render = await startFakeRender(() => ({ series: [makeSeries('restart.queue.depth', [500, 500], Math.floor(Date.now() / 1000) - 30, 30)] }));
    const receiver = await startWebhookReceiver();
    closers.push(render.close, receiver.close);
    const options = { db, keys: ['restart-key'], graphiteUrl: render.url, evalIntervalSeconds: 1, allowPrivateDestinations: true };

    let server: TestServer = await startTestServer(options);
    await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'Queue depth',
      metric: 'restart.queue.depth',
      alert_criteria: { type: 'above', above_value: 100 },
      notification_channels: ['hook'],
      notification_type: ['every', 60],
    });
    expect(created.status).toBe(201);
    const first = await receiver.next(20_000);
    expect(first.body).toMatchObject({ status: 'alerting', backoff_minutes: 60 });
    await server.close();

    server = await startTestServer(options);
    closers.push(() => server.close());
    await cyclesRun(render.requests, 3);
    const alert = await server.request('GET', `/v2/alerts/${created.body.id}/`);
    expect(alert.body).toMatchObject({ status: 'alerting', currently_triggered_metrics: ['restart.queue.depth'] });
    expect(receiver.received).toHaveLength(1);
    const history = await server.request('GET', `/v2/alerts/history/?id=${created.body.id}`);
    expect(history.body[created.body.id]).toHaveLength(1);
  });
});
