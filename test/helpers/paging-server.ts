import { makeSeries, startFakeRender } from './fake-render-server.js';
import { startTestServer, type TestServer } from './server.js';
import { startWebhookReceiver } from './webhook-receiver.js';

export interface PagingServer {
  server: TestServer;
  /** The receiver standing in for every channel's destination: webhooks at `${receiverUrl}/...`, PagerDuty at /pd. */
  receiverUrl: string;
  /** How the receiver answers from now on (default 500: every delivery fails). */
  answer(status: number): void;
  /** Creates an alert that is alerting from its first cycle and pages the channel named `channel`. */
  page(channel: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real server whose evaluator pages for real: a fake render endpoint keeps every metric at 5, the server's own
 * delivery worker sends to a real receiver, and retries come every 100-200 ms. What a channel shows of its deliveries
 * (last_error) is then what the outbox recorded, never a value a test wrote into the store.
 */
export async function startPagingServer(options: { db?: string } = {}): Promise<PagingServer> {
  let status = 500;
  const receiver = await startWebhookReceiver(() => status);
  const render = await startFakeRender((request) => ({
    series: request.targets.map((target) => makeSeries(target, [5, 5], Math.floor(Date.now() / 1000) - 30, 30)),
  }));
  const server = await startTestServer({
    db: options.db,
    graphiteUrl: render.url,
    evalIntervalSeconds: 0.1,
    allowPrivateDestinations: true,
    notifierUrls: { pagerduty: `${receiver.url}/pd` },
    delivery: { retry: { firstDelayMs: 100, maxDelayMs: 200, maxAgeMs: 3_600_000 }, timeoutMs: 2_000, pollMs: 50 },
  });
  return {
    server,
    receiverUrl: receiver.url,
    answer: (next) => {
      status = next;
    },
    page: async (channel) => {
      const created = await server.request('POST', '/v2/alerts/', {
        name: `pages ${channel}`,
        metric: 'paging.metric',
        alert_criteria: { type: 'above', above_value: 1 },
        notification_channels: [channel],
      });
      if (created.status !== 201) throw new Error(`could not create the paging alert: ${created.text}`);
    },
    close: async () => {
      await server.close();
      await receiver.close();
      await render.close();
    },
  };
}
