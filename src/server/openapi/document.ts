import { loadSchema, type SchemaName } from '../../model/schemas.js';
import { CHANNEL_TYPES, WEEKDAYS } from '../../model/types.js';
import { makePortable } from './portable.js';
import { RESPONSE_SCHEMAS, ref } from './responses.js';
import { DELIVERY_STATES } from '../routes/deliveries.js';
import { CONSOLE_RESPONSE_SCHEMAS, buildConsolePaths } from './console.js';
import { OVERVIEW_RESPONSE_SCHEMAS, buildOverviewPaths } from './console-overview.js';
import { ACK_RESPONSE_SCHEMAS, buildAckPaths } from './ack.js';
import { HISTORY_STATUSES } from '../routes/history.js';
import { WEBHOOK_RESPONSE_SCHEMAS, buildWebhooks } from './webhooks.js';
import { extensionOperation } from './parts.js';
import { WINDOW_RESPONSE_SCHEMAS, buildOverviewGroupsPaths, buildWindowPaths } from './windows.js';

type Json = Record<string, unknown>;

const API_SCHEMAS: readonly SchemaName[] = ['alert', 'channel', 'schedule'];

/**
 * The OpenAPI 3.1 document of the /v2 API, built from the same JSON Schemas the server validates with: every
 * `$defs` entry of schemas/{alert,channel,schedule}.schema.json becomes `components.schemas.<doc>.<def>`, with
 * its $refs rewritten to match; the response shapes come from responses.ts. Everything is then made
 * portable (portable.ts) so that code generators and validators read it as the server means it.
 */
export function buildOpenApiDocument(): Json {
  const schemas: Json = {};
  for (const name of API_SCHEMAS) {
    const defs = (loadSchema(name).$defs ?? {}) as Record<string, unknown>;
    for (const [def, schema] of Object.entries(defs)) schemas[`${name}.${def}`] = rewriteRefs(schema, name);
  }
  Object.assign(schemas, RESPONSE_SCHEMAS, CONSOLE_RESPONSE_SCHEMAS, OVERVIEW_RESPONSE_SCHEMAS, ACK_RESPONSE_SCHEMAS, WEBHOOK_RESPONSE_SCHEMAS, WINDOW_RESPONSE_SCHEMAS);
  return {
    openapi: '3.1.0',
    info: {
      title: 'alertform /v2 Alerts and Notification Channels API',
      version: '2',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'The Hosted Graphite /v2 alerts API as alertform serves it. Statuses follow the reference exactly, odd ones ' +
        'included (delete of a missing alert 400, read of a missing channel 400, invalid channel create 404); ' +
        'error.code says what happened. Paths end with a slash as the reference writes them; the server answers ' +
        'them without it too. Any body that is not a JSON object is 400, whatever the operation.',
    },
    servers: [{ url: '/', description: 'The server that serves this document.' }],
    security: [{ basic: [] }, { bearer: [] }],
    tags: [
      { name: 'alerts', description: 'Alert rules, their mutes and history.' },
      { name: 'notifications', description: 'Notification channels.' },
      { name: 'schedules', description: 'Scheduled mutes.' },
      { name: 'maintenance_windows', description: "Maintenance windows: mutes by pattern, once or recurring (alertform's own, additive)." },
      { name: 'deliveries', description: "Notifications in the server's outbox (alertform's own, additive)." },
      { name: 'service', description: 'Liveness and this document (no key).' },
    ],
    components: {
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'The API key as user name (http://KEY@host/), any password.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a Bearer token.' },
      },
      schemas: dropUnreferenced(makePortable(schemas)),
    },
    paths: buildPaths(),
    webhooks: buildWebhooks(),
  };
}

/**
 * The components something refers to, directly or through another. The schemas' `fields` parts, once copied into
 * create and update, are left unused, and an unused component only confuses a reader (and the linters).
 */
function dropUnreferenced(schemas: Json): Json {
  const paths = JSON.stringify([buildPaths(), buildWebhooks()]);
  const used = new Set<string>();
  const visit = (text: string) => {
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (name && !used.has(name) && name in schemas) {
        used.add(name);
        visit(JSON.stringify(schemas[name]));
      }
    }
  };
  visit(paths);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
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

