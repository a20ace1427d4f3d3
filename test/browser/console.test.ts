import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, chromiumAvailability, launchChromium, screenshot } from '../helpers/browser.js';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

const availability = chromiumAvailability();
const XSS_NAME = '<img src=x onerror=alert(1)>';
const KEY_A = 'console-account-a-key-0123456789';
const KEY_B = 'console-account-b-key-0123456789';

// The console in Debian's Chromium against the real server, which evaluates against a fake render endpoint and
// delivers to a local webhook receiver: what an operator sees, clicks and is sent.
describe.skipIf(availability.skip)('the web console in Chromium', () => {
  let server: TestServer;
  let render: Awaited<ReturnType<typeof startFakeRender>>;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cpuValue = 1;
  let alertId = '';
  const cspViolations: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    render = await startFakeRender((request) => ({
      series: request.targets.map((target) => makeSeries(target, [cpuValue, cpuValue, cpuValue], Math.floor(Date.now() / 1000) - 10, 10)),
    }));
    receiver = await startWebhookReceiver();
    server = await startTestServer({
      keys: [KEY_A, KEY_B],
      graphiteUrl: render.url,
      evalIntervalSeconds: 0.3,
      allowPrivateDestinations: true,
      delivery: { retry: { firstDelayMs: 100, maxDelayMs: 400 }, timeoutMs: 2_000 },
    });
    const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'ops hook', destination: `${receiver.url}/hook` });
    expect(channel.status).toBe(201);
    const created = await server.request('POST', '/v2/alerts/', {
      name: 'CPU high',
      metric: 'web.cpu',
      alert_criteria: { type: 'above', above_value: 80 },
      notification_channels: ['ops hook'],
      notification_type: ['state_change'],
    });
    expect(created.status).toBe(201);
    alertId = created.body.id;
    const xss = await server.request('POST', '/v2/alerts/', { name: XSS_NAME, metric: 'web.mem', alert_criteria: { type: 'above', above_value: 1e9 } });
    expect(xss.status).toBe(201);

    chromium = await launchChromium();
    browser = chromium.browser;
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(message.text());
    });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    await receiver?.close();
    await render?.close();
  });

  it('refuses a wrong key and signs in with a right one, keeping the key out of the URL', async () => {
    await page.goto(server.url);
    await page.getByLabel('API key').fill('not-a-key-of-anyone-at-all-0000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectText(page.getByRole('alert'), 'unknown or revoked');
    await page.getByLabel('API key').fill(KEY_A);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
    expect(page.url()).not.toContain(KEY_A);
    expect(await page.evaluate(() => (globalThis as any).document.cookie)).toBe('');
    await screenshot(page, 'sign-in-done');
  });

  it('lists the alerts with counts, and shows a name full of markup as text', async () => {
    const row = page.locator('tr', { hasText: 'CPU high' });
    await expectText(row, 'healthy');
    await expectText(page.locator('.count-total'), '2');
    // The name is text: no <img> was made from it, no script ran.
    await expectText(page.locator('tbody'), XSS_NAME);
    expect(await page.locator('tbody img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('shows an alert going alerting without a reload', async () => {
    await page.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));
    cpuValue = 95;
    const row = page.locator('tr', { hasText: 'CPU high' });
    await expectText(row, 'alerting', 20_000);
    await expectText(row, 'web.cpu');
    expect(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await expectText(page.locator('.count-alerting'), '1');
    await screenshot(page, 'overview');
  });

  it('filters by state and searches by name or metric', async () => {
    await page.getByRole('button', { name: /Alerting/ }).click();
    await expectCount(page.locator('tbody tr'), 1);
    await page.getByRole('button', { name: /All/ }).click();
    await page.getByLabel('Search name or metric').fill('web.mem');
    await expectCount(page.locator('tbody tr'), 1);
    await expectText(page.locator('tbody'), XSS_NAME);
    await page.getByLabel('Search name or metric').fill('');
    await expectCount(page.locator('tbody tr'), 2);
  });

  it('has no accessibility violation and no CSP violation on the overview', async () => {
    expect(await axeViolations(page)).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  it("opens the alert's page from the list: history entry of the alerting transition", async () => {
    await page.getByRole('link', { name: 'CPU high' }).click();
    await page.getByRole('heading', { name: 'CPU high', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/alerts/${alertId}`);
    await expectText(page.locator('.alert-head'), 'alerting');
    await expectText(page.locator('#history'), 'Alerting');
    await expectText(page.locator('#history'), 'web.cpu');
    await screenshot(page, 'alert');
  });

  it('mutes the alert from its page for 30 minutes, and unmutes it', async () => {
    await page.getByRole('button', { name: 'Mute 30 min' }).click();
    await expectText(page.getByRole('status'), 'Muted for 30 min');
    await expectText(page.locator('.mute-status'), 'Muted for 30 min more');
    const muted = await server.request('GET', `/v2/alerts/${alertId}/muted/`);
    expect(muted.body).toMatchObject({ muted: true, duration: 30 });
    await expectText(page.locator('.alert-head'), 'muted');
    await page.getByLabel('Custom duration').fill('3');
    await page.getByLabel('Unit').selectOption({ label: 'hours' });
    await page.getByRole('button', { name: 'Mute', exact: true }).click();
    await expectText(page.locator('.mute-status'), 'Muted for 3 h more');
    expect((await server.request('GET', `/v2/alerts/${alertId}/muted/`)).body.duration).toBe(180);
    await page.getByRole('button', { name: 'Unmute' }).click();
    await expectText(page.locator('.mute-status'), 'Not muted');
    expect((await server.request('GET', `/v2/alerts/${alertId}/muted/`)).body.muted).toBe(false);
  });

  it('has no accessibility violation on the alert page', async () => {
    expect(await axeViolations(page)).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  it('keeps the XSS-named alert page text only', async () => {
    await page.goto(server.url);
    await page.getByRole('link', { name: XSS_NAME }).click();
    await page.getByRole('heading', { name: XSS_NAME, level: 1 }).waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('fits a narrow window without sideways scrolling', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(server.url);
    await expectText(page.locator('tr', { hasText: 'CPU high' }), 'alerting');
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'overview-narrow');
    await page.goto(`${server.url}/alerts/${alertId}`);
    await expectText(page.locator('#history'), 'Alerting');
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'alert-narrow');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("shows a second account none of the first account's alerts", async () => {
    const other = await browser.newContext();
    try {
      const otherPage = await other.newPage();
      await otherPage.goto(server.url);
      await otherPage.getByLabel('API key').fill(KEY_B);
      await otherPage.getByRole('button', { name: 'Sign in' }).click();
      await expectText(otherPage.locator('main'), 'No alerts yet');
      await expectText(otherPage.locator('.count-total'), '0');
      await otherPage.goto(`${server.url}/alerts/${alertId}`);
      await expectText(otherPage.locator('main'), 'not found', 10_000);
      expect(await otherPage.locator('main').textContent()).not.toContain('CPU high');
    } finally {
      await other.close();
    }
  });
});

/** Waits until the locator's text contains `text` (case-insensitive). */
async function expectText(locator: ReturnType<Page['locator']>, text: string, timeout = 10_000): Promise<void> {
  const lower = text.toLowerCase();
  const deadline = Date.now() + timeout;
  let last = '';
  for (;;) {
    last = (await locator.first().textContent({ timeout }).catch(() => '')) ?? '';
    if (last.toLowerCase().includes(lower)) return;
    if (Date.now() > deadline) throw new Error(`expected "${text}" within ${timeout} ms; text was: ${last.slice(0, 500)}`);
    await locator.page().waitForTimeout(100);
  }
}

async function expectCount(locator: ReturnType<Page['locator']>, count: number, timeout = 10_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while ((await locator.count()) !== count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} elements, found ${await locator.count()}`);
    await locator.page().waitForTimeout(100);
  }
}
