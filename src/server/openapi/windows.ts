import type { Op } from './document.js';
import { always, extensionOperation, nullable, type Json } from './parts.js';
import { WEEKDAYS } from '../../model/types.js';
import { WINDOW_LIMITS } from '../../model/window-rules.js';
import { OVERVIEW_STATES } from '../console/alert-overview.js';
import { MAX_GROUPS } from '../console/overview-groups-route.js';

const NO_WINDOW = "no such maintenance window, or another account's (not_found)";
const patterns = (description: string): Json => ({
  type: 'array',
  minItems: 1,
  maxItems: WINDOW_LIMITS.patternsPerKey,
  items: { type: 'string', minLength: 1, maxLength: WINDOW_LIMITS.patternLength },
  description,
});

const MATCH: Json = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'What the window mutes: an alert matches when it matches any pattern of every key given.',
  properties: {
    alert_names: patterns('Globs on the alert name: `*` any run of characters, `?` one character.'),
    metrics: patterns("Graphite globs (`*`, `?`, `[...]`, `{a,b}`, never across a dot) on the metric paths the alert reads: its metric's and its additional criteria's, each path whole."),
    channels: patterns('Notification channels, by id or name (description) in a write; ids in a read.'),
  },
};

const TIMING: Json = {
  starts_at: nullable('string', 'ISO 8601 with an offset: a one-off window from this instant. Exactly one of starts_at, or start_time with repeat.'),
  start_time: nullable('string', 'HH:MM in `timezone`: a recurring window starts then on each day of `repeat`.'),
  repeat: { type: ['array', 'null'], items: { type: 'string', enum: [...WEEKDAYS] }, minItems: 1 },
  timezone: { type: 'string', default: 'UTC', description: 'UTC, an offset (UTC+2, UTC-5:30) or an IANA name (Europe/Berlin).' },
  duration: { type: 'integer', minimum: 1, maximum: WINDOW_LIMITS.maxDuration, description: 'Minutes.' },
};

const NEXT_OCCURRENCE: Json = {
  type: ['object', 'null'],
  description: 'Read-only: the occurrence that mutes now (active) or the next one, by the window\'s own clock (daylight saving followed); null when there is none (a one-off window that is over). Accepted and ignored by PUT.',
  required: ['starts_at', 'ends_at', 'active'],
  properties: { starts_at: { type: 'string', format: 'date-time' }, ends_at: { type: 'string', format: 'date-time' }, active: { type: 'boolean' } },
};

/** The maintenance windows' and the grouped overview's shapes, all alertform extensions. */
export const WINDOW_RESPONSE_SCHEMAS: Json = {
  MaintenanceWindowWrite: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'match', 'duration'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: WINDOW_LIMITS.nameLength, description: 'Unique in the account.' },
      reason: nullable('string', 'Why; shown in the history of the alerts it changes.'),
      match: MATCH,
      ...TIMING,
    },
  },
  MaintenanceWindowUpdate: {
    type: 'object',
    description: 'The fields to change (the others keep their values; null clears one); id, created_by and updated_by are accepted and ignored.',
    properties: { name: { type: 'string' }, reason: nullable('string'), match: MATCH, ...TIMING, next_occurrence: NEXT_OCCURRENCE },
  },
  MaintenanceWindowPreviewRequest: {
    type: 'object',
    required: ['match'],
    description: 'A window as it is being written: only `match` is read.',
    properties: { match: MATCH },
  },
  MaintenanceWindowRead: always({
    id: { type: 'string' },
    name: { type: 'string' },
    reason: nullable('string'),
    match: MATCH,
    ...TIMING,
    created_by: { type: 'string', description: 'Who created it: the API key\'s name, or "api".' },
    updated_by: { type: 'string', description: 'Who wrote it last.' },
    next_occurrence: NEXT_OCCURRENCE,
  }),
  MaintenanceWindowPage: always({
    maintenance_windows: { type: 'array', items: { $ref: '#/components/schemas/MaintenanceWindowRead' } },
    next_page: { oneOf: [{ type: 'integer' }, { type: 'boolean', const: false }], description: 'The next page number, or false on the last page.' },
  }),
  AlertOverviewGroups: always({
    nodes: { type: 'array', items: { type: 'integer', minimum: 0 } },
    states: { type: 'array', items: { type: 'string' } },
    group_count: { type: 'integer', minimum: 0, description: 'How many groups there are (the answer lists the first 500).' },
    groups: {
      type: 'array',
      maxItems: MAX_GROUPS,
      items: always({
        key: { type: 'string', description: 'The path nodes, joined by ".".' },
        counts: always(Object.fromEntries(['total', ...OVERVIEW_STATES].map((key) => [key, { type: 'integer', minimum: 0 }]))),
      }),
    },
  }),
  MaintenanceWindowPreview: always({
    alerts: { type: 'array', maxItems: 100, items: always({ id: { type: 'string' }, name: { type: 'string' } }), description: 'The first 100 alerts it matches, oldest first.' },
    count: { type: 'integer', minimum: 0, description: 'How many alerts of the account it matches.' },
  }),
};

