import { ACKNOWLEDGEMENT_SCHEMA } from './ack.js';
import { MAX_MUTE_MINUTES } from '../../model/defaults.js';
import { CHANNEL_TYPES, WEEKDAYS } from '../../model/types.js';
import { ERROR_CATALOGUE } from '../errors.js';
import { HISTORY_STATUSES } from '../routes/history.js';
import { always, type Json, nullable } from './parts.js';

/** A $ref to a component schema. */
export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

const string = { type: 'string' };
const stringList = { type: 'array', items: string };


const STATE_CHANGE = { const: 'state_change', description: 'Notify on each state change.' };
const EVERY = { const: 'every', description: 'Notify on each change, then at most every N minutes.' };
const MINUTES = { type: 'integer', minimum: 1, maximum: MAX_MUTE_MINUTES, description: 'N, in minutes.' };

/**
 * The response shapes of the /v2 API as alertform's server sends them (the request shapes come from schemas/).
 * `required` lists what is always there; optional properties are the additive ones that come and go.
 */
export const RESPONSE_SCHEMAS: Json = {
  Error: always({
    error: always({
      code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE), description: 'What happened, whatever the status.' },
      message: string,
      details: {
        type: 'array',
        description: 'One entry per field or parameter at fault (at most 100).',
        items: always({ path: { type: 'string', description: 'Dot path, e.g. alert_criteria.above_value.' }, message: string }),
        maxItems: 100,
      },
      details_total: { type: 'integer', description: 'How many problems there were, when more than the 100 listed.' },
    }, { required: ['code', 'message'] }),
  }),
  Created: always(
    {
      id: string,
      url: { type: 'string', description: 'Path of the new object, e.g. /v2/alerts/<id>.' },
    },
    {
      properties: {
        id: string,
        url: { type: 'string', description: 'Path of the new object, e.g. /v2/alerts/<id>.' },
        warnings: {
          type: 'array',
          items: string,
          description: "Additive (alert creates): what will not work as the alert stands, e.g. its only channel is an `Email me` without an address, so every notification would be dead-lettered. Absent when there is nothing to say.",
        },
      },
    },
  ),
  Deleted: always({ id: string, deleted: { type: 'boolean', const: true } }),
  ChannelDeleted: always({
    id: string,
    deleted: { type: 'boolean', const: true },
    alerts_changed: { type: 'integer', minimum: 0, description: 'Alerts the channel was removed from.' },
  }),
  NotificationTypeRead: {
    type: 'array',
    description:
      'Always the list form: `["state_change"]`, or `["every", N]` with "every" first and N (minutes) second. ' +
      'Spelled without relying on prefixItems: `items` allows the values of any position.',
    oneOf: [
      { type: 'array', title: 'state change', prefixItems: [STATE_CHANGE], items: STATE_CHANGE, minItems: 1, maxItems: 1 },
      {
        type: 'array',
        title: 'every N minutes',
        prefixItems: [EVERY, MINUTES],
        items: { anyOf: [EVERY, MINUTES] },
        minItems: 2,
        maxItems: 2,
      },
    ],
  },
  AlertRead: always({
    id: string,
    name: ref('alert.name'),
    metric: ref('alert.metric'),
    alert_criteria: ref('alert.criteria'),
    additional_criteria: ref('alert.additionalCriteria'),
    expression: { type: 'string', description: 'Canonical form, letters lower case; `a` for a plain alert.' },
    notification_channels: { ...stringList, maxItems: 20, description: "Channel ids (names given on write are resolved). At most 20 distinct channels with the escalation steps' channels." },
    notification_type: ref('NotificationTypeRead'),
    scheduled_mutes: { ...stringList, description: 'Ids of scheduled mutes.' },
    currently_triggered_metrics: { ...stringList, description: 'Series that hold now (read-only).' },
    muted: { type: 'boolean', description: 'Muted by hand or by an active scheduled mute (read-only).' },
    status: { type: 'string', enum: ['healthy', 'alerting'], description: 'Set by the evaluator (read-only).' },
    state: {
      type: 'string',
      enum: ['healthy', 'alerting', 'no_data', 'query_failing', 'not_evaluated'],
      description:
        "alertform extension (read-only): what the server knows about the alert now, the same answer as the console, `alertform status` and /metrics. " +
        'not_evaluated: nothing evaluates it (no --graphite-url) or it was never judged; query_failing: its queries failed at the last cycle; ' +
        'no_data: its queries answered no data to judge; otherwise alerting or healthy as `status` says.',
    },
    evaluated_by: {
      type: 'string',
      enum: ['stream', 'render'],
      description:
        'alertform extension (read-only): how this server judges the alert. stream: on the metric stream it receives (`serve --carbon-listen`), as its buckets complete, with no render request; ' +
        'render: by polling Graphite every interval (no stream, a function the local engine does not evaluate, a `missing` rule, or the stream fallen back to polling).',
    },
    info: { type: ['string', 'null'] },
    on_query_failure: {
      type: ['string', 'null'],
      enum: [null, 'ignore', 'notify'],
      description: 'null for a metric without graphite functions; default notify for one with.',
    },
    escalation: {
      ...ref('alert.escalation'),
      description:
        "alertform's own extension (additive; Hosted Graphite has no such field): escalation steps with channel ids, [] when none. " +
        'Each step notifies its channels once when the alert has been alerting (and not acknowledged) for after_minutes.',
    },
    pagerduty_severity: {
      type: ['string', 'null'],
      enum: [null, 'critical', 'error', 'warning', 'info'],
      description: "Extension (alertform): this alert's PagerDuty event severity; null is the default (critical; query failures error).",
    },
    opsgenie_priority: {
      type: ['string', 'null'],
      enum: [null, 'P1', 'P2', 'P3', 'P4', 'P5'],
      description: "Extension (alertform): this alert's OpsGenie priority; null is the default (P1; query failures P3).",
    },
    settle_seconds: {
      type: ['integer', 'null'],
      minimum: 0,
      maximum: 3600,
      description:
        "Extension (alertform): this alert's settle delay in seconds; null is the server's (`serve --settle-delay`, default 60). " +
        'Only data older than now minus the delay is judged, and a 30 s bucket reaching past that cutoff not at all: points that may still be arriving (a late collector, half the series of an aggregate) can neither trigger nor resolve. 0 judges the newest points as they are.',
    },
    on_no_data: {
      type: ['string', 'null'],
      enum: [null, 'ignore', 'notify', 'alerting'],
      description: "Extension (alertform): what no data does for this alert (ignore, notify, alerting); null is the server's default (--on-no-data).",
    },
    acknowledgement: ACKNOWLEDGEMENT_SCHEMA,
    flap_guard: { ...ref('alert.flapGuard'), description: 'alertform extension (noise control): the flap guard, null when none. The hosted service does not return it.' },
    depends_on: { ...ref('alert.dependsOn'), description: 'alertform extension (noise control): the parents, by id; null when none. While one alerts, this alert\'s new pages are held (history `held`). The hosted service does not return it.' },
  }),
  AlertPage: always({
    alerts: { type: 'array', items: ref('AlertRead') },
    next_page: { type: 'boolean', description: 'Whether a further page has items.' },
  }),
  MuteStatus: (() => {
    const fields = {
      id: string,
      name: string,
      muted: { type: 'boolean' },
      duration: { type: 'integer', minimum: 0, description: 'Remaining whole minutes, rounded up; 0 when not muted.' },
      scheduled_mutes: stringList,
    };
    // Sent only while a maintenance window mutes the alert, so not among the required fields.
    const maintenance_window = {
      ...always({ id: string, name: string, until: { type: 'string', description: 'ISO 8601: when its occurrence ends.' } }),
      description: "The maintenance window that mutes the alert now; absent when none does. alertform's own extension (additive).",
    };
    return { ...always(fields), properties: { ...fields, maintenance_window } };
  })(),
  MuteResult: always({ duration: { type: 'integer', minimum: 1 } }),
  BulkMuteResult: always({
    ids: { ...stringList, description: 'The alerts muted.' },
    duration: { type: 'integer', minimum: 1 },
  }),
  BulkUnmuteResult: always({ ids: { ...stringList, description: 'The alerts unmuted.' } }),
  HistoryEntry: always({
    status: { type: 'string', enum: [...HISTORY_STATUSES], description: 'query_failed is additive (not in the seed).' },
    value: {
      type: ['number', 'null'],
      description:
        'A value Graphite returned, never a bucket mean: for `alerting`, the worst point of the window that decided it (the highest for above, ' +
        'the lowest for below, the furthest beyond its bound for outside_bounds); for `recovered`, the series\' latest judged point. ' +
        'null for missing-data alerts and query failures.',
    },
    time: { type: 'string', pattern: '^[0-9]+$', description: 'Unix seconds, as a string.' },
    metric: string,
  }),
  History: {
    type: 'object',
    description: 'Keyed by alert id, each list newest first; only alerts with entries appear.',
    additionalProperties: { type: 'array', items: ref('HistoryEntry') },
  },
  ChannelRead: always(
    {
      type: { type: 'string', enum: [...CHANNEL_TYPES] },
      description: string,
      destination: string,
      id: string,
      auto_resolve: { type: 'boolean' },
      throttle: { ...ref('channel.throttle'), description: 'alertform extension (noise control): the throttle, null when none. The hosted service does not return it.' },
      group_by: { ...ref('channel.groupBy'), description: 'alertform extension (noise control): grouping by path nodes, null when none. The hosted service does not return it.' },
      last_error: {
        ...always({ time: { type: 'string', description: 'Unix seconds, as a string.' }, message: string }),
        description: 'Additive, read-only: the last delivery error, present only while the last delivery failed.',
      },
      pending_deliveries: { type: 'integer', minimum: 1, description: 'Additive, read-only: notifications waiting in the outbox (absent when none).' },
      oldest_pending_seconds: { type: 'integer', minimum: 0, description: 'Additive, read-only: the age of the oldest waiting notification.' },
      template: { ...ref('channel.template'), description: "Extension (alertform): the channel's message template; null: the default message." },
    },
    { required: ['type', 'description', 'destination', 'id', 'auto_resolve', 'throttle', 'template', 'group_by'] },
  ),
  ChannelPage: always({
    notifications: { type: 'array', items: ref('ChannelRead') },
    next_page: { type: 'boolean', description: 'Whether a further page has items.' },
  }),
  DeliveryRead: always({
    id: { type: 'string', description: 'Stable across retries: the webhook body id and Idempotency-Key.' },
    state: {
      type: 'string',
      enum: ['pending', 'delivered', 'dead', 'held', 'summarized'],
      description: 'held: a channel throttle held it back for its window summary (next_attempt_at: when that is due); summarized: listed in a sent `throttled_summary` (noise control, an extension).',
    },
    channel: always({ id: string, type: string, description: string }),
    alert: always({ id: string, name: string }),
    event: {
      type: 'string',
      enum: ['alerting', 'reminder', 'recovered', 'query_failed', 'query_recovered', 'flapping', 'throttled_summary', 'grouped', 'test'],
      description: '`test`: a channel test (POST /v2/notifications/{id}/test/), whose alert id is "". `flapping`: the flap guard paused an alert\'s notifications; `throttled_summary`: what a channel throttle held in a window (alert id ""); `grouped`: one message for a group of a channel with group_by (alert id "").',
    },
    attempts: { type: 'integer', minimum: 0 },
    created_at: { type: 'string', pattern: '^[0-9]+$', description: 'Unix seconds, as a string.' },
    next_attempt_at: { type: ['string', 'null'], description: 'Unix seconds; null once delivered or dead.' },
    last_attempt_at: { type: ['string', 'null'], description: 'Unix seconds; null before the first attempt.' },
    last_error: { type: ['string', 'null'], description: 'Why the last attempt failed: service and class, never the destination.' },
  }),
  DeliveryPage: always({
    deliveries: { type: 'array', items: ref('DeliveryRead') },
    next_page: { type: 'boolean', description: 'Whether a further page has items.' },
  }),
  ScheduleRead: always({
    id: string,
    name: string,
    start_time: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' },
    duration: { type: 'integer', minimum: 1 },
    timezone: { type: 'string', description: 'Normalised: "UTC", "UTC+2", "UTC-5:30".' },
    repeat: { type: 'array', items: { type: 'string', enum: [...WEEKDAYS] } },
    alerts: { ...stringList, description: 'Ids of the alerts that use it (read-only).' },
  }),
  SchedulePage: always({
    scheduled_mutes: { type: 'array', items: ref('ScheduleRead') },
    next_page: {
      description: 'As the public docs give it: the next page number, or false on the last page.',
      oneOf: [{ type: 'integer', minimum: 2 }, { type: 'boolean', const: false }],
    },
  }),
  Health: always({ status: { type: 'string', const: 'ok' } }),
  EvaluationHealth: always({
    status: { type: 'string', enum: ['healthy', 'queries_failing', 'graphite_failing', 'cycle_failed', 'stalled', 'starting', 'not_evaluating'] },
    healthy: { type: 'boolean', description: 'healthy or queries_failing (some alerts read query_failing; evaluation still works).' },
    last_cycle: nullable('object', "This process's last evaluation cycle that ended: ended_at (unix seconds), alerts, queries, failed_queries, deferred_alerts (left out while their account's maintenance windows are first matched)."),
    detail: { type: 'string' },
  }),
  Readiness: always({
    status: { type: 'string', enum: ['ready', 'not ready'] },
    checks: {
      type: 'array',
      description: 'database, migrations, each background service (the evaluator), and `email` on a server without an SMTP server (ready, with a warning).',
      items: always(
        {
          name: string,
          ready: { type: 'boolean' },
          detail: { type: 'string', description: 'What failed (never a credential).' },
          warning: { type: 'string', description: 'Ready, but something will not work as configured, e.g. email channels on a server without --smtp-url (`plan` shows it).' },
        },
        { required: ['name', 'ready'] },
      ),
    },
  }),
};
