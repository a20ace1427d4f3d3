import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, chromiumAvailability, screenshot } from '../helpers/browser.js';
import { fileChromium } from '../helpers/file-chromium.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { WEEKDAYS_BY_UTC_DAY } from '../../src/model/types.js';

const availability = chromiumAvailability();
const KEY = 'console-window-next-key-0123456789ab';
/**
 * The weekly window's day: two days after today (UTC), never today in Berlin, so its next occurrence is ahead
 * whenever the test runs (on its own day, between 03:00 and 04:30 there, the occurrence would be the one muting now).
 */
const WEEKLY_DAY = (new Date().getUTCDay() + 2) % 7;

// The windows page in Debian's Chromium against the real server: each window's next occurrence (or the one muting
// now), as the server computes it by the window's own clock, shown in the browser's time.
describe.skipIf(availability.skip)("a maintenance window's next occurrence in the web console", () => {
  let server: TestServer;
  let chromium: Awaited<ReturnType<typeof fileChromium>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ keys: [KEY] });
    const made = [
      { name: 'weekly patching', match: { alert_names: ['web*'] }, start_time: '03:00', repeat: [WEEKDAYS_BY_UTC_DAY[WEEKLY_DAY]], timezone: 'Europe/Berlin', duration: 90 },
      { name: 'right now', match: { alert_names: ['db*'] }, starts_at: new Date(Date.now() - 10 * 60_000).toISOString(), duration: 60 },
      { name: 'last year', match: { alert_names: ['old*'] }, starts_at: '2025-01-01T00:00:00Z', duration: 60 },
    ];
    for (const window of made) expect((await server.request('POST', '/v2/maintenance_windows/', window)).status).toBe(201);
    chromium = await fileChromium();
    browser = chromium.browser;
    // A browser in another zone than the windows': the page shows the server's instants in the browser's time.
    page = await (await browser.newContext({ viewport: { width: 1280, height: 700 }, timezoneId: 'America/New_York', locale: 'en-US' })).newPage();
    await page.goto(server.url);
    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  it("lists when each window mutes next, from the API's next_occurrence", async () => {
    const listed = (await server.request('GET', '/v2/maintenance_windows/')).body.maintenance_windows as Array<{ name: string; next_occurrence: { starts_at: string; ends_at: string; active: boolean } | null }>;
    const next = Object.fromEntries(listed.map((window) => [window.name, window.next_occurrence]));
    // 03:00 in Berlin on the window's day: 02:00 UTC in winter, 01:00 in summer.
    const weekly = new Date(next['weekly patching']!.starts_at);
    expect(weekly.getUTCDay()).toBe(WEEKLY_DAY);
    expect([1, 2]).toContain(weekly.getUTCHours());
    expect(weekly.getTime()).toBeGreaterThan(Date.now());
    expect(weekly.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
    expect(next['right now']).toMatchObject({ active: true });
    expect(next['last year']).toBeNull();

    await page.getByRole('link', { name: 'Windows' }).click();
    await page.getByRole('heading', { name: 'Maintenance windows' }).waitFor();
    const cell = (name: string) => page.locator('tr', { has: page.getByRole('rowheader', { name }) }).locator('td.next-occurrence');
    await cell('weekly patching').waitFor();
    // In New York's time, as the browser would say it.
    const expected = await page.evaluate(
      (iso) => new Date(iso).toLocaleString(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }),
      next['weekly patching']!.starts_at,
    );
    expect(await cell('weekly patching').textContent()).toMatch(new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(in \\d+ (h|d|min)`));
    // 20:00-22:00 of the day before in New York.
    const dayBefore = WEEKDAYS_BY_UTC_DAY[(WEEKLY_DAY + 6) % 7]!;
    expect(expected.slice(0, 3).toLowerCase()).toBe(dayBefore);
    expect(await cell('right now').textContent()).toMatch(/^now, until /);
    expect(await cell('last year').textContent()).toBe('—');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'windows-next-occurrence');
  });
});
