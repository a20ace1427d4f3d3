import { loadSchema, type SchemaName } from '../model/schemas.js';
import { ERROR_CATALOGUE } from './errors.js';

type Json = Record<string, unknown>;

const API_SCHEMAS: readonly SchemaName[] = ['alert', 'channel', 'schedule'];

/**
 * The OpenAPI 3.1 document of the /v2 API, built from the same JSON Schemas the server validates with: every
 * `$defs` entry of schemas/{alert,channel,schedule}.schema.json becomes `components.schemas.<doc>.<def>`, with
 * its $refs rewritten to match; the response shapes are added here.
 */
export function buildOpenApiDocument(): Json {
  const schemas: Json = {};
  for (const name of API_SCHEMAS) {
    const defs = (loadSchema(name).$defs ?? {}) as Record<string, unknown>;
    for (const [def, schema] of Object.entries(defs)) schemas[`${name}.${def}`] = rewriteRefs(schema, name);
  }
  Object.assign(schemas, RESPONSE_SCHEMAS);
  return {
    openapi: '3.1.0',
    info: {
      title: 'alertform /v2 Alerts and Notification Channels API',
      version: '2',
      description:
        'The Hosted Graphite /v2 alerts API as alertform serves it. Statuses follow the reference exactly, odd ones ' +
        'included (delete of a missing alert 400, read of a missing channel 400, invalid channel create 404); ' +
        'error.code says what happened. Trailing slashes are optional.',
    },
    servers: [{ url: '/' }],
    security: [{ basic: [] }, { bearer: [] }],
    components: {
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'The API key as user name (http://KEY@host/), any password.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a Bearer token.' },
      },
      schemas,
    },
    paths: buildPaths(),
  };
}

function rewriteRefs(value: unknown, doc: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, doc));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string') {
      const match = /^(?:([a-z]+)\.schema\.json)?#\/\$defs\/(.+)$/.exec(inner);
      out[key] = match ? `#/components/schemas/${match[1] ?? doc}.${match[2]}` : inner;
    } else {
      out[key] = rewriteRefs(inner, doc);
    }
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const stringList = { type: 'array', items: { type: 'string' } };

const RESPONSE_SCHEMAS: Json = {
  Error: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { enum: Object.keys(ERROR_CATALOGUE) },
          message: { type: 'string' },
          details: {
            type: 'array',
            items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
            maxItems: 100,
          },
          details_total: { type: 'integer', description: 'How many problems there were, when more than the 100 listed' },
        },
      },
    },
  },
  Created: { type: 'object', required: ['id', 'url'], properties: { id: { type: 'string' }, url: { type: 'string' } } },
  Deleted: {
    type: 'object',
    properties: { id: { type: 'string' }, deleted: { const: true }, alerts_changed: { type: 'integer' } },
  },
  AlertRead: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      metric: { type: 'string' },
      alert_criteria: ref('alert.criteria'),
      additional_criteria: ref('alert.additionalCriteria'),
      expression: { type: 'string' },
      notification_channels: stringList,
      notification_type: ref('alert.notificationType'),
      scheduled_mutes: stringList,
      currently_triggered_metrics: stringList,
      muted: { type: 'boolean' },
      status: { type: 'string', examples: ['healthy', 'alerting'] },
      info: { type: ['string', 'null'] },
      on_query_failure: { enum: [null, 'ignore', 'notify'] },
    },
  },
  AlertPage: {
    type: 'object',
    properties: { alerts: { type: 'array', items: ref('AlertRead') }, next_page: { type: 'boolean' } },
  },
  MuteStatus: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      muted: { type: 'boolean' },
      duration: { type: 'integer', description: 'Remaining whole minutes, rounded up; 0 when not muted.' },
      scheduled_mutes: stringList,
    },
  },
  MuteResult: { type: 'object', properties: { duration: { type: 'integer' } } },
  BulkMuteResult: { type: 'object', properties: { ids: stringList, duration: { type: 'integer' } } },
  HistoryEntry: {
    type: 'object',
    properties: {
      status: { type: 'string', examples: ['alerting', 'recovered', 'query_failed'] },
      value: { type: ['number', 'null'] },
      time: { type: 'string', description: 'Unix seconds.' },
      metric: { type: 'string' },
    },
  },
  History: { type: 'object', additionalProperties: { type: 'array', items: ref('HistoryEntry') } },
  ChannelRead: {
    type: 'object',
    properties: {
      type: { type: 'string' },
      description: { type: 'string' },
      destination: { type: 'string' },
      id: { type: 'string' },
      auto_resolve: { type: 'boolean' },
      last_error: { type: 'object', properties: { time: { type: 'string' }, message: { type: 'string' } } },
    },
  },
  ChannelPage: {
    type: 'object',
    properties: { notifications: { type: 'array', items: ref('ChannelRead') }, next_page: { type: 'boolean' } },
  },
  ScheduleRead: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      start_time: { type: 'string' },
      duration: { type: 'integer' },
      timezone: { type: 'string' },
      repeat: stringList,
      alerts: stringList,
    },
  },
  SchedulePage: {
    type: 'object',
    properties: { schedules: { type: 'array', items: ref('ScheduleRead') }, next_page: { type: 'boolean' } },
  },
};

