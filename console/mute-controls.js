// @ts-check
/** Mute and unmute an alert with the Hosted Graphite UI's durations or a custom one (POST/DELETE /v2/alerts/{id}/muted/). */
import { api } from './api.js';
import { h, replace } from './dom.js';
import { formatDuration } from './format.js';

/** The Hosted Graphite UI's mute durations, in minutes. */
const PRESETS = [
  ['30 min', 30],
  ['6 h', 360],
  ['1 day', 1440],
  ['1 week', 10080],
];
const UNITS = [
  ['minutes', 1],
  ['hours', 60],
  ['days', 1440],
];

/**
 * @param {string} alertId
 * @param {(message: string) => void} onChanged called after a mute or unmute, with what happened
 * @returns {{ element: HTMLElement, update: (status: import('./api-types').Schema<'MuteStatus'>) => void }}
 */
export function muteControls(alertId, onChanged) {
  const status = h('p', { class: 'mute-status' });
  const error = h('p', { class: 'error', role: 'alert' });
  const amount = /** @type {HTMLInputElement} */ (h('input', { id: 'mute-amount', type: 'number', min: '1', step: '1', value: '2', inputmode: 'numeric' }));
  const unit = /** @type {HTMLSelectElement} */ (h('select', { id: 'mute-unit', 'aria-label': 'Unit' }, UNITS.map(([label, minutes]) => h('option', { value: String(minutes), selected: label === 'hours' }, label))));
  const unmute = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', onclick: () => run('DELETE') }, 'Unmute'));

  /**
   * @param {'POST' | 'DELETE'} method
   * @param {number} [minutes]
   */
  async function run(method, minutes) {
    replace(error);
    try {
      const params = { id: alertId };
      if (method === 'POST') await api('/v2/alerts/{id}/muted/', { method: 'post', params, body: { duration: /** @type {number} */ (minutes) } });
      else await api('/v2/alerts/{id}/muted/', { method: 'delete', params });
      onChanged(method === 'POST' ? `Muted for ${formatDuration(/** @type {number} */ (minutes) * 60)}.` : 'Unmuted.');
    } catch (caught) {
      replace(error, `Could not ${method === 'POST' ? 'mute' : 'unmute'}: ${/** @type {Error} */ (caught).message}`);
    }
  }

  const custom = h(
    'form',
    { class: 'actions', 'aria-label': 'Mute for a chosen time' },
    h('div', { class: 'field' }, h('label', { for: 'mute-amount' }, 'Custom duration'), amount),
    unit,
    h('button', { type: 'submit' }, 'Mute'),
  );
  custom.addEventListener('submit', (event) => {
    event.preventDefault();
    const minutes = Math.round(Number(amount.value) * Number(unit.value));
    if (!Number.isFinite(minutes) || minutes < 1) {
      replace(error, 'Enter a whole number of at least 1.');
      return;
    }
    void run('POST', minutes);
  });

  const element = h(
    'div',
    { class: 'mute-controls' },
    status,
    h('div', { class: 'actions', role: 'group', 'aria-label': 'Mute for' }, PRESETS.map(([label, minutes]) => h('button', { type: 'button', onclick: () => run('POST', /** @type {number} */ (minutes)) }, `Mute ${label}`)), unmute),
    custom,
    error,
  );
  return {
    element,
    update(mute) {
      replace(status, mute.muted ? `Muted for ${formatDuration(mute.duration * 60)} more (until ${new Date(Date.now() + mute.duration * 60_000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}).` : 'Not muted by hand.');
      unmute.disabled = !mute.muted;
    },
  };
}
