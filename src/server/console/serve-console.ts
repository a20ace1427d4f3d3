import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Next } from 'koa';

/** The console's own files: console/ at the package root (src/ and dist/ are both two levels below it). */
const CONSOLE_DIR = fileURLToPath(new URL('../../../console/', import.meta.url));
const require = createRequire(import.meta.url);

/**
 * Only files from this origin; no inline script or style, no eval, no plugins, no framing, no forms elsewhere.
 * uPlot sizes its canvas through the CSSOM (element.style), which style-src does not govern.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The client-side routes: each is answered with the index page, whose script draws the route. */
const PAGE_ROUTES = [/^\/$/, /^\/alerts\/[^/]+\/?$/, /^\/channels\/?$/, /^\/deliveries\/?$/, /^\/windows\/?$/];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** The console's assets by URL path, read once: its own files and the charting library from node_modules. */
function loadAssets(): Map<string, { type: string; body: Buffer }> {
  const files: Record<string, string> = {
    '/console/vendor/uplot.esm.js': require.resolve('uplot/dist/uPlot.esm.js'),
    '/console/vendor/uplot.min.css': require.resolve('uplot/dist/uPlot.min.css'),
  };
  for (const name of CONSOLE_FILES) files[`/console/${name}`] = join(CONSOLE_DIR, name);
  const assets = new Map<string, { type: string; body: Buffer }>();
  for (const [path, file] of Object.entries(files)) assets.set(path, { type: TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(file) });
  return assets;
}

/** Every file of console/ the server serves (a list, so nothing else in that folder is ever reachable). */
export const CONSOLE_FILES = [
  'index.html',
  'app.css',
  'app.js',
  'api.js',
  'dom.js',
  'format.js',
  'graph.js',
  'sign-in.js',
  'overview.js',
  'alert-page.js',
  'mute-controls.js',
  'ack-controls.js',
  'channels.js',
  'deliveries.js',
  'poll.js',
  'windows.js',
  'dependencies.js',
  'overview-groups.js',
];

/**
 * Serves the web console: GET/HEAD of its page routes and of /console/* assets, with a strict
 * Content-Security-Policy. The page holds no data: everything comes from the /v2 API with the API key the user
 * typed, so nothing here needs authentication.
 */
export function serveConsole() {
  let assets: Map<string, { type: string; body: Buffer }> | undefined;
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const path = PAGE_ROUTES.some((route) => route.test(ctx.path)) ? '/console/index.html' : ctx.path;
    if (!path.startsWith('/console/')) return next();
    assets ??= loadAssets();
    const asset = assets.get(path);
    if (!asset) return next();
    ctx.set('Content-Security-Policy', CONSOLE_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = asset.type;
    ctx.body = asset.body;
  };
}
