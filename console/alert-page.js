// @ts-check
/**
 * One alert: its state and actions, the graph of each criterion, the backtest, the history timeline (with the
 * notifications that were suppressed and why), its deliveries and its YAML definition. Each section loads on its
 * own, so one failing endpoint leaves the others readable; state, timeline and deliveries refresh every few seconds.
 */
import { ApiError, api } from './api.js';
import { badge, h, link, replace } from './dom.js';

/** How the server judges the alert (its `evaluated_by`), and what that means. */
const EVALUATED_BY = { stream: 'on the metric stream, as its data arrives', render: 'by polling Graphite every interval' };
const EVALUATED_BY_HINTS = {
  stream: 'Judged when a 30 s bucket of its data is complete, from the stream the server receives: no render requests.',
  render: 'Judged every evaluation interval from Graphite render answers, after the settle delay.',
};

/** What a state that cannot be judged means, said beside its badge. */
const STATE_HINTS = /** @type {Record<string, string>} */ ({
  no_data: 'its queries answer no data (no series, or only nulls in the window it judges)',
  query_failing: 'its queries fail: its truth cannot be known until Graphite answers',
  not_evaluated: 'nothing evaluates it (a server without --graphite-url, or not judged yet)',
});
import { formatAgo, formatDuration, formatTime, formatValue } from './format.js';
import { drawGraph } from './graph.js';
import { muteControls } from './mute-controls.js';
import { ackControls } from './ack-controls.js';
import { deliveryTable } from './deliveries.js';
import { poll } from './poll.js';
import { dependencyNotice } from './dependencies.js';

const RANGES = ['6h', '24h', '7d'];

/**
 * @param {HTMLElement} main
 * @param {string[]} params
 * @returns {() => void}
 */
