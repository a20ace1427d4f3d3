import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, chromiumAvailability, screenshot } from '../helpers/browser.js';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { fileChromium } from '../helpers/file-chromium.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { connect, type Socket } from 'node:net';
import { freePort } from '../helpers/free-port.js';

const availability = chromiumAvailability();
const KEY = 'console-stream-key-0123456789abcdef';

// The alert page says how the server judges each alert: on the metric stream it receives, or by polling render
// (a function the local engine does not evaluate). Debian's Chromium against the real server with a carbon listener.
describe.skipIf(availability.skip)('how an alert is evaluated, in the web console', () => {
  let server: TestServer;
  let render: Awaited<ReturnType<typeof startFakeRender>>;
  let chromium: Awaited<ReturnType<typeof fileChromium>>;
  let browser: Browser;
  let page: Page;
  const ids: Record<string, string> = {};
  let relay: Socket;

  beforeAll(async () => {
    render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [1, 1, 1], Math.floor(Date.now() / 1000) - 30, 10)),
    }));
    const carbonPort = await freePort();
    server = await startTestServer({ keys: [KEY], graphiteUrl: render.url, evalIntervalSeconds: 0.5, carbon: { plaintext: `127.0.0.1:${carbonPort}` } });
    // A relay's connection, held open as relays hold their destinations'.
    relay = await new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: carbonPort }, () => resolve(socket));
      socket.once('error', reject);
    });
    await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'ops hook', destination: 'https://hooks.example.com/ops' });
    for (const [name, metric] of [
      ['web cpu', 'servers.web1.cpu'],
      ['busiest web cpu', 'highestMax(servers.web*.cpu, 1)'],
    ] as const) {
      const made = await server.request('POST', '/v2/alerts/', { name, metric, alert_criteria: { type: 'above', above_value: 80 }, notification_channels: ['ops hook'] });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      ids[name] = made.body.id;
    }
    chromium = await fileChromium();
    browser = chromium.browser;
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(server.url);
    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
  }, 60_000);

  afterAll(async () => {
    relay?.destroy();
    await chromium?.close();
    await server?.close();
    await render?.close();
  });

  it('shows a stream-judged alert as judged on the metric stream, and one with another function as polled', async () => {
    expect((await server.request('GET', `/v2/alerts/${ids['web cpu']}/`)).body.evaluated_by).toBe('stream');
    expect((await server.request('GET', `/v2/alerts/${ids['busiest web cpu']}/`)).body.evaluated_by).toBe('render');
    await page.getByRole('link', { name: 'web cpu', exact: true }).click();
    await page.getByRole('heading', { name: 'web cpu' }).waitFor();
    const evaluated = page.locator('[data-key="evaluated-by"]');
    await evaluated.waitFor();
    expect(await evaluated.textContent()).toBe('on the metric stream, as its data arrives');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'alert-evaluated-by-stream');
    await page.getByRole('link', { name: 'Alerts', exact: true }).first().click();
    await page.getByRole('link', { name: 'busiest web cpu', exact: true }).click();
    await page.getByRole('heading', { name: 'busiest web cpu' }).waitFor();
    await page.locator('[data-key="evaluated-by"]', { hasText: 'polling' }).waitFor();
    expect(await page.locator('[data-key="evaluated-by"]').textContent()).toBe('by polling Graphite every interval');
  });
});
