// @ts-check
/** The sign-in form: an API key, checked against the API before it is kept for this tab. */
import { ApiError, api, storeKey } from './api.js';
import { h, replace } from './dom.js';

/**
 * @param {HTMLElement} main
 * @param {() => void} onSignedIn
 */
export function renderSignIn(main, onSignedIn) {
  const input = /** @type {HTMLInputElement} */ (
    h('input', { id: 'api-key', name: 'api-key', type: 'password', autocomplete: 'current-password', required: true, spellcheck: 'false' })
  );
  const error = h('p', { id: 'sign-in-error', class: 'error', role: 'alert' });
  const button = /** @type {HTMLButtonElement} */ (h('button', { type: 'submit' }, 'Sign in'));
  // method=post: should the script ever not run, a browser would not put the key in the URL.
  const form = h(
    'form',
    { class: 'sign-in', method: 'post', action: '/', 'aria-describedby': 'sign-in-help' },
    h('label', { for: 'api-key' }, 'API key'),
    input,
    h('p', { id: 'sign-in-help', class: 'hint' }, 'The key you use with the /v2 API. It is kept in this browser tab only and sent as a header, never in a URL.'),
    button,
    error,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (!key) return;
    button.disabled = true;
    replace(error);
    try {
      await api('/v2/alerts/overview/', { query: { max: 1 }, key });
      storeKey(key);
      input.value = '';
      onSignedIn();
    } catch (caught) {
      replace(error, caught instanceof ApiError && caught.status === 401 ? 'That API key is unknown or revoked.' : `Could not sign in: ${/** @type {Error} */ (caught).message}`);
      input.focus();
    } finally {
      button.disabled = false;
    }
  });
  replace(main, h('h1', { tabindex: '-1' }, 'Sign in to the alertform console'), form);
  input.focus();
}