export function renderAlertPage(main, [id]) {
  const params = { id: /** @type {string} */ (id) };
  const heading = h('h1', { tabindex: '-1' }, 'Alert');
  const head = h('div', { class: 'alert-head' });
  const managed = h('div');
  const dependencies = h('div');
  const windowNotice = h('div');
  /** The alert as last read, for the dependency notice (drawn with the timeline, whose `held` entries it names). */
  /** @type {any} */
  let current = null;
  const announce = h('p', { role: 'status', class: 'hint' });
  const mute = muteControls(/** @type {string} */ (id), (message) => {
    replace(announce, message);
    void refresh();
  });
  const ackAnnounce = h('p', { role: 'status', class: 'hint' });
  const ack = ackControls(/** @type {string} */ (id), (message) => {
    replace(ackAnnounce, message);
    void refresh();
  });
  const scheduled = h('div');
  const ranges = h('div', { class: 'ranges', role: 'group', 'aria-label': 'Graph range' });
  const graphs = h('div', { class: 'graphs' });
  const backtest = h('div');
  const timeline = h('div');
  const deliveries = h('div');
  const definition = h('div');
  replace(
    main,
    h('p', {}, link('/', '← All alerts')),
    heading,
    head,
    dependencies,
    managed,
    section('Acknowledge', ack.element, ackAnnounce),
    section('Mute', windowNotice, mute.element, h('h3', {}, 'Scheduled mutes'), scheduled, announce),
    section('Graph', ranges, graphs),
    section('Backtest', backtest),
    section('History', timeline),
    section('Deliveries', deliveries),
    section('Definition', definition),
  );

  // State, timeline and deliveries; the graph, backtest and definition load once.
  const loop = poll(refresh);
  let range = '6h';
  /** @type {(() => void) | undefined} */
  let destroyGraph;
  const drawn = new Map();

  /**
   * Redraws `target` only when the answer changed (keeps the focus and the reading position).
   * @param {HTMLElement} target
   * @param {unknown} value
   * @param {() => void} draw
   */
  function once(target, value, draw) {
    const text = JSON.stringify(value);
    if (drawn.get(target) === text) return;
    drawn.set(target, text);
    draw();
  }

  async function loadAlert() {
    try {
      const [alert, muted] = await Promise.all([api('/v2/alerts/{id}/', { params }), api('/v2/alerts/{id}/muted/', { params })]);
      once(head, alert, () => {
        replace(heading, alert.name);
        document.title = `${alert.name} · alertform`;
        // The server's one state (alertform serve); a server without it, by its status.
        const state = alert.state ?? (alert.status === 'alerting' ? 'alerting' : 'healthy');
        replace(
          head,
          badge(state),
          alert.muted ? badge('muted') : null,
          STATE_HINTS[state] ? h('span', { class: 'hint', 'data-key': 'state-hint' }, STATE_HINTS[state]) : null,
          alert.acknowledgement ? h('span', { class: 'hint ack-badge' }, `acknowledged by ${alert.acknowledgement.by}`) : null,
          h(
            'dl',
            { class: 'facts' },
            h('dt', {}, 'Metric'),
            h('dd', { class: 'metric' }, alert.metric),
            h('dt', {}, 'Triggered metrics'),
            h('dd', {}, alert.currently_triggered_metrics.length ? alert.currently_triggered_metrics.join(', ') : 'none'),
            alert.evaluated_by
              ? [h('dt', {}, 'Evaluated'), h('dd', { 'data-key': 'evaluated-by', title: EVALUATED_BY_HINTS[alert.evaluated_by] }, EVALUATED_BY[alert.evaluated_by])]
              : null,
            alert.info ? [h('dt', {}, 'Info'), h('dd', {}, alert.info)] : null,
          ),
        );
      });
      mute.update(muted);
      current = alert;
      once(windowNotice, muted.maintenance_window ?? null, () =>
        replace(
          windowNotice,
          muted.maintenance_window
            ? h(
                'p',
                { class: 'notice', id: 'window-notice' },
                'Muted by maintenance window ',
                link('/windows', muted.maintenance_window.name),
                ` until ${new Date(muted.maintenance_window.until).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}.`,
              )
            : null,
        ),
      );
      ack.update(alert);
      return true;
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 404) {
        loop.stop();
        replace(main, h('h1', { tabindex: '-1' }, 'Alert not found'), h('p', {}, 'No alert with this id in your account.'), h('p', {}, link('/', 'All alerts')));
        return false;
      }
      replace(head, h('p', { class: 'error' }, `Could not load the alert: ${/** @type {Error} */ (caught).message}`));
      return true;
    }
  }

  async function loadScheduled() {
    const body = await optional('/v2/alerts/{id}/scheduled-mutes/', { params });
    once(scheduled, body, () => {
      if (!body) return replace(scheduled, h('p', { class: 'hint' }, 'Not available on this server.'));
      if (body.scheduled_mutes.length === 0) return replace(scheduled, h('p', { class: 'hint' }, 'None.'));
      replace(
        scheduled,
        h(
          'ul',
          { class: 'plain' },
          body.scheduled_mutes.map((s) =>
            h(
              'li',
              {},
              h('strong', {}, s.name),
              ` — ${s.start_time} ${s.timezone} for ${formatDuration(s.duration * 60)}${s.repeat.length ? ` every ${s.repeat.join(', ')}` : ' (once)'}. `,
              s.window ? (s.active ? `Muting now, until ${formatTime(s.window.until)}.` : `Next: ${formatTime(s.window.from)} – ${formatTime(s.window.until)}.`) : 'Passed.',
            ),
          ),
        ),
      );
    });
  }

  async function loadGraph() {
    replace(ranges, RANGES.map((r) => h('button', { type: 'button', 'aria-pressed': String(r === range), onclick: () => setRange(r) }, r === '6h' ? '6 h' : r === '24h' ? '24 h' : '7 d')));
    const body = await optional('/v2/alerts/{id}/graph/', { params, query: { range } });
    if (loop.stopped) return;
    destroyGraph?.();
    destroyGraph = undefined;
    if (!body) return replace(graphs, h('p', { class: 'hint' }, 'Graphs are not available on this server.'));
    replace(graphs, body.error ? h('p', { class: 'error' }, `Graphite: ${body.error}`) : null);
    destroyGraph = drawGraph(graphs, body);
  }

  /** @param {string} next */
  function setRange(next) {
    range = next;
    void guard(graphs, loadGraph);
  }

  /**
   * Runs a section's loader; a failure is said in that section only.
   * @param {HTMLElement} target
   * @param {() => Promise<unknown>} load
   */
  async function guard(target, load) {
    try {
      await load();
    } catch (caught) {
      if (loop.stopped) return;
      drawn.delete(target);
      replace(target, h('p', { class: 'error' }, `Could not load this part: ${/** @type {Error} */ (caught).message}`));
    }
  }

  async function loadBacktest() {
    const body = await optional('/v2/alerts/{id}/backtest/', { params, query: { window: '7d' } });
    if (!body) return replace(backtest, h('p', { class: 'hint' }, 'Not available on this server.'));
    if (body.error) return replace(backtest, h('p', { class: 'error' }, `Backtest failed: ${body.error}`));
    const days = Math.round(body.window_seconds / 86_400);
    const names = await channelNames(body.notifications.map((n) => n.channel_id));
    replace(
      backtest,
      h('p', { class: 'backtest-summary' }, `The current definition would have fired ${body.fired} time${body.fired === 1 ? '' : 's'} in the last ${days} days.`),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Time alerting'),
        h('dd', {}, formatDuration(body.minutes_alerting * 60)),
        h('dt', {}, 'Longest episode'),
        h('dd', {}, formatDuration(body.longest_episode_seconds)),
        h('dt', {}, 'Notifications'),
        h('dd', {}, body.notifications.length ? body.notifications.map((n) => `${n.count} to ${names.get(n.channel_id) ?? n.channel_id}`).join(', ') : 'none'),
      ),
    );
  }

  async function loadTimeline() {
    const body = await optional('/v2/alerts/{id}/timeline/', { params, query: { days: 7 } });
    /** @type {import('./api-types').Schema<'AlertTimeline'>['entries']} */
    let entries;
    if (body) entries = body.entries;
    else {
      // A server without the timeline: its public history (no suppressed notifications there).
      const history = await optional('/v2/alerts/history/', { query: { id: params.id, days: 7 } });
      entries = (history?.[/** @type {string} */ (id)] ?? []).map((e) => ({ time: Number(e.time), kind: e.status, metric: e.metric, value: e.value, channel: null, reason: null, by: null }));
    }
    if (current) {
      const notice = await dependencyNotice(current, entries);
      once(dependencies, [current.depends_on ?? null, notice?.textContent ?? null], () => replace(dependencies, notice));
    }
    once(timeline, entries, () => {
      if (entries.length === 0) return replace(timeline, h('p', { class: 'hint' }, 'Nothing in the last 7 days.'));
      replace(timeline, h('ol', { class: 'timeline', reversed: true }, entries.map(timelineEntry)));
    });
  }

  async function loadDeliveries() {
    const body = await optional('/v2/deliveries/', { query: { alert_id: params.id, state: ['pending', 'dead', 'delivered'] } });
    once(deliveries, body, () => {
      if (!body) return replace(deliveries, h('p', { class: 'hint' }, 'Not available on this server.'));
      replace(deliveries, deliveryTable(body.deliveries, () => void loadDeliveries(), false));
    });
  }

  async function loadDefinition() {
    const body = await optional('/v2/alerts/{id}/definition/', { params });
    if (!body) return replace(definition, h('p', { class: 'hint' }, 'Not available on this server.'));
    replace(definition, h('pre', { class: 'yaml', tabindex: '0', 'aria-label': 'Definition in YAML' }, body.yaml));
    replace(
      managed,
      body.managed_from_git
        ? h('p', { class: 'notice', id: 'managed-notice' }, 'Managed from git: a change made here (a mute excepted) shows as drift in the next plan, and the next apply puts the definition back.')
        : null,
    );
  }

  async function refresh() {
    if (!(await loadAlert()) || loop.stopped) return;
    await Promise.all([guard(scheduled, loadScheduled), guard(timeline, loadTimeline), guard(deliveries, loadDeliveries)]);
  }

  void (async () => {
    if (!(await loadAlert())) return;
    void loop.run();
    void guard(graphs, loadGraph);
    void guard(backtest, loadBacktest);
    void guard(definition, loadDefinition);
  })();

  return () => {
    loop.stop();
    destroyGraph?.();
  };
}

