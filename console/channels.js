// @ts-check
/** Notification channels with their health, and a test notification for each. */
import { api } from './api.js';
import { h, replace } from './dom.js';
import { formatDuration, formatTime } from './format.js';
import { poll } from './poll.js';

/**
 * @param {HTMLElement} main
 * @returns {() => void}
 */
export function renderChannels(main) {
  const body = h('div');
  const announce = h('p', { role: 'status', class: 'hint' });
  replace(main, h('h1', { tabindex: '-1' }, 'Channels'), announce, body);
  let last = '';
  const loop = poll(load);

  async function load() {
    try {
      /** @type {import('./api-types').Schema<'ChannelRead'>[]} */
      const channels = [];
      for (let page = 1; page <= 10; page += 1) {
        const answer = await api('/v2/notifications/', { query: { page, max: 100 } });
        channels.push(...answer.notifications);
        if (!answer.next_page) break;
      }
      const text = JSON.stringify(channels);
      if (!loop.stopped && text !== last) {
        last = text;
        draw(channels);
      }
    } catch (caught) {
      if (!loop.stopped) replace(body, h('p', { class: 'error' }, `Could not load the channels: ${/** @type {Error} */ (caught).message}`));
    }
  }

  /** @param {import('./api-types').Schema<'ChannelRead'>[]} channels */
  function draw(channels) {
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.key : undefined;
    replace(
      body,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'channels' },
          h('thead', {}, h('tr', {}, ['Channel', 'Type', 'Health', 'Pending', ''].map((c) => (c ? h('th', { scope: 'col' }, c) : h('td', {}))))),
          h(
            'tbody',
            {},
            channels.map((c) =>
              h(
                'tr',
                { 'data-channel-id': c.id },
                h('th', { scope: 'row' }, c.description),
                h('td', {}, c.type),
                h('td', {}, c.last_error ? h('span', { class: 'error' }, `Last error ${formatTime(c.last_error.time)}: ${c.last_error.message}`) : 'OK'),
                h('td', {}, c.pending_deliveries ? `${c.pending_deliveries} waiting, oldest ${formatDuration(/** @type {number} */ (c.oldest_pending_seconds))}` : 'none'),
                h(
                  'td',
                  {},
                  h(
                    'button',
                    {
                      type: 'button',
                      'data-key': `test-${c.id}`,
                      'aria-label': `Send a test notification to ${c.description}`,
                      onclick: async () => {
                        try {
                          await api('/v2/notifications/{id}/test/', { method: 'post', params: { id: c.id } });
                          replace(announce, `A test notification to ${c.description} is on its way; see Deliveries.`);
                        } catch (caught) {
                          replace(announce, `Could not send a test to ${c.description}: ${/** @type {Error} */ (caught).message}`);
                        }
                      },
                    },
                    'Send a test notification',
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
    );
    if (focused) /** @type {HTMLElement | null} */ (body.querySelector(`[data-key="${CSS.escape(focused)}"]`))?.focus();
  }

  void loop.run();
  return loop.stop;
}