type Op = {
  summary: string;
  body?: string;
  ok: [number, string];
  errors: Record<number, string>;
  query?: Array<[string, string, boolean?]>;
  id?: string;
};

function operation(op: Op): Json {
  const responses: Json = {
    [op.ok[0]]: { description: 'success', content: { 'application/json': { schema: ref(op.ok[1]) } } },
    401: errorResponse('missing or unknown API key (unauthorized)'),
    413: errorResponse('body larger than 1 MiB (payload_too_large)'),
  };
  for (const [status, why] of Object.entries(op.errors)) responses[status] = errorResponse(why);
  return {
    summary: op.summary,
    ...(op.id || op.query
      ? {
          parameters: [
            ...(op.id ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: op.id }] : []),
            ...(op.query ?? []).map(([name, description, repeatable]) => ({
              name,
              in: 'query',
              description,
              ...(repeatable ? { explode: true, schema: stringList } : { schema: { type: 'string' } }),
            })),
          ],
        }
      : {}),
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.body) } } } }
      : {}),
    responses,
  };
}

function errorResponse(description: string): Json {
  return { description, content: { 'application/json': { schema: ref('Error') } } };
}

const PAGING: Array<[string, string]> = [
  ['page', 'Page number, from 1 (default 1).'],
  ['max', 'Page size, 1..100 (default 100).'],
];