/** A query parameter: its name, description and schema; `list` makes it repeatable (?id=a&id=b). */
interface QueryParam {
  name: string;
  description: string;
  schema?: Json;
  list?: boolean;
}

export interface Op {
  operationId: string;
  summary: string;
  tag: string;
  /** Component name of the JSON request body. */
  body?: string;
  ok: [number, string];
  /** Statuses the operation answers besides success, 401, 429 (its own limit may be added), 500 and (with a body) 400 and 413. */
  errors?: Record<number, string>;
  query?: QueryParam[];
  /** What the {id} path parameter names. */
  id?: string;
}

const PAGING: QueryParam[] = [
  { name: 'page', description: 'Page number, from 1 (default 1).', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'max', description: 'Page size, 1..100 (default 100).', schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 } },
];

/** Query booleans as clients send them: JSON's true/false, Python's True/False, or 1/0. */
const QUERY_BOOLEAN = { type: 'string', enum: ['true', 'false', 'True', 'False', '1', '0'] };

function operation(op: Op): Json {
  const responses: Json = {
    [op.ok[0]]: { description: 'Success.', content: { 'application/json': { schema: ref(op.ok[1]) } } },
  };
  const errors: Record<number, string> = { ...op.errors };
  if (op.body) {
    // Checked before anything else, so every operation with a body answers these, whatever its other statuses.
    errors[400] = [errors[400], 'body not JSON or not a JSON object (invalid_body)'].filter(Boolean).join('; ');
    errors[413] = 'body larger than 1 MiB (payload_too_large)';
  }
  errors[401] = 'missing or unknown API key (unauthorized)';
  // An operation's own limit (e.g. test notifications) is said before the one every operation has.
  errors[429] = [errors[429], 'too many failed authentications from this address; see Retry-After (rate_limited)'].filter(Boolean).join('; ');
  errors[500] = 'unexpected failure, logged by the server (internal)';
  for (const [status, why] of Object.entries(errors).sort(([a], [b]) => Number(a) - Number(b))) {
    responses[status] = {
      description: why.charAt(0).toUpperCase() + why.slice(1) + '.',
      ...(status === '401'
        ? { headers: { 'WWW-Authenticate': { description: 'Basic realm="alertform"', schema: { type: 'string' } } } }
        : status === '429'
          ? { headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } }
          : {}),
      content: { 'application/json': { schema: ref('Error') } },
    };
  }
  const parameters = [
    ...(op.id ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: op.id }] : []),
    ...(op.query ?? []).map((param) => ({
      name: param.name,
      in: 'query',
      description: param.description,
      required: false,
      ...(param.list
        ? { style: 'form', explode: true, schema: { type: 'array', items: param.schema ?? { type: 'string' } } }
        : { schema: param.schema ?? { type: 'string' } }),
    })),
  ];
  return {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.body) } } } } : {}),
    responses,
  };
}

const NO_ALERT = 'no such alert (not_found)';
const NO_CHANNEL = 'no such channel (not_found)';
const NO_SCHEDULE = 'no such scheduled mute (not_found)';
const READ_ONLY_NOTE =
  'An object exactly as GET returned it is accepted: read-only fields are ignored when `id` is this id (another id is 400).';

function openOperation(operationId: string, summary: string, schema: Json, more: Json = {}): Json {
  return {
    operationId,
    summary,
    tags: ['service'],
    security: [],
    responses: { 200: { description: 'Success.', content: { 'application/json': { schema } } }, ...more },
  };
}

