// @ts-check
/**
 * Maintenance windows: the account's windows, and an editor that creates, changes and deletes them. While a window
 * is typed, the editor asks the server which alerts it matches (POST /v2/maintenance_windows/preview/, debounced),
 * so what a window will mute is seen before it is saved.
 */
import { ApiError, api } from './api.js';
import { h, link, replace } from './dom.js';
import { formatDuration } from './format.js';

const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const PREVIEW_DELAY_MS = 300;
const BASE = '/v2/maintenance_windows/';

/**
 * @param {HTMLElement} main
 * @returns {() => void}
 */
export function renderWindows(main) {
  const list = h('div');
  const editor = h('div');
  const announce = h('p', { role: 'status', class: 'hint', id: 'windows-status' });
  const newButton = h('button', { type: 'button', class: 'primary', id: 'new-window', onclick: () => openEditor(null) }, 'New window');
  replace(
    main,
    h('h1', { tabindex: '-1' }, 'Maintenance windows'),
    h('p', { class: 'hint' }, 'While a window is active, the alerts it matches send no notifications; their history says which window muted them.'),
    newButton,
    announce,
    editor,
    list,
  );
  let stopped = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let previewTimer;
  /** Counts previews, so a slow answer never overwrites a newer one. */
  let previews = 0;

  async function load() {
    try {
      /** @type {any[]} */
      const windows = [];
      for (let page = 1; page <= 10; page += 1) {
        const answer = await api('/v2/maintenance_windows/', { query: { page, max: 100 } });
        windows.push(...answer.maintenance_windows);
        if (!answer.next_page) break;
      }
      if (!stopped) drawList(windows);
    } catch (caught) {
      if (stopped) return;
      const missing = caught instanceof ApiError && caught.status === 404;
      replace(list, h('p', { class: missing ? 'hint' : 'error' }, missing ? 'This server has no maintenance windows.' : `Could not load the windows: ${/** @type {Error} */ (caught).message}`));
    }
  }

  /** @param {any[]} windows */
  function drawList(windows) {
    if (windows.length === 0) return replace(list, h('p', { class: 'empty' }, 'No maintenance windows yet.'));
    replace(
      list,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'windows' },
          h('thead', {}, h('tr', {}, ['Window', 'Matches', 'When', 'Next', 'Reason', ''].map((c) => (c ? h('th', { scope: 'col' }, c) : h('td', {}))))),
          h(
            'tbody',
            {},
            windows.map((w) =>
              h(
                'tr',
                { 'data-window-id': w.id },
                h('th', { scope: 'row' }, w.name),
                h('td', {}, matchText(w.match)),
                h('td', {}, timingText(w)),
                h('td', { class: 'next-occurrence' }, nextText(w.next_occurrence)),
                h('td', {}, w.reason ?? '—'),
                h('td', {}, h('button', { type: 'button', 'aria-label': `Edit ${w.name}`, onclick: () => openEditor(w) }, 'Edit')),
              ),
            ),
          ),
        ),
      ),
    );
  }

  /** @param {any | null} window the window to edit, or null for a new one */
  function openEditor(window) {
    const field = (/** @type {string} */ id, /** @type {string} */ label, /** @type {HTMLElement} */ input, /** @type {string} */ hint = '') =>
      h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('span', { class: 'hint', id: `${id}-hint` }, hint) : null);
    const input = (/** @type {string} */ id, /** @type {Record<string, unknown>} */ props = {}) => /** @type {HTMLInputElement} */ (h('input', { id, autocomplete: 'off', ...props }));
    const lines = (/** @type {string} */ id, /** @type {string[] | undefined} */ values) =>
      /** @type {HTMLTextAreaElement} */ (h('textarea', { id, rows: '2', 'aria-describedby': `${id}-hint` }, (values ?? []).join('\n')));
    const recurring = Boolean(window?.start_time);
    const name = input('window-name', { value: window?.name ?? '', required: true });
    const reason = input('window-reason', { value: window?.reason ?? '' });
    const names = lines('window-alert-names', window?.match.alert_names);
    const metrics = lines('window-metrics', window?.match.metrics);
    const channels = lines('window-channels', window?.match.channels);
    const once = /** @type {HTMLInputElement} */ (h('input', { type: 'radio', name: 'window-kind', id: 'window-once', value: 'once', checked: !recurring }));
    const repeats = /** @type {HTMLInputElement} */ (h('input', { type: 'radio', name: 'window-kind', id: 'window-recurring', value: 'recurring', checked: recurring }));
    const startsAt = input('window-starts-at', { type: 'datetime-local', value: window?.starts_at ? localInputValue(window.starts_at) : '' });
    const startTime = input('window-start-time', { type: 'time', value: window?.start_time ?? '' });
    const days = WEEK.map((day) => /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: `window-day-${day}`, value: day, checked: window?.repeat?.includes(day) ?? false })));
    const timezone = input('window-timezone', { value: window?.timezone ?? 'UTC' });
    const duration = input('window-duration', { type: 'number', min: '1', max: '525600', value: String(window?.duration ?? 60) });
    const problems = h('ul', { class: 'error', id: 'window-problems', role: 'alert' });
    const preview = h('div', { class: 'preview', id: 'window-preview', 'aria-live': 'polite' }, h('p', { class: 'hint' }, 'Type a pattern to see what it matches.'));
    const onceFields = h('div', { class: 'toolbar' }, field('window-starts-at', 'Starts at (this browser’s time)', startsAt));
    const recurringFields = h(
      'div',
      { class: 'toolbar' },
      field('window-start-time', 'Start time', startTime),
      h('fieldset', { class: 'days' }, h('legend', {}, 'On'), days.map((box) => h('label', { class: 'day' }, box, ` ${box.value}`))),
      field('window-timezone', 'Time zone', timezone, 'UTC, UTC+2 or Europe/Berlin'),
    );
    const showKind = () => {
      onceFields.hidden = repeats.checked;
      recurringFields.hidden = !repeats.checked;
    };
    once.addEventListener('change', showKind);
    repeats.addEventListener('change', showKind);
    showKind();

    const matchOf = () => {
      /** @type {Record<string, string[]>} */
      const match = {};
      for (const [key, area] of /** @type {[string, HTMLTextAreaElement][]} */ ([['alert_names', names], ['metrics', metrics], ['channels', channels]])) {
        const values = area.value.split(/[\n,]/).map((v) => v.trim()).filter(Boolean);
        if (values.length) match[key] = values;
      }
      return /** @type {import('./api-types').Schema<'MaintenanceWindowWrite'>['match']} */ (match);
    };
    /** @returns {import('./api-types').Schema<'MaintenanceWindowWrite'>} */
    const bodyOf = () => ({
      name: name.value.trim(),
      reason: reason.value.trim() || null,
      match: matchOf(),
      ...(repeats.checked
        ? { starts_at: null, start_time: startTime.value || null, repeat: days.filter((box) => box.checked).map((box) => /** @type {import('./api-types').Schema<'MaintenanceWindowWrite'>['repeat'] & string[]} */ ([box.value])[0]) }
        : { starts_at: startsAt.value ? new Date(startsAt.value).toISOString() : null, start_time: null, repeat: null }),
      timezone: timezone.value.trim() || 'UTC',
      duration: Number(duration.value),
    });

    async function showPreview() {
      const current = ++previews;
      const match = matchOf();
      if (Object.keys(match).length === 0) return replace(preview, h('p', { class: 'hint' }, 'Type a pattern to see what it matches.'));
      try {
        const answer = await api('/v2/maintenance_windows/preview/', { method: 'post', body: { match } });
        if (current !== previews || stopped) return;
        replace(
          preview,
          h('p', { class: 'preview-count' }, `Would mute ${answer.count} alert${answer.count === 1 ? '' : 's'}${answer.count ? ':' : '.'}`),
          answer.count
            ? h('ul', { class: 'plain preview-alerts' }, answer.alerts.map((/** @type {any} */ a) => h('li', {}, link(`/alerts/${encodeURIComponent(a.id)}`, a.name))))
            : null,
          answer.count > answer.alerts.length ? h('p', { class: 'hint' }, `and ${answer.count - answer.alerts.length} more`) : null,
        );
      } catch (caught) {
        if (current !== previews || stopped) return;
        replace(preview, h('p', { class: 'error' }, `Cannot preview: ${/** @type {Error} */ (caught).message}`));
      }
    }
    const schedulePreview = () => {
      clearTimeout(previewTimer);
      previewTimer = setTimeout(() => void showPreview(), PREVIEW_DELAY_MS);
    };
    for (const area of [names, metrics, channels]) area.addEventListener('input', schedulePreview);

    const deleteButton = window
      ? h('button', { type: 'button', id: 'window-delete', 'data-confirm': 'false', onclick: () => void remove() }, 'Delete')
      : null;
    async function remove() {
      if (!deleteButton || !window) return;
      // Two clicks, no dialog: the first asks, the second deletes.
      if (deleteButton.dataset.confirm !== 'true') {
        deleteButton.dataset.confirm = 'true';
        replace(deleteButton, `Really delete ${window.name}?`);
        return;
      }
      try {
        await api('/v2/maintenance_windows/{id}/', { method: 'delete', params: { id: window.id } });
        close(`Deleted ${window.name}.`);
      } catch (caught) {
        replace(problems, h('li', {}, /** @type {Error} */ (caught).message));
      }
    }

    async function save(/** @type {Event} */ event) {
      event.preventDefault();
      replace(problems);
      try {
        const saved = window
          ? await api('/v2/maintenance_windows/{id}/', { method: 'put', params: { id: window.id }, body: bodyOf() })
          : await api('/v2/maintenance_windows/', { method: 'post', body: bodyOf() });
        close(`Saved ${saved.name}.`);
      } catch (caught) {
        const error = /** @type {Error} */ (caught);
        replace(problems, h('li', {}, error.message));
      }
    }

    /** @param {string} message */
    function close(message) {
      clearTimeout(previewTimer);
      replace(editor);
      newButton.hidden = false;
      replace(announce, message);
      void load();
      newButton.focus();
    }

    newButton.hidden = true;
    replace(
      editor,
      h(
        'form',
        { class: 'window-editor', 'aria-labelledby': 'window-editor-title', onsubmit: save },
        h('h2', { id: 'window-editor-title' }, window ? `Edit ${window.name}` : 'New maintenance window'),
        h('div', { class: 'toolbar' }, field('window-name', 'Name', name), field('window-reason', 'Reason', reason)),
        h('h3', {}, 'Matches'),
        h('p', { class: 'hint' }, 'An alert matches when it matches any pattern of every list filled in. One pattern a line.'),
        h(
          'div',
          { class: 'editor-columns' },
          h(
            'div',
            {},
            field('window-alert-names', 'Alert names', names, 'globs: * and ?'),
            field('window-metrics', 'Metric paths', metrics, 'Graphite globs, e.g. servers.dc1.*.cpu'),
            field('window-channels', 'Channels', channels, 'names or ids'),
          ),
          h('div', {}, h('h4', {}, 'Preview'), preview),
        ),
        h('h3', {}, 'When'),
        h('div', { class: 'toolbar', role: 'radiogroup', 'aria-label': 'Kind' }, h('label', {}, once, ' Once'), h('label', {}, repeats, ' Recurring')),
        onceFields,
        recurringFields,
        h('div', { class: 'toolbar' }, field('window-duration', 'Duration (minutes)', duration)),
        problems,
        h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'window-save' }, 'Save'), h('button', { type: 'button', onclick: () => close('') }, 'Cancel'), deleteButton),
      ),
    );
    if (window) void showPreview();
    name.focus();
  }

  void load();
  return () => {
    stopped = true;
    clearTimeout(previewTimer);
  };
}

