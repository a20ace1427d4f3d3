/**
 * Screenshots of the console's pages for docs/: `npx tsx scripts/console-screenshots.ts URL` with the demo running
 * (`npm run demo`) and its key in ALERTFORM_DEMO_KEY (default: .alertform-demo/demo-key). Writes
 * docs/console-{overview,alert,channels,deliveries,narrow}.png in Debian's Chromium.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../test/helpers/browser.js';

const url = process.argv[2] ?? 'http://127.0.0.1:8080';
const key = process.env.ALERTFORM_DEMO_KEY ?? readFileSync('.alertform-demo/demo-key', 'utf8').trim();
const out = 'docs';
const chromium = await launchChromium();
try {
  const context = await chromium.browser.newContext({ viewport: { width: 1200, height: 800 } });
  await context.addInitScript((value) => (globalThis as any).sessionStorage.setItem('alertform.apiKey', value), key);
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('tbody tr').first().waitFor();
  await page.screenshot({ path: join(out, 'console-overview.png'), fullPage: true });
  await page.getByRole('link', { name: 'shop-host-disk-full' }).click();
  await page.locator('#graph canvas').first().waitFor();
  await page.locator('#deliveries table').waitFor();
  await page.locator('.backtest-summary').waitFor();
  await page.screenshot({ path: join(out, 'console-alert.png'), fullPage: true });
  await page.getByRole('link', { name: 'Channels' }).click();
  await page.locator('tbody tr').first().waitFor();
  await page.screenshot({ path: join(out, 'console-channels.png'), fullPage: true });
  await page.goto(`${url}/deliveries?state=dead`);
  await page.locator('main table, main p.hint').first().waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(out, 'console-deliveries.png'), fullPage: true });
  await page.setViewportSize({ width: 380, height: 800 });
  await page.goto(url);
  await page.locator('tbody tr').first().waitFor();
  await page.screenshot({ path: join(out, 'console-narrow.png'), fullPage: false });
  process.stdout.write(`screenshots written to ${out}/console-*.png\n`);
} finally {
  await chromium.close();
}