/** The console's grouped overview (GET /v2/alerts/overview/groups/). */
export function buildOverviewGroupsPaths(operation: (op: Op) => Json): Json {
  return {
    '/v2/alerts/overview/groups/': {
      get: extensionOperation(operation)(
        {
          operationId: 'getAlertOverviewGroups',
          tag: 'alerts',
          summary: "The account's alerts grouped by path nodes, with the count of each state per group",
          ok: [200, 'AlertOverviewGroups'],
          errors: { 400: 'invalid query: no nodes, more than 5, or an index outside 0..31 (invalid_query)' },
          query: [{ name: 'nodes', description: 'Path node indexes, 0-based (repeatable, or comma-separated: nodes=1,2).', list: true, schema: { type: 'string' } }],
        },
        "An alert's keys are the nodes of the series it has triggered, or of its metric's path when none; the groups with the most alerting come first.",
      ),
    },
  };
}

/** The /v2/maintenance_windows/ paths, built with the main document's operation helper. */
export function buildWindowPaths(operation: (op: Op) => Json): Json {
  const described = extensionOperation(operation);
  const tag = 'maintenance_windows';
  const write = 'invalid body: a field at fault, more than 20 patterns in a key or a pattern longer than 200, an unknown channel (invalid_body)';
  return {
    '/v2/maintenance_windows/': {
      post: described(
        { operationId: 'createMaintenanceWindow', tag, summary: 'Create a maintenance window', body: 'MaintenanceWindowWrite', ok: [201, 'MaintenanceWindowRead'], errors: { 400: write, 403: 'the account holds 200 windows, the most it may (quota_exceeded)', 409: 'name exists (conflict)' } },
        'While active, the alerts it matches send no notifications (as a scheduled mute); their history records `muted_by_window` once per occurrence, and `window_changed` for every write of a window that matches them.',
      ),
      get: described(
        {
          operationId: 'listMaintenanceWindows',
          tag,
          summary: 'List maintenance windows, oldest first',
          ok: [200, 'MaintenanceWindowPage'],
          errors: { 400: 'invalid query (invalid_query)' },
          query: [
            { name: 'search', description: 'A case-insensitive part of the name or the reason.' },
            { name: 'page', description: 'Page number, from 1 (default 1).', schema: { type: 'integer', minimum: 1, default: 1 } },
            { name: 'max', description: 'Windows per page, 1 to 100 (default 100).', schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 } },
          ],
        },
        'Paged like the scheduled mutes.',
      ),
    },
    '/v2/maintenance_windows/preview/': {
      post: described(
        { operationId: 'previewMaintenanceWindow', tag, summary: 'The alerts a window would match now', body: 'MaintenanceWindowPreviewRequest', ok: [200, 'MaintenanceWindowPreview'], errors: { 400: write } },
        'Whatever its timing: what it mutes whenever it is active. Nothing is stored.',
      ),
    },
    '/v2/maintenance_windows/{id}/': {
      get: described({ operationId: 'getMaintenanceWindow', tag, summary: 'Read a maintenance window', id: 'window id', ok: [200, 'MaintenanceWindowRead'], errors: { 404: NO_WINDOW } }, ''),
      put: described(
        { operationId: 'updateMaintenanceWindow', tag, summary: 'Update a maintenance window (partial)', id: 'window id', body: 'MaintenanceWindowUpdate', ok: [200, 'MaintenanceWindowRead'], errors: { 400: `${write}; or an id that is not this one`, 404: NO_WINDOW, 409: 'name exists (conflict)' } },
        'Only the fields given change; null clears one (give `starts_at` with `start_time: null, repeat: null` to make a recurring window a one-off one).',
      ),
      delete: described({ operationId: 'deleteMaintenanceWindow', tag, summary: 'Delete a maintenance window', id: 'window id', ok: [200, 'Deleted'], errors: { 404: NO_WINDOW } }, ''),
    },
  };
}
