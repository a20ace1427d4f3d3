// @ts-check
/**
 * The alerts overview: counts per state, filter, search, sort and one page of alerts from GET /v2/alerts/overview/
 * (the server pages, filters and sorts, so 10,000 alerts cost one page). It polls every few seconds and redraws
 * only what changed, keeping the keyboard focus where it was.
 */
import { api } from './api.js';
import { badge, h, link, replace } from './dom.js';
import { formatAgo, formatTime } from './format.js';
import { poll, POLL_MS } from './poll.js';
import { groupsTable } from './overview-groups.js';

const PAGE_SIZE = 50;
const STATES = [
  ['', 'All', 'total'],
  ['alerting', 'Alerting', 'alerting'],
  ['query_failing', 'Query failing', 'query_failing'],
  ['no_data', 'No data', 'no_data'],
  ['not_evaluated', 'Not evaluated', 'not_evaluated'],
  ['healthy', 'Healthy', 'healthy'],
  ['muted', 'Muted', 'muted'],
];
const SORTS = [
  ['state', 'State (alerting first)'],
  ['name', 'Name (A–Z)'],
  ['-name', 'Name (Z–A)'],
  ['metric', 'Metric'],
];

/**
 * @param {HTMLElement} main
 * @returns {() => void}
 */
export function renderOverview(main) {
  const params = new URLSearchParams(location.search);
  const view = {
    state: params.get('state') ?? '',
    search: params.get('search') ?? '',
    sort: params.get('sort') ?? 'state',
    page: Math.max(1, Number(params.get('page')) || 1),
    /** Path node indexes to group by ("1" or "1,2"); empty: the list of alerts. */
    group: params.get('group') ?? '',
  };
  const counts = h('div', { class: 'counts', role: 'group', 'aria-label': 'Filter by state' });
  const searchInput = /** @type {HTMLInputElement} */ (h('input', { id: 'alert-search', type: 'search', value: view.search, autocomplete: 'off' }));
  const sortSelect = /** @type {HTMLSelectElement} */ (
    h('select', { id: 'alert-sort' }, SORTS.map(([value, label]) => h('option', { value, selected: value === view.sort }, label)))
  );
  const groupInput = /** @type {HTMLInputElement} */ (
    h('input', { id: 'alert-group', type: 'text', inputmode: 'numeric', value: view.group, autocomplete: 'off', placeholder: 'e.g. 1 or 1,2', 'aria-describedby': 'alert-group-hint' })
  );
  const table = h('div', { class: 'table-wrap' });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages' });
  const updated = h('p', { class: 'hint', id: 'overview-updated' });
  const error = h('p', { class: 'error', role: 'alert' });
  replace(
    main,
    h('h1', { tabindex: '-1' }, 'Alerts'),
    counts,
    h(
      'div',
      { class: 'toolbar' },
      h('div', { class: 'field' }, h('label', { for: 'alert-search' }, 'Search name or metric'), searchInput),
      h('div', { class: 'field' }, h('label', { for: 'alert-sort' }, 'Sort by'), sortSelect),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'alert-group' }, 'Group by path nodes'),
        groupInput,
        h('span', { class: 'hint', id: 'alert-group-hint' }, 'node indexes from 0: 1 groups servers.dc1.web3.cpu by dc1'),
      ),
    ),
    error,
    table,
    pager,
    updated,
  );

  let last = '';
  const loop = poll(load);
  let searchTimer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);

  async function load() {
    // The filter lives in the address (not a secret), so a reload or a shared link shows the same list.
    const shown = new URLSearchParams();
    if (view.state) shown.set('state', view.state);
    if (view.search) shown.set('search', view.search);
    if (view.sort !== 'state') shown.set('sort', view.sort);
    if (view.page !== 1) shown.set('page', String(view.page));
    if (view.group) shown.set('group', view.group);
    const search = shown.toString();
    if (location.search !== (search ? `?${search}` : '')) history.replaceState(null, '', `/${search ? `?${search}` : ''}`);
    try {
      const body = await api('/v2/alerts/overview/', { query: { state: view.state, search: view.search, sort: view.sort, page: view.page, max: PAGE_SIZE } });
      const groups = view.group ? await api('/v2/alerts/overview/groups/', { query: { nodes: view.group } }) : null;
      if (loop.stopped) return;
      replace(error);
      const text = JSON.stringify([body, groups]);
      if (text !== last) {
        last = text;
        draw(body);
        if (groups) {
          replace(table, groupsTable(groups, pickGroup));
          pager.hidden = true;
        } else pager.hidden = false;
      }
      replace(updated, `Updated ${new Date().toLocaleTimeString()}; refreshes every ${POLL_MS / 1000} s.`);
    } catch (caught) {
      if (loop.stopped) return;
      replace(error, `Could not load the alerts: ${/** @type {Error} */ (caught).message}`);
    }
  }

  /** @param {import('./api-types').Schema<'AlertOverview'>} body */
  function draw(body) {
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.key : undefined;
    replace(
      counts,
      STATES.map(([state, label, key]) =>
        h(
          'button',
          { type: 'button', class: `count count-${key}`, 'aria-pressed': String(view.state === state), 'data-key': `count-${key}`, onclick: () => setState(state ?? '') },
          h('span', { class: 'count-number' }, body.counts[/** @type {keyof typeof body.counts} */ (key)] ?? 0),
          h('span', { class: 'count-label' }, label),
        ),
      ),
    );
    if (body.alerts.length === 0) {
      replace(table, h('p', { class: 'empty' }, body.counts.total === 0 ? 'No alerts yet: create some with alertform apply or the /v2 API.' : 'No alert matches.'));
    } else {
      replace(
        table,
        h(
          'table',
          { class: 'alerts' },
          h('caption', { class: 'visually-hidden' }, `Alerts, ${body.matching} matching`),
          h(
            'thead',
            {},
            h('tr', {}, ['Name', 'State', 'Since', 'Triggered metrics', 'Channels'].map((label) => h('th', { scope: 'col' }, label))),
          ),
          h('tbody', {}, body.alerts.map(row)),
        ),
      );
    }
    const from = body.matching === 0 ? 0 : (body.page - 1) * body.max + 1;
    const to = Math.min(body.page * body.max, body.matching);
    replace(
      pager,
      h('button', { type: 'button', disabled: body.page <= 1, 'data-key': 'prev', onclick: () => setPage(view.page - 1) }, 'Previous'),
      h('span', { class: 'pager-status' }, `${from}–${to} of ${body.matching}`),
      h('button', { type: 'button', disabled: !body.next_page, 'data-key': 'next', onclick: () => setPage(view.page + 1) }, 'Next'),
    );
    if (focused) /** @type {HTMLElement | null} */ (main.querySelector(`[data-key="${CSS.escape(focused)}"]`))?.focus();
  }

  /** @param {import('./api-types').Schema<'AlertOverview'>['alerts'][number]} alert */
  function row(alert) {
    const name = link(`/alerts/${encodeURIComponent(alert.id)}`, alert.name);
    name.dataset.key = `alert-${alert.id}`;
    const since =
      alert.muted && alert.muted_until
        ? h('span', { title: formatTime(alert.muted_until) }, `until ${formatTime(alert.muted_until)}`)
        : alert.since
          ? h('time', { datetime: new Date(alert.since * 1000).toISOString(), title: formatTime(alert.since) }, formatAgo(alert.since))
          : '—';
    return h(
      'tr',
      { 'data-alert-id': alert.id },
      h('th', { scope: 'row' }, name, h('div', { class: 'metric' }, alert.metric)),
      h(
        'td',
        {},
        badge(alert.state),
        alert.muted ? badge('muted') : null,
        alert.acknowledgement ? h('div', { class: 'hint ack-badge' }, `acknowledged by ${alert.acknowledgement.by}`) : null,
      ),
      h('td', {}, since),
      h('td', {}, alert.currently_triggered_metrics.length ? h('ul', { class: 'plain' }, alert.currently_triggered_metrics.map((/** @type {string} */ m) => h('li', {}, m))) : '—'),
      h('td', {}, alert.channels.length ? h('ul', { class: 'plain' }, alert.channels.map((c) => h('li', {}, `${c.description} (${c.type})`))) : '—'),
    );
  }

  /**
   * The alerts of one group: the list, searched for the group's key.
   * @param {string} key
   */
  function pickGroup(key) {
    view.group = '';
    groupInput.value = '';
    view.search = key;
    searchInput.value = key;
    view.page = 1;
    void load();
  }
  groupInput.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      const value = groupInput.value.replace(/\s+/g, '');
      if (value !== '' && !/^\d+(,\d+)*$/.test(value)) return replace(error, 'Group by: node indexes such as 1 or 1,2.');
      view.group = value;
      view.page = 1;
      void load();
    }, 250);
  });

  /** @param {string} state */
  function setState(state) {
    view.state = state;
    view.page = 1;
    void loop.run();
  }
  /** @param {number} page */
  function setPage(page) {
    view.page = Math.max(1, page);
    void loop.run();
  }
  searchInput.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      view.search = searchInput.value.trim();
      view.page = 1;
      void loop.run();
    }, 250);
  });
  sortSelect.addEventListener('change', () => {
    view.sort = sortSelect.value;
    view.page = 1;
    void loop.run();
  });

  void loop.run();
  return () => {
    loop.stop();
    clearTimeout(searchTimer);
  };
}
