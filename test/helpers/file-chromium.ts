import { chromium } from 'playwright-core';
import { inject } from 'vitest';
import { launchChromium, type FileBrowser } from './browser.js';

/**
 * The run's one Chromium for this file (chromium-global-setup.ts), connected to: the file's pages live in browser
 * contexts of its own, each with its own cookies and storage, and `close()` ends them and the connection. Starting
 * a browser costs sixteen processes and 2.6 core-seconds, once a run rather than once a file. Without the run's
 * browser (a file run outside this repository's vitest config), a browser of the file's own.
 */
export async function fileChromium(): Promise<FileBrowser> {
  const endpoint = inject('chromiumEndpoint');
  if (!endpoint) return launchChromium();
  const browser = await chromium.connect(endpoint);
  return { browser, close: () => browser.close() };
}
