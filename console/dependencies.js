// @ts-check
/**
 * What holds an alert back: the alerts it depends on (its `depends_on`), whether one of them is alerting now (then
 * this alert's new notifications are held), and the last `held` entry of its history, which names the parent.
 */
import { ApiError, api } from './api.js';
import { badge, h, link } from './dom.js';
import { formatTime } from './format.js';

/**
 * The dependency notice of an alert as read, or null when it depends on nothing (or the server has no dependencies).
 * @param {any} alert
 * @param {any[]} entries its timeline, newest first
 * @returns {Promise<HTMLElement | null>}
 */
export async function dependencyNotice(alert, entries) {
  /** @type {{ alert: string, nodes?: number[], parent_nodes?: number[] }[]} */
  const edges = Array.isArray(alert.depends_on) ? alert.depends_on : [];
  if (edges.length === 0) return null;
  const parents = await Promise.all(
    edges.map(async (edge) => {
      try {
        return { edge, parent: await api('/v2/alerts/{id}/', { params: { id: edge.alert } }) };
      } catch (caught) {
        if (caught instanceof ApiError && caught.status === 404) return { edge, parent: null };
        throw caught;
      }
    }),
  );
  const stateOf = (/** @type {any} */ parent) => parent.state ?? (parent.status === 'alerting' ? 'alerting' : 'healthy');
  const alerting = parents.filter(({ parent }) => parent && stateOf(parent) === 'alerting');
  const held = entries.find((entry) => entry.kind === 'held') ?? null;
  return h(
    'div',
    { class: alerting.length ? 'notice notice-held' : 'dependencies', id: 'dependency-notice' },
    alerting.length
      ? h(
          'p',
          { class: 'held-now' },
          h('strong', {}, 'Held back: '),
          'new notifications of this alert wait while ',
          alerting.map(({ parent }, i) => [i > 0 ? ' and ' : '', parent ? link(`/alerts/${encodeURIComponent(parent.id)}`, parent.name) : null]),
          alerting.length === 1 ? ', which it depends on, is alerting.' : ', which it depends on, are alerting.',
        )
      : null,
    h(
      'p',
      {},
      'Depends on: ',
      parents.map(({ edge, parent }, i) => [
        i > 0 ? ', ' : '',
        parent ? link(`/alerts/${encodeURIComponent(parent.id)}`, parent.name) : `${edge.alert} (gone)`,
        parent ? [' ', badge(stateOf(parent))] : null,
        edge.nodes ? ` (where this alert's node ${edge.nodes.join('.')} is its node ${(edge.parent_nodes ?? edge.nodes).join('.')})` : null,
      ]),
    ),
    held ? h('p', { class: 'hint', id: 'last-held' }, `Last held ${formatTime(held.time)}${held.metric ? ` (${held.metric})` : ''}: ${held.reason ?? 'a dependency was alerting'}.`) : null,
  );
}
