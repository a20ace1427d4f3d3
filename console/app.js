// @ts-check
/** The console's shell: sign-in gate, client-side routes, navigation without reloads. */
import { forgetKey, storedKey } from './api.js';
import { h, replace } from './dom.js';
import { renderSignIn } from './sign-in.js';
import { renderOverview } from './overview.js';

/**
 * @typedef {(main: HTMLElement, params: string[]) => (void | (() => void))} View
 * A view draws into main and may return its cleanup (stop polling, destroy charts).
 */

/**
 * The routes; the overview (the first page most visits see) is loaded with the shell, the other views (and the
 * charting library behind the alert page) when first opened.
 * @type {[RegExp, () => Promise<View>][]}
 */
const ROUTES = [
  [/^\/$/, async () => renderOverview],
  [/^\/alerts\/([^/]+)\/?$/, async () => (await import('./alert-page.js')).renderAlertPage],
  [/^\/channels\/?$/, async () => (await import('./channels.js')).renderChannels],
  [/^\/deliveries\/?$/, async () => (await import('./deliveries.js')).renderDeliveries],
  [/^\/windows\/?$/, async () => (await import('./windows.js')).renderWindows],
];

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const nav = /** @type {HTMLElement} */ (document.getElementById('nav'));
/** @type {(() => void) | void} */
let cleanup;
/** Counts renders, so that a view still loading when the user moves on is not drawn. */
let renders = 0;

/** Draws the current location: the sign-in form without a key, else the route's view. */
async function render(focus = false) {
  const current = ++renders;
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
  const signedIn = storedKey() !== null;
  nav.hidden = !signedIn;
  if (!signedIn) {
    renderSignIn(main, () => void render(true));
    return;
  }
  for (const link of nav.querySelectorAll('a')) {
    if (link.getAttribute('href') === location.pathname) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const route = ROUTES.find(([pattern]) => pattern.test(location.pathname));
  if (!route) {
    replace(main, h('h1', { tabindex: '-1' }, 'Not found'), h('p', {}, 'There is no such page in the console.'));
  } else {
    const match = /** @type {RegExpExecArray} */ (route[0].exec(location.pathname));
    const view = await route[1]();
    if (current !== renders) return;
    cleanup = view(main, match.slice(1).map(decodeURIComponent));
  }
  // After a navigation, keyboard and screen-reader users start at the new page's heading.
  if (focus) main.querySelector('h1')?.focus();
}

/**
 * Goes to a console path without a reload.
 * @param {string} href
 */
export function navigate(href) {
  history.pushState(null, '', href);
  void render(true);
}

document.addEventListener('click', (event) => {
  const target = /** @type {Element | null} */ (event.target instanceof Element ? event.target.closest('a[data-link]') : null);
  if (!target || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(/** @type {string} */ (target.getAttribute('href')));
});
window.addEventListener('popstate', () => void render(true));
window.addEventListener('alertform:signed-out', () => void render(true));
document.getElementById('sign-out')?.addEventListener('click', () => {
  forgetKey();
  void render(true);
});

void render();
