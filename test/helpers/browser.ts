import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type LaunchOptions, type Page } from 'playwright-core';
import { hasFile, systemPart } from './system.js';

/** Debian's Chromium (apt-get install chromium): no browser is downloaded anywhere. */
export const CHROMIUM = '/usr/bin/chromium';

/** Where browser tests write their screenshots (gitignored; CI keeps the folder as its artifacts). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/console/', import.meta.url));

export function chromiumAvailability(): { skip: boolean; reason: string } {
  return systemPart('chromium', hasFile(CHROMIUM));
}

/** The flags of every Chromium the tests start: no network services of its own (no sync, no updates, no QUIC). */
export function chromiumLaunchOptions(profile: string): LaunchOptions {
  return {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disk-cache-dir=${join(profile, 'cache')}`,
    ],
    env: { ...process.env, HOME: profile, XDG_CONFIG_HOME: profile, XDG_CACHE_HOME: profile },
  };
}

/** A browser for a test file, and the way to let go of it. */
export interface FileBrowser {
  browser: Browser;
  close: () => Promise<void>;
}

/**
 * Headless Chromium from Debian with a fresh profile directory (removed on close), driven by playwright-core. Test
 * files take the run's shared browser through `fileChromium()` (file-chromium.ts); a benchmark starts its own here.
 */
export async function launchChromium(): Promise<FileBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'alertform-chromium-'));
  const browser = await chromium.launch(chromiumLaunchOptions(profile));
  return {
    browser,
    close: async () => {
      await browser.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations on the page (WCAG 2.1 A and AA rules). Evaluated through the DevTools protocol, which the page's CSP does not govern. */
export async function axeViolations(page: Page): Promise<{ id: string; help: string; nodes: string[] }[]> {
  await page.evaluate(await axeSource);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n: { target: string[] }) => n.target.join(' ')) }));
  });
}

/** Writes a full-page screenshot to the artifacts folder; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