/**
 * A section with a heading.
 * @param {string} title
 * @param {...HTMLElement} children
 */
function section(title, ...children) {
  const slug = title.toLowerCase().replace(/\s+/g, '-');
  return h('section', { 'aria-labelledby': `section-${slug}`, id: slug }, h('h2', { id: `section-${slug}` }, title), children);
}

/**
 * The descriptions of channels by id (ids of channels that are gone are left out).
 * @param {string[]} ids
 * @returns {Promise<Map<string, string>>}
 */
async function channelNames(ids) {
  if (ids.length === 0) return new Map();
  const body = await api('/v2/notifications/', { query: { id: ids, max: 100 } });
  return new Map(body.notifications.map((c) => [c.id, c.description]));
}

/**
 * The body of an endpoint that this server may not have (404: null); other failures throw.
 * @template {import('./api-types').ApiPath} P
 * @param {P} path
 * @param {import('./api-types').ApiOptions<P, 'get'>} options
 * @returns {Promise<import('./api-types').ApiAnswer<P> | null>}
 */
async function optional(path, options) {
  try {
    return await api(path, options);
  } catch (caught) {
    if (caught instanceof ApiError && caught.status === 404 && caught.message.startsWith('no endpoint')) return null;
    throw caught;
  }
}

const KIND_WORDS = {
  alerting: 'Alerting',
  recovered: 'Recovered',
  query_failed: 'Query failed',
  no_data: 'No data',
  muted: 'Muted',
  unmuted: 'Unmuted',
  notification_sent: 'Notification sent',
  notification_suppressed: 'Notification suppressed',
  notification_failed: 'Notification failed (dead-lettered)',
  acknowledged: 'Acknowledged',
  unacknowledged: 'Acknowledgement ended',
  held: 'Held (a dependency is alerting)',
  grouped: 'Sent in a grouped message',
  muted_by_window: 'Muted by a maintenance window',
  window_changed: 'Maintenance window changed',
};

/** @param {import('./api-types').Schema<'AlertTimeline'>['entries'][number]} entry */
function timelineEntry(entry) {
  return h(
    'li',
    { 'data-kind': entry.kind },
    h('time', { datetime: new Date(entry.time * 1000).toISOString(), title: formatAgo(entry.time) }, formatTime(entry.time)),
    badge(entry.kind),
    h('span', {}, /** @type {Record<string, string>} */ (KIND_WORDS)[entry.kind] ?? entry.kind),
    entry.metric ? h('span', { class: 'metric' }, entry.metric) : null,
    entry.value !== null && entry.value !== undefined ? h('span', {}, `value ${formatValue(entry.value)}`) : null,
    entry.channel ? h('span', {}, `to ${entry.channel.description} (${entry.channel.type})`) : null,
    entry.reason ? h('span', { class: 'hint' }, `why: ${entry.reason}`) : null,
  );
}
