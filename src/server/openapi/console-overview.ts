import type { Op } from './document.js';
import { OVERVIEW_SORTS, OVERVIEW_STATES } from '../console/alert-overview.js';
import { ACKNOWLEDGEMENT_SCHEMA } from './ack.js';
import { always, extensionOperation, nullable, unixSeconds, type Json } from './parts.js';

const STATE = { type: 'string', enum: [...OVERVIEW_STATES] };

/** The response shapes of the console's overview and scheduled-mutes endpoints. */
export const OVERVIEW_RESPONSE_SCHEMAS: Json = {
  AlertOverview: always({
    counts: always(Object.fromEntries(['total', ...OVERVIEW_STATES].map((key) => [key, { type: 'integer', minimum: 0 }])), {
      description: "How many of the account's alerts are in each state (all of them, whatever the filter); `muted` counts the muted ones, whatever their state.",
    }),
    matching: { type: 'integer', minimum: 0, description: 'How many alerts match state and search.' },
    page: { type: 'integer', minimum: 1 },
    max: { type: 'integer', minimum: 1 },
    next_page: { type: 'boolean' },
    alerts: {
      type: 'array',
      items: always({
        id: { type: 'string' },
        name: { type: 'string' },
        metric: { type: 'string' },
        state: {
          type: 'string',
          enum: ['alerting', 'query_failing', 'no_data', 'not_evaluated', 'healthy'],
          description: "The alert's state, the same as its read object's `state` (muted is the `muted` flag beside it).",
        },
        status: { type: 'string', description: "The evaluator's status (alerting or healthy), muted or not." },
        muted: { type: 'boolean' },
        muted_until: nullable('integer', 'Unix seconds: the end of the hand mute or of the active scheduled mute, whichever is later.'),
        query_failing: { type: 'boolean' },
        since: nullable('integer', "Unix seconds since the alert is in its evaluator condition, from its history (90 days); null when the history does not say."),
        currently_triggered_metrics: { type: 'array', items: { type: 'string' } },
        channels: { type: 'array', items: always({ id: { type: 'string' }, type: { type: 'string' }, description: { type: 'string' } }) },
        acknowledgement: ACKNOWLEDGEMENT_SCHEMA,
      }),
    },
  }),
  AlertScheduledMutes: always({
    scheduled_mutes: {
      type: 'array',
      items: {
        allOf: [
          { $ref: '#/components/schemas/ScheduleRead' },
          always({
            active: { type: 'boolean', description: 'Whether it mutes the alert now.' },
            window: {
              oneOf: [{ type: 'null' }, always({ from: unixSeconds, until: unixSeconds })],
              description: 'The current window, or the next one; null once a one-time mute has passed.',
            },
          }),
        ],
      },
    },
  }),
};

/** The paths, built with the main document's operation helper. */
export function buildOverviewPaths(operation: (op: Op) => Json): Json {
  const described = extensionOperation(operation);
  return {
    '/v2/alerts/overview/': {
      get: described(
        {
          operationId: 'getAlertOverview',
          tag: 'alerts',
          summary: "Counts per state and one page of the account's alerts, filtered, searched and sorted",
          ok: [200, 'AlertOverview'],
          errors: { 400: 'invalid query: an unknown parameter or value (invalid_query)' },
          query: [
            { name: 'state', description: 'Only alerts in these states (repeatable).', schema: STATE },
            { name: 'search', description: 'Case-insensitive substring of the name or the metric.', schema: { type: 'string' } },
            { name: 'sort', description: 'name, metric or state (default, alerting first); a leading - sorts descending.', schema: { type: 'string', enum: [...OVERVIEW_SORTS, ...OVERVIEW_SORTS.map((key) => `-${key}`)], default: 'state' } },
            { name: 'page', description: 'Page number, from 1 (default 1).', schema: { type: 'integer', minimum: 1, default: 1 } },
            { name: 'max', description: 'Page size, 1..500 (default 50).', schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
          ],
        },
        'One request serves the console’s first paint, with 10,000 alerts too (the state of every alert from one summary read; the page’s rows in full).',
      ),
    },
    '/v2/alerts/{id}/scheduled-mutes/': {
      get: described(
        {
          operationId: 'getAlertScheduledMutes',
          tag: 'alerts',
          summary: "The alert's scheduled mutes with their current or next window",
          id: 'alert id',
          ok: [200, 'AlertScheduledMutes'],
          errors: { 404: "no such alert, or another account's (not_found)" },
        },
        'Each schedule as GET /v2/schedules/{id} reads it, plus whether it mutes the alert now and its window.',
      ),
    },
  };
}
