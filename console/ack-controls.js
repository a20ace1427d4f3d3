// @ts-check
/**
 * Acknowledge an alerting alert (POST /v2/alerts/{id}/ack/) or withdraw the acknowledgement (DELETE). API keys belong
 * to accounts, not people, so the console asks who is acknowledging: once, then remembers the name in localStorage
 * (this browser only; it is not a secret).
 */
import { api } from './api.js';
import { h, replace } from './dom.js';
import { formatTime } from './format.js';

const NAME_KEY = 'alertform.ackName';

/**
 * @param {string} alertId
 * @param {(message: string) => void} onChanged called after an acknowledgement or a withdrawal, with what happened
 * @returns {{ element: HTMLElement, update: (alert: import('./api-types').Schema<'AlertRead'>) => void }}
 */
export function ackControls(alertId, onChanged) {
  const status = h('p', { class: 'ack-status' });
  const error = h('p', { class: 'error', role: 'alert' });
  const name = /** @type {HTMLInputElement} */ (h('input', { id: 'ack-name', name: 'name', autocomplete: 'name', maxlength: '200', required: true, value: localStorage.getItem(NAME_KEY) ?? '' }));
  const note = /** @type {HTMLInputElement} */ (h('input', { id: 'ack-note', name: 'note', maxlength: '2000' }));
  const acknowledge = /** @type {HTMLButtonElement} */ (h('button', { type: 'submit' }, 'Acknowledge'));
  const withdraw = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', onclick: () => void run('DELETE') }, 'Withdraw acknowledgement'));
  const nameField = h('div', { class: 'field' }, h('label', { for: 'ack-name' }, 'Your name'), name);

  /** @param {'POST' | 'DELETE'} method */
  async function run(method) {
    replace(error);
    const who = name.value.trim();
    if (!who) {
      replace(error, 'Enter your name: the channels and the history say who acknowledged.');
      nameField.hidden = false;
      name.focus();
      return;
    }
    localStorage.setItem(NAME_KEY, who);
    const params = { id: alertId };
    try {
      if (method === 'POST') await api('/v2/alerts/{id}/ack/', { method: 'post', params, body: { by: who, ...(note.value.trim() ? { note: note.value.trim() } : {}) } });
      else await api('/v2/alerts/{id}/ack/', { method: 'delete', params, query: { by: who } });
      note.value = '';
      onChanged(method === 'POST' ? `Acknowledged as ${who}.` : 'Acknowledgement withdrawn.');
    } catch (caught) {
      replace(error, `Could not ${method === 'POST' ? 'acknowledge' : 'withdraw'}: ${/** @type {Error} */ (caught).message}`);
    }
  }

  const form = h(
    'form',
    { class: 'actions', 'aria-label': 'Acknowledge' },
    nameField,
    h('div', { class: 'field' }, h('label', { for: 'ack-note' }, 'Note (optional)'), note),
    acknowledge,
    withdraw,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run('POST');
  });
  // Asked once: a remembered name is not asked again (an empty submit shows the field).
  nameField.hidden = Boolean(name.value);

  return {
    element: h('div', { class: 'ack-controls' }, status, form, error),
    update(alert) {
      const ack = alert.acknowledgement ?? null;
      if (ack) {
        const until = ack.until === null ? 'until it recovers' : `until ${formatTime(ack.until)} or it recovers`;
        replace(status, `Acknowledged by ${ack.by} at ${formatTime(ack.at)}, ${until}${ack.note ? `: ${ack.note}` : ''}. No reminders or escalations meanwhile.`);
      } else if (alert.acknowledgement === undefined) replace(status, 'This server has no acknowledgements.');
      else replace(status, alert.status === 'alerting' ? 'Not acknowledged.' : 'Not alerting: nothing to acknowledge.');
      acknowledge.disabled = alert.status !== 'alerting' || alert.acknowledgement === undefined;
      withdraw.hidden = !ack;
    },
  };
}