function buildPaths(): Json {
  return {
    '/healthz': { get: { summary: 'Liveness (no key)', security: [], responses: { 200: { description: 'ok' } } } },
    '/readyz': {
      get: {
        summary: 'Readiness: database reachable, migrations done, evaluator running (no key)',
        security: [],
        responses: { 200: { description: 'ready, with each check' }, 503: { description: 'not ready, with the checks that failed' } },
      },
    },
    '/metrics': { get: { summary: 'Prometheus metrics (no key)', security: [], responses: { 200: { description: 'text exposition format' } } } },
    '/v2/openapi.json': { get: { summary: 'This document (no key)', security: [], responses: { 200: { description: 'OpenAPI 3.1' } } } },
    '/v2/alerts/': {
      post: operation({ summary: '1. Create an alert', body: 'alert.create', ok: [201, 'Created'], errors: { 400: 'invalid body (invalid_body)', 409: 'name exists (conflict)' } }),
      get: operation({
        summary: '2. Search alerts: (name OR id) AND search',
        ok: [200, 'AlertPage'],
        errors: { 400: 'invalid query (invalid_query)' },
        query: [['name', 'Alert name (repeatable, OR).', true], ['id', 'Alert id (repeatable, OR).', true], ['search', 'Substring of name, metric or a channel description.'], ...PAGING],
      }),
    },
    '/v2/alerts/{id}/': {
      get: operation({ summary: '3. Read one alert', id: 'alert id', ok: [200, 'AlertRead'], errors: { 404: 'no such alert (not_found)' } }),
      put: operation({ summary: '4. Update an alert (partial)', id: 'alert id', body: 'alert.update', ok: [200, 'AlertRead'], errors: { 400: 'invalid body (invalid_body)', 404: 'no such alert (not_found)', 409: 'name exists (conflict)' } }),
      delete: operation({ summary: '5. Delete an alert', id: 'alert id', ok: [200, 'Deleted'], errors: { 400: 'no such alert (not_found, status as documented)' } }),
    },
    '/v2/alerts/{id}/muted/': {
      post: operation({ summary: '6. Mute an alert', id: 'alert id', body: 'alert.mute', ok: [200, 'MuteResult'], errors: { 400: 'invalid body (invalid_body)', 404: 'no such alert (not_found)' } }),
      delete: operation({ summary: '7. Unmute an alert', id: 'alert id', ok: [200, 'MuteStatus'], errors: { 404: 'no such alert (not_found)' } }),
      get: operation({ summary: '8. Mute status', id: 'alert id', ok: [200, 'MuteStatus'], errors: { 404: 'no such alert (not_found)' } }),
    },
    '/v2/alerts/muted/': {
      post: operation({ summary: '9. Mute alerts (ids and/or search; both empty = all), all or nothing', body: 'alert.bulkMute', ok: [200, 'BulkMuteResult'], errors: { 400: 'invalid body (invalid_body)', 404: 'an id does not exist (not_found); nothing changed' } }),
      delete: operation({ summary: '10. Unmute alerts, all or nothing', body: 'alert.bulkUnmute', ok: [200, 'BulkMuteResult'], errors: { 400: 'invalid body (invalid_body)', 404: 'an id does not exist (not_found); nothing changed' } }),
    },
    '/v2/alerts/history/': {
      get: operation({
        summary: '11. Alert history, keyed by alert id, newest first',
        ok: [200, 'History'],
        errors: { 400: 'invalid query (invalid_query)' },
        query: [['id', 'Alert id (repeatable; alias alert_id).', true], ['days', 'Days back, 1..90 (default 3).'], ['status', 'alerting, recovered or query_failed.'], ['value', 'Exact value.'], ['time', 'Entries at or after this unix time.']],
      }),
    },
    '/v2/notifications/': {
      post: operation({ summary: '12. Create a channel', body: 'channel.create', ok: [201, 'Created'], errors: { 404: 'invalid body (invalid_body, status as documented)', 409: 'description exists (conflict)' } }),
      get: operation({
        summary: '13. Search channels (criteria OR-ed)',
        ok: [200, 'ChannelPage'],
        errors: { 400: 'invalid query (invalid_query)' },
        query: [['type', 'Channel type (repeatable).', true], ['description', 'Description (repeatable; alias descriptions).', true], ['id', 'Channel id (repeatable).', true], ['auto_resolve', 'true or false (pagerduty, victorops).'], ...PAGING],
      }),
    },
    '/v2/notifications/{id}/': {
      get: operation({ summary: '14. Read one channel', id: 'channel id', ok: [200, 'ChannelRead'], errors: { 400: 'no such channel (not_found, status as documented)' } }),
      put: operation({ summary: '15. Update a channel (partial)', id: 'channel id', body: 'channel.update', ok: [200, 'ChannelRead'], errors: { 400: 'invalid body (invalid_body)', 404: 'no such channel (not_found)', 409: 'description exists (conflict)' } }),
      delete: operation({ summary: '16. Delete a channel (removed from its alerts)', id: 'channel id', ok: [200, 'Deleted'], errors: { 404: 'no such channel (not_found)' } }),
    },
    '/v2/schedules/': {
      post: operation({ summary: 'Create a scheduled mute', body: 'schedule.create', ok: [201, 'Created'], errors: { 400: 'invalid body (invalid_body)', 409: 'name exists (conflict)' } }),
      get: operation({ summary: 'Search scheduled mutes (name OR id)', ok: [200, 'SchedulePage'], errors: { 400: 'invalid query (invalid_query)' }, query: [['name', 'Name (repeatable).', true], ['id', 'Id (repeatable).', true], ...PAGING] }),
    },
    '/v2/schedules/{id}/': {
      get: operation({ summary: 'Read a scheduled mute', id: 'schedule id', ok: [200, 'ScheduleRead'], errors: { 404: 'no such schedule (not_found)' } }),
      put: operation({ summary: 'Update a scheduled mute (partial)', id: 'schedule id', body: 'schedule.update', ok: [200, 'ScheduleRead'], errors: { 400: 'invalid body (invalid_body)', 404: 'no such schedule (not_found)', 409: 'name exists (conflict)' } }),
      delete: operation({ summary: 'Delete a scheduled mute (removed from its alerts)', id: 'schedule id', ok: [200, 'Deleted'], errors: { 404: 'no such schedule (not_found)' } }),
    },
  };
}
