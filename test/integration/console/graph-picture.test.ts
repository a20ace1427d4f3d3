import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphLinkSigner } from '../../../src/server/graph/graph-links.js';
import { PNG_HEIGHT, PNG_WIDTH, THRESHOLD_COLOUR } from '../../../src/server/graph/render-png.js';
import { countColour, decodePng } from '../../helpers/decode-png.js';
import { makeSeries, startFakeRender } from '../../helpers/fake-render-server.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const PUBLIC_URL = 'https://alertform.example/';

async function setUp(publicUrl?: string, logLines?: string[]) {
  const receiver = await startWebhookReceiver();
  closers.push(receiver.close);
  const render = await startFakeRender((request) => ({
    series: request.targets.map((target) => makeSeries(target, [10, 40, 99, 99], Math.floor(Date.now() / 1000) - 30, 30)),
  }));
  closers.push(render.close);
  const server = await startTestServer({
    keys: ['picture-key', 'other-key'],
    graphiteUrl: render.url,
    evalIntervalSeconds: 0.2,
    allowPrivateDestinations: true,
    ...(publicUrl ? { publicUrl } : {}),
    ...(logLines ? { logger: pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) }) } : {}),
  });
  closers.push(() => server.close());
  const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
  expect(channel.status).toBe(201);
  const created = await server.request('POST', '/v2/alerts/', {
    name: 'hot',
    metric: 'web.cpu',
    alert_criteria: { type: 'above', above_value: 90 },
    notification_channels: ['hook'],
  });
  expect(created.status).toBe(201);
  return { server, receiver, render, alertId: created.body.id as string };
}

/** GET of a path on the test server without any key. */
const fetchOpen = (server: TestServer, path: string) => fetch(`${server.url}${path}`);

describe('pictures in notifications', () => {
  it('links the webhook to a signed PNG of the graph and to the console page, and never to Graphite', async () => {
    const { server, receiver, render, alertId } = await setUp(PUBLIC_URL);
    const hook = await receiver.next();
    const body = hook.body as { graph: string; console_url: string; status: string };
    expect(body.status).toBe('alerting');
    expect(body.console_url).toBe(`https://alertform.example/alerts/${alertId}`);
    expect(body.graph).toMatch(/^https:\/\/alertform\.example\/v2\/graphs\/[\w-]+\.[\w-]+\.png$/);
    expect(JSON.stringify(hook.body)).not.toContain(render.url);
    expect(JSON.stringify(hook.body)).not.toContain('picture-key');

    const path = new URL(body.graph).pathname;
    const response = await fetchOpen(server, path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const png = decodePng(Buffer.from(await response.arrayBuffer()));
    expect([png.width, png.height]).toEqual([PNG_WIDTH, PNG_HEIGHT]);
    // The threshold is a red line across the plot: at least one full row of it.
    expect(countColour(png, THRESHOLD_COLOUR)).toBeGreaterThanOrEqual(PNG_WIDTH - 30);
  });

  it('logs a picture request without its token, which is the credential', async () => {
    const lines: string[] = [];
    const { server, alertId } = await setUp(PUBLIC_URL, lines);
    const signer = await GraphLinkSigner.load(server.store);
    const now = Math.floor(Date.now() / 1000);
    const token = signer.sign({ alertId, time: now, expires: now + 3600 });
    expect((await fetchOpen(server, `/v2/graphs/${token}.png`)).status).toBe(200);
    const log = lines.join('');
    expect(log).toContain('"path":"/v2/graphs/(token)"');
    expect(log).not.toContain(token.split('.')[1]!);
  });

  it('answers 404 for a tampered token, a token moved to another account’s alert, and 410 for an expired one', async () => {
    const { server, alertId } = await setUp(PUBLIC_URL);
    const signer = await GraphLinkSigner.load(server.store);
    const now = Math.floor(Date.now() / 1000);
    const good = signer.sign({ alertId, time: now, expires: now + 3600 });
    expect((await fetchOpen(server, `/v2/graphs/${good}.png`)).status).toBe(200);

    const [payload, mac] = good.split('.');
    const flipped = mac!.slice(0, -1) + (mac!.endsWith('A') ? 'B' : 'A');
    const tampered = await fetchOpen(server, `/v2/graphs/${payload}.${flipped}.png`);
    expect(tampered.status).toBe(404);
    expect(((await tampered.json()) as { error: { code: string } }).error.code).toBe('not_found');

    const other = await server.request(
      'POST',
      '/v2/alerts/',
      { name: 'theirs', metric: 'their.cpu', alert_criteria: { type: 'above', above_value: 1 } },
      { key: 'other-key' },
    );
    const moved = Buffer.from(JSON.stringify({ a: other.body.id, t: now, e: now + 3600 })).toString('base64url');
    expect((await fetchOpen(server, `/v2/graphs/${moved}.${mac}.png`)).status).toBe(404);

    const expired = signer.sign({ alertId, time: now - 7200, expires: now - 1 });
    const gone = await fetchOpen(server, `/v2/graphs/${expired}.png`);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { error: { message: string } }).error.message).toBe('this graph link has expired');
    expect((await fetchOpen(server, `/v2/graphs/${good}.svg`)).status).toBe(404);
  });

  it('sends no graph and no console link without --public-url', async () => {
    const { receiver, render } = await setUp();
    const hook = await receiver.next();
    expect(hook.body).toMatchObject({ graph: null, status: 'alerting' });
    expect(hook.body).not.toHaveProperty('console_url');
    expect(JSON.stringify(hook.body)).not.toContain(render.url);
  });
});
