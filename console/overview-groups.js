// @ts-check
/** The overview grouped by path nodes (GET /v2/alerts/overview/groups/): one row per group, a count per state. */
import { h } from './dom.js';

const COLUMNS = [
  ['total', 'Alerts'],
  ['alerting', 'Alerting'],
  ['query_failing', 'Query failing'],
  ['no_data', 'No data'],
  ['not_evaluated', 'Not evaluated'],
  ['healthy', 'Healthy'],
  ['muted', 'Muted'],
];

/**
 * The groups' table; a group's key lists its alerts (a search for the key) through `onPick`.
 * @param {any} body the endpoint's answer
 * @param {(key: string) => void} onPick
 * @returns {HTMLElement}
 */
export function groupsTable(body, onPick) {
  if (body.groups.length === 0) return h('p', { class: 'empty' }, 'No alerts to group.');
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'groups' },
      h('caption', { class: 'visually-hidden' }, `Alerts grouped by path nodes ${body.nodes.join(', ')}`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, `Nodes ${body.nodes.join('.')}`), COLUMNS.map(([, label]) => h('th', { scope: 'col' }, label)))),
      h(
        'tbody',
        {},
        body.groups.map((/** @type {any} */ group) =>
          h(
            'tr',
            { 'data-group': group.key },
            h('th', { scope: 'row' }, h('button', { type: 'button', class: 'link-button', 'data-key': `group-${group.key}`, onclick: () => onPick(group.key) }, group.key || '(none)')),
            COLUMNS.map(([key]) => {
              const count = group.counts[/** @type {string} */ (key)] ?? 0;
              return h('td', { class: count && key !== 'total' && key !== 'healthy' ? `count-cell count-${key}` : 'count-cell' }, count);
            }),
          ),
        ),
      ),
    ),
    body.group_count > body.groups.length ? h('p', { class: 'hint' }, `The ${body.groups.length} busiest of ${body.group_count} groups.`) : null,
  );
}