function buildPaths(): Json {
  return {
    '/healthz': { get: openOperation('getHealth', 'Liveness (no key)', ref('Health')) },
    '/readyz': {
      get: openOperation('getReadiness', 'Readiness: database reachable, migrations done, evaluator running (no key)', ref('Readiness'), {
        503: { description: 'Not ready: the checks say which failed.', content: { 'application/json': { schema: ref('Readiness') } } },
      }),
    },
    '/healthz/evaluation': {
      get: openOperation('getEvaluationHealth', "Evaluation health: this process's cycles end and Graphite answers (no key; not readiness: a load balancer watches /readyz)", ref('EvaluationHealth'), {
        503: { description: 'Evaluation does not work: the status says why.', content: { 'application/json': { schema: ref('EvaluationHealth') } } },
      }),
    },
    '/metrics': {
      get: {
        ...openOperation('getMetrics', 'Prometheus metrics (no API key; the metrics token as a Bearer token when serve has --metrics-token)', { type: 'string' }),
        responses: {
          200: { description: 'Prometheus text exposition format.', content: { 'text/plain': { schema: { type: 'string' } } } },
          401: { description: 'serve has --metrics-token and the request did not carry it (unauthorized).', content: { 'application/json': { schema: ref('Error') } } },
        },
      },
    },
    '/v2/openapi.json': { get: openOperation('getOpenApiDocument', 'This document (no key)', { type: 'object' }) },
    '/v2/alerts/': {
      post: operation({ operationId: 'createAlert', tag: 'alerts', summary: '1. Create an alert', body: 'alert.create', ok: [201, 'Created'], errors: { 403: 'the account holds as many as the operator allows (quota_exceeded)', 400: 'invalid body (invalid_body)', 409: 'name exists (conflict)' } }),
      get: operation({
        operationId: 'searchAlerts',
        tag: 'alerts',
        summary: '2. Search alerts: (name OR id) AND search',
        ok: [200, 'AlertPage'],
        errors: { 400: 'invalid query (invalid_query)' },
        query: [
          { name: 'name', description: 'Alert name (repeatable, OR-ed with id).', list: true },
          { name: 'id', description: 'Alert id (repeatable, OR-ed with name).', list: true },
          { name: 'search', description: "Case-insensitive substring of the name, the metric, an additional criterion's metric or a channel description; AND-ed with the rest." },
          ...PAGING,
        ],
      }),
    },
    '/v2/alerts/{id}/': {
      get: operation({ operationId: 'getAlert', tag: 'alerts', summary: '3. Read one alert', id: 'alert id', ok: [200, 'AlertRead'], errors: { 404: NO_ALERT } }),
      put: {
        ...operation({ operationId: 'updateAlert', tag: 'alerts', summary: '4. Update an alert (partial)', id: 'alert id', body: 'alert.update', ok: [200, 'AlertRead'], errors: { 400: 'invalid body, or an id that is not this one (invalid_body)', 404: NO_ALERT, 409: 'name exists (conflict)' } }),
        description: `Only the fields given change; the merged alert is checked as a whole. ${READ_ONLY_NOTE}`,
      },
      delete: operation({ operationId: 'deleteAlert', tag: 'alerts', summary: '5. Delete an alert', id: 'alert id', ok: [200, 'Deleted'], errors: { 400: 'no such alert (not_found; 400 as the reference documents)' } }),
    },
    '/v2/alerts/{id}/muted/': {
      post: operation({ operationId: 'muteAlert', tag: 'alerts', summary: '6. Mute an alert', id: 'alert id', body: 'alert.mute', ok: [200, 'MuteResult'], errors: { 400: 'invalid body (invalid_body)', 404: NO_ALERT } }),
      delete: {
        ...operation({ operationId: 'unmuteAlert', tag: 'alerts', summary: '7. Unmute an alert', id: 'alert id', ok: [200, 'MuteStatus'], errors: { 400: 'invalid body (invalid_body)', 404: NO_ALERT } }),
        // Optional: who unmutes and why (alertform's audit); no body is the seed's call.
        requestBody: { required: false, content: { 'application/json': { schema: { $ref: '#/components/schemas/alert.unmute' } } } },
      },
      get: operation({ operationId: 'getAlertMuteStatus', tag: 'alerts', summary: '8. Mute status', id: 'alert id', ok: [200, 'MuteStatus'], errors: { 404: NO_ALERT } }),
    },
    '/v2/alerts/muted/': {
      post: operation({ operationId: 'muteAlerts', tag: 'alerts', summary: '9. Mute alerts (ids and/or search; both empty = all), all or nothing', body: 'alert.bulkMute', ok: [200, 'BulkMuteResult'], errors: { 400: 'invalid body (invalid_body)', 404: 'an id does not exist (not_found); nothing changed' } }),
      delete: operation({ operationId: 'unmuteAlerts', tag: 'alerts', summary: '10. Unmute alerts, all or nothing', body: 'alert.bulkUnmute', ok: [200, 'BulkUnmuteResult'], errors: { 400: 'invalid body (invalid_body)', 404: 'an id does not exist (not_found); nothing changed' } }),
    },
    '/v2/alerts/history/': {
      get: operation({
        operationId: 'getAlertHistory',
        tag: 'alerts',
        summary: '11. Alert history, keyed by alert id, newest first',
        ok: [200, 'History'],
        errors: { 400: "invalid query, or an id that is not one of this account's alerts (invalid_query)" },
        query: [
          { name: 'id', description: 'Alert id (repeatable; all alerts when absent).', list: true },
          { name: 'alert_id', description: 'Alias of `id`, as the reference text also spells it (repeatable).', list: true },
          { name: 'days', description: 'Days back, 1..90 (default 3).', schema: { type: 'integer', minimum: 1, maximum: 90, default: 3 } },
          { name: 'status', description: 'Only entries of this status.', schema: { type: 'string', enum: [...HISTORY_STATUSES] } },
          { name: 'value', description: 'Only entries of exactly this value.', schema: { type: 'number' } },
          { name: 'time', description: 'Only entries at or after this unix time (seconds).', schema: { type: 'integer', minimum: 0 } },
        ],
      }),
    },
    '/v2/notifications/': {
      post: operation({ operationId: 'createChannel', tag: 'notifications', summary: '12. Create a channel', body: 'channel.create', ok: [201, 'Created'], errors: { 403: 'the account holds as many as the operator allows (quota_exceeded)', 404: 'invalid body (invalid_body; 404 as the reference documents)', 409: 'description exists (conflict)' } }),
      get: operation({
        operationId: 'searchChannels',
        tag: 'notifications',
        summary: '13. Search channels (criteria OR-ed)',
        ok: [200, 'ChannelPage'],
        errors: { 400: 'invalid query (invalid_query)' },
        query: [
          { name: 'type', description: 'Channel type (repeatable).', list: true, schema: { type: 'string', enum: [...CHANNEL_TYPES] } },
          { name: 'description', description: 'Description (repeatable).', list: true },
          { name: 'descriptions', description: 'Alias of `description`, as the reference text spells it (repeatable).', list: true },
          { name: 'id', description: 'Channel id (repeatable).', list: true },
          { name: 'auto_resolve', description: 'true or false (also True/False, 1/0).', schema: QUERY_BOOLEAN },
          ...PAGING,
        ],
      }),
    },
    '/v2/notifications/{id}/': {
      get: operation({ operationId: 'getChannel', tag: 'notifications', summary: '14. Read one channel', id: 'channel id', ok: [200, 'ChannelRead'], errors: { 400: 'no such channel (not_found; 400 as the reference documents)' } }),
      put: {
        ...operation({ operationId: 'updateChannel', tag: 'notifications', summary: '15. Update a channel (partial)', id: 'channel id', body: 'channel.update', ok: [200, 'ChannelRead'], errors: { 400: 'invalid body, or an id that is not this one (invalid_body)', 404: NO_CHANNEL, 409: 'description exists (conflict)' } }),
        description: `Only the fields given change. ${READ_ONLY_NOTE}`,
      },
      delete: operation({ operationId: 'deleteChannel', tag: 'notifications', summary: '16. Delete a channel (removed from its alerts)', id: 'channel id', ok: [200, 'ChannelDeleted'], errors: { 404: NO_CHANNEL } }),
    },
    '/v2/notifications/{id}/signing-secret/': {
      get: extensionOperation(operation)(
        { operationId: 'getChannelSigningSecret', tag: 'notifications', summary: "The secret that signs a channel's webhook bodies", id: 'channel id', ok: [200, 'ChannelSigningSecret'], errors: { 404: NO_CHANNEL } },
        'Derived by the server from its own key, the channel id and the channel\'s generation: the same on every read and every replica until the channel rotates it. Webhook bodies carry `Alertform-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<exact body>">` under it (and, while a rotation lasts, a second `v1=` under `previous_signing_secret`), and the body-only `X-Alertform-Signature: sha256=<hex HMAC-SHA256 of the exact body>` (see `webhooks`). Answered with Cache-Control: no-store; never logged.',
      ),
    },
    '/v2/notifications/{id}/signing-secret/rotate/': {
      post: {
        ...extensionOperation(operation)(
          { operationId: 'rotateChannelSigningSecret', tag: 'notifications', summary: "A new signing secret for a channel, the old one still signing for a while", id: 'channel id', ok: [200, 'ChannelSigningSecret'], errors: { 400: 'invalid body (invalid_body)', 404: NO_CHANNEL } },
          'The channel moves to a new secret at once. The secret it replaces keeps signing, as a second `v1=` of `Alertform-Signature`, for `previous_valid_seconds` (default 86400, at most 604800; 0 ends it now); a secret older than that stops at once. Answers the new secret and the previous one with its end.',
        ),
        requestBody: {
          required: false,
          content: {
            'application/json': {
              schema: { type: 'object', additionalProperties: false, properties: { previous_valid_seconds: { type: 'integer', minimum: 0, maximum: 604800, default: 86400, description: 'How long the replaced secret still signs.' } } },
            },
          },
        },
      },
    },
    '/v2/deliveries/': {
      get: operation({
        operationId: 'listDeliveries',
        tag: 'deliveries',
        summary: "The account's notifications in the outbox, oldest first (no destinations, no payloads)",
        ok: [200, 'DeliveryPage'],
        errors: { 400: 'invalid query (invalid_query)', 404: 'alert_id names no alert of this account (not_found)' },
        query: [
          { name: 'state', description: 'pending, dead, delivered, or (noise control) held and summarized: what a channel throttle held back (repeatable; default pending and dead).', list: true, schema: { type: 'string', enum: [...DELIVERY_STATES] } },
          { name: 'alert_id', description: "Only this alert's deliveries (an alertform extension for the console; another account's alert is 404)." },
          ...PAGING,
        ],
      }),
    },
    '/v2/schedules/': {
      post: operation({ operationId: 'createSchedule', tag: 'schedules', summary: 'Create a scheduled mute', body: 'schedule.create', ok: [201, 'Created'], errors: { 403: 'the account holds as many as the operator allows (quota_exceeded)', 400: 'invalid body (invalid_body)', 409: 'name exists (conflict)' } }),
      get: operation({
        operationId: 'searchSchedules',
        tag: 'schedules',
        summary: 'Search scheduled mutes (criteria OR-ed)',
        ok: [200, 'SchedulePage'],
        errors: { 400: 'invalid query (invalid_query)' },
        query: [
          { name: 'name', description: 'Name (repeatable).', list: true },
          { name: 'id', description: 'Id (repeatable).', list: true },
          { name: 'duration', description: 'Duration in minutes (repeatable).', list: true, schema: { type: 'integer', minimum: 1 } },
          { name: 'start_time', description: 'Start time HH:MM (repeatable).', list: true, schema: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' } },
          { name: 'timezone', description: 'Timezone, any spelling of the offset (repeatable; an unencoded + is read as +).', list: true },
          { name: 'repeat', description: 'A week day the schedule repeats on (repeatable).', list: true, schema: { type: 'string', enum: [...WEEKDAYS] } },
          ...PAGING,
        ],
      }),
    },
    '/v2/schedules/{id}/': {
      get: operation({ operationId: 'getSchedule', tag: 'schedules', summary: 'Read a scheduled mute', id: 'schedule id', ok: [200, 'ScheduleRead'], errors: { 404: NO_SCHEDULE } }),
      put: {
        ...operation({ operationId: 'updateSchedule', tag: 'schedules', summary: 'Update a scheduled mute (partial)', id: 'schedule id', body: 'schedule.update', ok: [200, 'ScheduleRead'], errors: { 400: 'invalid body, or an id that is not this one (invalid_body)', 404: NO_SCHEDULE, 409: 'name exists (conflict)' } }),
        description: `Only the fields given change. ${READ_ONLY_NOTE}`,
      },
      delete: operation({ operationId: 'deleteSchedule', tag: 'schedules', summary: 'Delete a scheduled mute (removed from its alerts)', id: 'schedule id', ok: [200, 'Deleted'], errors: { 404: NO_SCHEDULE } }),
    },
    ...buildConsolePaths(operation),
    ...buildOverviewPaths(operation),
    ...buildAckPaths(operation),
    ...buildWindowPaths(operation),
    ...buildOverviewGroupsPaths(operation),
  };
}