/** @param {Record<string, string[] | undefined>} match */
function matchText(match) {
  const parts = [];
  if (match.alert_names) parts.push(`names ${match.alert_names.join(', ')}`);
  if (match.metrics) parts.push(`metrics ${match.metrics.join(', ')}`);
  if (match.channels) parts.push(`${match.channels.length} channel${match.channels.length === 1 ? '' : 's'}`);
  return parts.join('; ');
}

/** @param {any} w */
function timingText(w) {
  const length = formatDuration(w.duration * 60);
  if (w.starts_at) return `once, ${new Date(w.starts_at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })} for ${length}`;
  return `${w.start_time} ${w.timezone} on ${w.repeat.join(', ')} for ${length}`;
}

/**
 * When the window mutes next, as the server computed it by the window's clock, shown in this browser's time:
 * "now, until 10:30", "Sun, Nov 29, 3:00 AM (in 17 h)", or "—" when it never will again.
 * @param {{ starts_at: string, ends_at: string, active: boolean } | null | undefined} next
 */
function nextText(next) {
  if (!next) return '—';
  const at = (/** @type {string} */ iso) => new Date(iso).toLocaleString(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
  if (next.active) return `now, until ${at(next.ends_at)}`;
  return `${at(next.starts_at)} (in ${formatDuration((Date.parse(next.starts_at) - Date.now()) / 1000)})`;
}

/**
 * An instant as a datetime-local input's value, in this browser's time.
 * @param {string} iso
 */
function localInputValue(iso) {
  const date = new Date(iso);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
