import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumAvailability, chromiumLaunchOptions } from './browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium (fileChromium in file-chromium.ts connects to it); null when Chromium is not here. */
    chromiumEndpoint: string | null;
  }
}

/**
 * Global setup of the browser project: one headless Chromium for the whole run, which each file connects to
 * (fileChromium), instead of a browser per file. Files stay apart by browser context.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (chromiumAvailability().skip) {
    project.provide('chromiumEndpoint', null);
    return undefined;
  }
  const profile = await mkdtemp(join(tmpdir(), 'alertform-chromium-'));
  const server = await chromium.launchServer(chromiumLaunchOptions(profile));
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
    await rm(profile, { recursive: true, force: true });
  };
}
