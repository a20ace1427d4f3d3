import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, chromiumAvailability, screenshot } from '../helpers/browser.js';
import { makeSeries, startFakeRender } from '../helpers/fake-render-server.js';
import { fileChromium } from '../helpers/file-chromium.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { until } from '../helpers/until.js';

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
  let chromium: Awaited<ReturnType<typeof fileChromium>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cpuValue = 1;
  /** Graphite refuses every query (graphite-web down). */
  let graphiteDown = false;
  let alertId = '';
  const cspViolations: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    render = await startFakeRender((request) =>
      graphiteDown
        ? { status: 500, body: 'graphite-web is down' }
        : // `gone.*` matches no series: a renamed metric.
          { series: request.targets.filter((target) => !target.startsWith('gone')).map((target) => seriesFor(target, request.from, cpuValue)) },
    );
    // /broken always fails: its notifications are dead-lettered after 2 s of retries.
    receiver = await startWebhookReceiver((request) => (request.path === '/broken' ? 500 : 200));
    server = await startTestServer({
      keys: [KEY_A, KEY_B],
      graphiteUrl: render.url,
      evalIntervalSeconds: 0.3,
      allowPrivateDestinations: true,
      delivery: { retry: { firstDelayMs: 100, maxDelayMs: 400, maxAgeMs: 2_000 }, timeoutMs: 2_000 },
    });
    const channel = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'ops hook', destination: `${receiver.url}/hook` });
    expect(channel.status).toBe(201);
    const broken = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'broken hook', destination: `${receiver.url}/broken` });
    expect(broken.status).toBe(201);
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

    chromium = await fileChromium();
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
    // As alertform apply writes it: the alert becomes managed from git.
    const applied = await server.request('PUT', `/v2/alerts/${alertId}/`, { info: 'Runbook: scale out' }, { headers: { 'x-alertform-managed': 'git' } });
    expect(applied.status).toBe(200);
    await page.getByRole('link', { name: 'CPU high' }).click();
    await page.getByRole('heading', { name: 'CPU high', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/alerts/${alertId}`);
    await expectText(page.locator('.alert-head'), 'alerting');
    await expectText(page.locator('#history'), 'Alerting');
    await expectText(page.locator('#history'), 'web.cpu');
    // The graph: a uPlot canvas per criterion, its caption naming the threshold and the alerting period.
    await page.locator('#graph canvas').first().waitFor();
    await expectText(page.locator('#graph figcaption'), 'Threshold 80');
    await expectText(page.locator('#graph figcaption'), 'Alerting');
    // The delivery of the alerting notification, delivered to the receiver.
    const hook = await receiver.waitFor((request) => request.path === '/hook');
    expect(JSON.stringify(hook.body)).toContain('CPU high');
    await expectText(page.locator('#deliveries tr[data-state="delivered"]'), 'ops hook', 15_000);
    await expectText(page.locator('#history'), 'Notification sent');
    await expectText(page.locator('#backtest'), 'would have fired');
    await expectText(page.locator('#definition pre'), 'name: CPU high');
    await expectText(page.locator('#managed-notice'), 'shows as drift in the next plan');
    await screenshot(page, 'alert');
  });

  it('acknowledges the alert from its page, asking for the name once, and shows it on the page and in the overview', async () => {
    // Never asked in this browser yet: the name field is there.
    await page.getByLabel('Your name').fill('Ann Oncall');
    await page.getByLabel('Note (optional)').fill('scaling out');
    await page.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await expectText(page.locator('#acknowledge [role="status"]'), 'Acknowledged as Ann Oncall.');
    await expectText(page.locator('.ack-status'), 'Acknowledged by Ann Oncall');
    await expectText(page.locator('.ack-status'), 'scaling out');
    await expectText(page.locator('.alert-head'), 'acknowledged by Ann Oncall');
    const read = await server.request('GET', `/v2/alerts/${alertId}/`);
    expect(read.body.acknowledgement).toMatchObject({ by: 'Ann Oncall', note: 'scaling out', until: null });
    expect(await page.evaluate(() => (globalThis as any).localStorage.getItem('alertform.ackName'))).toBe('Ann Oncall');
    await expectText(page.locator('#history li[data-kind="acknowledged"]'), 'by Ann Oncall: scaling out');
    // The channel was told, once.
    const told = await receiver.waitFor((request) => request.path === '/hook' && (request.body as { status?: string }).status === 'acknowledged');
    expect(told.body).toMatchObject({ acknowledgement: { by: 'Ann Oncall', note: 'scaling out' } });
    await screenshot(page, 'alert-acknowledged');

    // Withdrawn and acknowledged again: the remembered name is not asked a second time.
    await page.getByRole('button', { name: 'Withdraw acknowledgement' }).click();
    await expectText(page.locator('.ack-status'), 'Not acknowledged.');
    await page.reload();
    await page.getByRole('heading', { name: 'CPU high', level: 1 }).waitFor();
    expect(await page.getByLabel('Your name').isHidden()).toBe(true);
    await page.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await expectText(page.locator('.ack-status'), 'Acknowledged by Ann Oncall');
    // The second acknowledgement told the channel too (a new one after the withdrawal), once.
    const acks = () => receiver.received.filter((r) => (r.body as { status?: string }).status === 'acknowledged').length;
    await until(async () => acks(), (count) => count >= 2, 15_000);
    expect(acks()).toBe(2);

    await page.getByRole('link', { name: '← All alerts' }).click();
    await expectText(page.locator('tr', { hasText: 'CPU high' }), 'acknowledged by Ann Oncall');
    await screenshot(page, 'overview-acknowledged');
    await page.getByRole('link', { name: 'CPU high' }).click();
    await page.getByRole('heading', { name: 'CPU high', level: 1 }).waitFor();
  });

  it('mutes the alert from its page for 30 minutes, and unmutes it', async () => {
    await page.getByRole('button', { name: 'Mute 30 min' }).click();
    await expectText(page.locator('#mute [role="status"]'), 'Muted for 30 min');
    await expectText(page.locator('.mute-status'), 'Muted for 30 min more');
    const muted = await server.request('GET', `/v2/alerts/${alertId}/muted/`);
    expect(muted.body).toMatchObject({ muted: true, duration: 30 });
    await expectText(page.locator('.alert-head'), 'muted');
    // Recovering while muted: the alerting went out, so its recovery does too (a resolve is never held back).
    cpuValue = 1;
    await expectText(page.locator('#history'), 'Recovered', 20_000);
    const recovery = await until(
      () => server.request('GET', '/v2/deliveries/?state=delivered'),
      (response) => response.body.deliveries.some((delivery: { event: string }) => delivery.event === 'recovered'),
    );
    expect(recovery.body.deliveries.find((delivery: { event: string }) => delivery.event === 'recovered')).toMatchObject({ channel: { type: 'webhook' } });
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

  it('lists the channels with their health and sends a test notification from there', async () => {
    await page.getByRole('link', { name: 'Channels' }).click();
    await page.getByRole('heading', { name: 'Channels', level: 1 }).waitFor();
    await expectText(page.locator('tr', { hasText: 'ops hook' }), 'OK');
    await page.getByRole('button', { name: 'Send a test notification to ops hook' }).click();
    await expectText(page.getByRole('status'), 'test notification to ops hook');
    const test = await receiver.waitFor((request) => request.path === '/hook' && JSON.stringify(request.body).includes('alertform test notification'));
    expect(test.method).toBe('POST');
    await page.getByRole('button', { name: 'Send a test notification to broken hook' }).click();
    // The failing channel shows its last error once the worker has tried.
    await expectText(page.locator('tr', { hasText: 'broken hook' }), 'Last error', 15_000);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'channels');
  });

  it('retries a dead-lettered delivery from the deliveries page', async () => {
    await page.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { name: 'Deliveries', level: 1 }).waitFor();
    const dead = page.locator('tr[data-state="dead"]', { hasText: 'broken hook' });
    await expectText(dead, 'HTTP 5', 20_000);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'deliveries');
    const before = receiver.received.filter((request) => request.path === '/broken').length;
    await page.getByRole('button', { name: /^Retry the .* notification to broken hook$/ }).first().click();
    await receiver.waitFor(() => receiver.received.filter((request) => request.path === '/broken').length > before);
    expect(cspViolations).toEqual([]);
  });

  it('works with the keyboard alone: skip link, open an alert, mute and unmute it', async () => {
    await page.goto(server.url);
    await page.locator('tbody tr').first().waitFor();
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Skip to content');
    await tabTo(page, 'CPU high');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'CPU high', level: 1 }).waitFor();
    // The new page's heading has the focus, so the next Tab starts from there.
    expect(await focusedText(page)).toBe('CPU high');
    await tabTo(page, 'Mute 6 h');
    await page.keyboard.press('Enter');
    await expectText(page.locator('.mute-status'), 'Muted for 6 h more');
    await tabTo(page, 'Unmute');
    await page.keyboard.press('Enter');
    await expectText(page.locator('.mute-status'), 'Not muted');
  });

  it('fits a narrow window without sideways scrolling', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(server.url);
    await expectText(page.locator('tr', { hasText: 'CPU high' }), 'web.cpu');
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'overview-narrow');
    await page.goto(`${server.url}/alerts/${alertId}`);
    await expectText(page.locator('#history'), 'Alerting');
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'alert-narrow');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows no data and query failing as what they are, in the overview and on the alert page', async () => {
    const created = await server.request('POST', '/v2/alerts/', { name: 'Renamed metric', metric: 'gone.cpu', alert_criteria: { type: 'above', above_value: 80 } });
    expect(created.status).toBe(201);
    await page.goto(server.url);
    const row = page.locator('tr', { hasText: 'Renamed metric' });
    await expectText(row, 'no data', 20_000);
    await expectText(page.locator('.count-no_data'), '1');
    await screenshot(page, 'overview-no-data');
    await row.getByRole('link', { name: 'Renamed metric' }).click();
    await expectText(page.locator('[data-key="state-hint"]'), 'no data');
    await screenshot(page, 'alert-no-data');

    graphiteDown = true;
    try {
      await page.goto(server.url);
      await expectText(page.locator('.count-query_failing'), '3', 20_000);
      await expectText(page.locator('.count-alerting'), '0');
      await expectText(page.locator('tr', { hasText: 'CPU high' }), 'query failing');
      await screenshot(page, 'overview-query-failing');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      graphiteDown = false;
    }
  });

  it('shades the settle delay on the graph: the newest seconds are not judged yet', async () => {
    const created = await server.request('POST', '/v2/alerts/', { name: 'Settled CPU', metric: 'web.cpu', alert_criteria: { type: 'above', above_value: 80 }, settle_seconds: 300 });
    expect(created.status).toBe(201);
    await page.goto(`${server.url}/alerts/${created.body.id}`);
    await page.locator('#graph canvas').first().waitFor();
    await expectText(page.locator('#graph figcaption'), 'The last 300 s, where points may still be arriving, are not judged yet');
    await screenshot(page, 'alert-settle');
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

/**
 * What the fake Graphite answers: the evaluator's short reads get the current value; the graph's long reads a day
 * of a wave under the threshold ending in the current value, so the screenshots show a real chart.
 */
function seriesFor(target: string, from: string | null, value: number) {
  const minutes = Number(/^-(\d+)min$/.exec(from ?? '')?.[1] ?? 1);
  const now = Math.floor(Date.now() / 1000);
  if (minutes <= 30) return makeSeries(target, [value, value, value], now - 10, 10);
  const step = Math.max(60, Math.floor((minutes * 60) / 300));
  const count = Math.floor((minutes * 60) / step);
  return makeSeries(target, Array.from({ length: count }, (_, i) => (i >= count - 3 ? value : Math.round(50 + 20 * Math.sin(i / 12)))), now, step);
}

/** The text of the focused element. */
function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => ((globalThis as any).document.activeElement?.textContent ?? '').trim());
}

/** Presses Tab until the focused element's text is `text` (at most 60 times). */
async function tabTo(page: Page, text: string): Promise<void> {
  for (let i = 0; i < 60; i += 1) {
    await page.keyboard.press('Tab');
    if ((await focusedText(page)) === text) return;
  }
  throw new Error(`Tab never reached "${text}"`);
}

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
