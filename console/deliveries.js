// @ts-check
/** Deliveries (the outbox): where each notification is, and "retry" for the dead-lettered ones. */
import { ApiError, api } from './api.js';
import { badge, h, link, replace } from './dom.js';
import { formatAgo, formatTime } from './format.js';
import { poll } from './poll.js';

const FILTERS = [
  ['dead', 'Dead-lettered'],
  ['pending', 'Pending'],
  ['delivered', 'Delivered'],
  ['held', 'Held by a throttle'],
  ['summarized', 'In a throttle summary'],
];

/**
 * A table of deliveries; `onRetried` runs after a successful retry.
 * @param {import('./api-types').Schema<'DeliveryRead'>[]} deliveries
 * @param {() => void} onRetried
 * @param {boolean} showAlert whether to show the alert's name (the page of all deliveries)
 */
export function deliveryTable(deliveries, onRetried, showAlert) {
  if (deliveries.length === 0) return h('p', { class: 'hint' }, 'No deliveries.');
  const error = h('p', { class: 'error', role: 'alert' });
  const columns = ['Created', ...(showAlert ? ['Alert'] : []), 'Event', 'Channel', 'State', 'Attempts', 'Next attempt / last error', ''];
  return h(
    'div',
    { class: 'table-wrap' },
    error,
    h(
      'table',
      { class: 'deliveries' },
      h('thead', {}, h('tr', {}, columns.map((c) => (c ? h('th', { scope: 'col' }, c) : h('td', {}))))),
      h(
        'tbody',
        {},
        deliveries.map((d) =>
          h(
            'tr',
            { 'data-delivery-id': d.id, 'data-state': d.state },
            h('td', {}, h('time', { datetime: new Date(Number(d.created_at) * 1000).toISOString(), title: formatAgo(d.created_at) }, formatTime(d.created_at))),
            showAlert ? h('td', {}, link(`/alerts/${encodeURIComponent(d.alert.id)}`, d.alert.name)) : null,
            h('td', {}, d.event.replace('_', ' ')),
            h('td', {}, `${d.channel.description} (${d.channel.type})`),
            h('td', {}, badge(d.state === 'pending' && d.attempts > 0 ? 'pending' : d.state), d.state === 'pending' && d.attempts > 0 ? ' retrying' : null),
            h('td', {}, d.attempts),
            h(
              'td',
              {},
              d.state === 'pending' && d.next_attempt_at ? `next ${formatTime(d.next_attempt_at)}` : null,
              // A throttle's held notification waits for its window's summary.
              d.state === 'held' && d.next_attempt_at ? `in the summary at ${formatTime(d.next_attempt_at)}` : null,
              d.last_error ? h('div', { class: 'error' }, d.last_error) : null,
            ),
            h(
              'td',
              {},
              d.state === 'dead'
                ? h(
                    'button',
                    {
                      type: 'button',
                      'aria-label': `Retry the ${d.event.replace('_', ' ')} notification to ${d.channel.description}`,
                      onclick: async (/** @type {Event} */ event) => {
                        const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
                        button.disabled = true;
                        try {
                          await api('/v2/deliveries/{id}/retry/', { method: 'post', params: { id: d.id } });
                          onRetried();
                        } catch (caught) {
                          button.disabled = false;
                          replace(error, `Could not retry: ${/** @type {Error} */ (caught).message}`);
                        }
                      },
                    },
                    'Retry',
                  )
                : null,
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * @param {HTMLElement} main
 * @returns {() => void}
 */
export function renderDeliveries(main) {
  let state = new URLSearchParams(location.search).get('state') ?? 'dead';
  const filters = h('div', { class: 'ranges', role: 'group', 'aria-label': 'Show deliveries' });
  const body = h('div');
  replace(main, h('h1', { tabindex: '-1' }, 'Deliveries'), h('p', { class: 'hint' }, 'Notifications in the outbox: dead-lettered ones can be sent again.'), filters, body);
  let last = '';
  const loop = poll(load);

  async function load() {
    replace(filters, FILTERS.map(([value, label]) => h('button', { type: 'button', 'aria-pressed': String(value === state), onclick: () => setState(/** @type {string} */ (value)) }, label)));
    try {
      const answer = await api('/v2/deliveries/', { query: { state, max: 100 } });
      const text = JSON.stringify(answer);
      if (!loop.stopped && text !== last) {
        last = text;
        replace(body, deliveryTable(answer.deliveries, () => void loop.run(), true));
      }
    } catch (caught) {
      if (!loop.stopped) replace(body, h('p', { class: 'error' }, caught instanceof ApiError ? caught.message : String(caught)));
    }
  }
  /** @param {string} next */
  function setState(next) {
    state = next;
    last = '';
    history.replaceState(null, '', `/deliveries?state=${next}`);
    void loop.run();
  }
  void loop.run();
  return loop.stop;
}
