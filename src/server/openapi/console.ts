import type { Op } from './document.js';

import { always, EXTENSION, extensionOperation, nullable, unixSeconds, type Json } from './parts.js';

const NO_ALERT = "no such alert, or another account's (not_found)";

/** The response shapes of the console's endpoints, all alertform extensions. */
export const CONSOLE_RESPONSE_SCHEMAS: Json = {
  AlertGraph: always({
    from: unixSeconds,
    until: unixSeconds,
    criteria: {
      type: 'array',
      items: always({
        name: { type: 'string', description: '`alert_criteria`, or the additional_criteria key.' },
        metric: { type: 'string' },
        type: { type: 'string', enum: ['above', 'below', 'outside_bounds', 'missing'] },
        thresholds: { type: 'array', items: { type: 'number' }, description: 'below_value and/or above_value; none for missing.' },
        series: {
          type: 'array',
          description: 'At most 50 series per criterion, each at most 720 points (Graphite consolidates).',
          items: always({
            target: { type: 'string' },
            points: { type: 'array', items: { type: 'array', prefixItems: [unixSeconds, nullable('number')], minItems: 2, maxItems: 2 } },
          }),
        },
      }),
    },
    alerting: { type: 'array', items: always({ from: unixSeconds, until: nullable('integer', 'Null while still alerting.') }) },
    settle_seconds: {
      type: 'integer',
      minimum: 0,
      description: "The alert's settle delay in effect (its settle_seconds, or the server's --settle-delay): data of the last this many seconds (and the 30 s bucket reaching into them) is not judged yet. The console shades it.",
    },
    error: nullable('string', 'Why series are missing: no Graphite configured, a failed query, a query outside the account’s metric prefixes, series cut to 50.'),
  }),
  AlertBacktest: always({
    window_seconds: { type: 'integer' },
    fired: { type: 'integer', minimum: 0, description: 'Times it would have gone from healthy to alerting.' },
    minutes_alerting: { type: 'number', minimum: 0 },
    longest_episode_seconds: { type: 'integer', minimum: 0 },
    episodes: { type: 'array', items: always({ from: unixSeconds, until: nullable('integer', 'Null: still alerting at the end of the window.') }) },
    notifications: { type: 'array', items: always({ channel_id: { type: 'string' }, count: { type: 'integer', minimum: 0 } }) },
    error: nullable('string', 'Why there are no figures: no Graphite, a failed query, a query outside the metric prefixes.'),
    note: nullable('string', 'Why the figures are partial: a criterion matched more than 50 series and only the first 50 were replayed (`alert_criteria: replayed 50 of 200 series`).'),
  }),
  AlertDefinition: always({
    yaml: { type: 'string', description: 'alerts.yaml as alertform pull writes it, with this alert only.' },
    managed_from_git: { type: 'boolean', description: "Written by alertform's apply (header X-Alertform-Managed: git): a change made elsewhere shows as drift in the next plan." },
  }),
  DeliveryAnswer: always({ delivery: { $ref: '#/components/schemas/DeliveryRead' } }),
  AlertTimeline: always({
    entries: {
      type: 'array',
      items: always({
        time: unixSeconds,
        kind: { type: 'string', enum: ['alerting', 'recovered', 'query_failed', 'no_data', 'muted', 'unmuted', 'notification_sent', 'notification_suppressed', 'notification_failed', 'held', 'grouped', 'acknowledged', 'unacknowledged', 'muted_by_window', 'window_changed'] },
        metric: nullable('string'),
        value: nullable('number'),
        channel: { oneOf: [{ type: 'null' }, always({ id: { type: 'string' }, type: { type: 'string' }, description: { type: 'string' } })] },
        reason: nullable('string', 'For notifications: the event (sent) or `event: why` (suppressed: muted, backoff, on_query_failure...); for mutes: until when; for acknowledged: `by WHO[ until TIME][: note]`; for unacknowledged: `withdrawn by WHO`, `expired` or `recovered`; for held: `depends on PARENT, which is alerting`; for grouped: which grouped message carried it.'),
        by: nullable('string', 'For muted and unmuted: who (the `by` given, or `api`).'),
      }),
    },
  }),
};

/** The console's paths, built with the main document's operation helper. */
export function buildConsolePaths(operation: (op: Op) => Json): Json {
  const described = extensionOperation(operation);
  return {
    '/v2/alerts/{id}/graph/': {
      get: described(
        {
          operationId: 'getAlertGraph',
          tag: 'alerts',
          summary: "The alert's criteria with their series, thresholds and alerting periods",
          id: 'alert id',
          ok: [200, 'AlertGraph'],
          errors: { 400: 'invalid range (invalid_query)', 404: NO_ALERT },
          query: [{ name: 'range', description: '6h, 24h or 7d (default 6h).', schema: { type: 'string', enum: ['6h', '24h', '7d'], default: '6h' } }],
        },
        "Read from the server's own Graphite with the evaluator's render client (its timeout and batching); a query outside the account's metric prefixes is not run. Alerting periods come from the alert's history.",
      ),
    },
    '/v2/alerts/{id}/timeline/': {
      get: described(
        {
          operationId: 'getAlertTimeline',
          tag: 'alerts',
          summary: "The alert's timeline: transitions, mutes, notifications sent and suppressed, newest first",
          id: 'alert id',
          ok: [200, 'AlertTimeline'],
          errors: { 400: 'invalid days (invalid_query)', 404: NO_ALERT },
          query: [{ name: 'days', description: 'Days back, 1..90 (default 7). At most 1,000 entries.', schema: { type: 'integer', minimum: 1, maximum: 90, default: 7 } }],
        },
        'Unlike /v2/alerts/history/ (unchanged), it also shows mutes and every notification decision of the evaluator: sent (one entry per channel) or suppressed, with why.',
      ),
    },
    '/v2/alerts/{id}/backtest/': {
      get: described(
        {
          operationId: 'getAlertBacktest',
          tag: 'alerts',
          summary: 'What the current definition would have done over the window',
          id: 'alert id',
          ok: [200, 'AlertBacktest'],
          errors: {
            400: 'invalid window (invalid_query)',
            404: NO_ALERT,
            429: 'the account already runs 2 backtests, its limit; see Retry-After (rate_limited)',
          },
          query: [{ name: 'window', description: 'A duration from 1h to 14d, as plan --impact spells it (default 7d).', schema: { type: 'string', default: '7d' } }],
        },
        "The same code as `alertform plan --impact` (src/impact): one render per query over the window plus its look-back, then the evaluator's judging, backoff and scheduled mutes replayed step by step. Bounded: at most 50 series per criterion are replayed (`note` says when more matched), and an account runs at most 2 backtests at a time on each server process.",
      ),
    },
    '/v2/alerts/{id}/definition/': {
      get: described(
        {
          operationId: 'getAlertDefinition',
          tag: 'alerts',
          summary: 'The alert as `alertform pull` writes it, and whether it is managed from git',
          id: 'alert id',
          ok: [200, 'AlertDefinition'],
          errors: { 404: NO_ALERT },
        },
        "`yaml` is pull's alerts.yaml holding this one alert (references by name, defaults left out). `managed_from_git` is set when alertform's apply wrote the alert: its create and update requests carry the header `X-Alertform-Managed: git`; a write without it leaves the mark as it is. The mark is not part of the alert's read object, so it never shows in a plan.",
      ),
    },
    '/v2/graphs/{token}.png': {
      get: {
        operationId: 'getGraphPicture',
        summary: "A PNG of an alert's graph behind a signed, expiring link (the links notifications carry)",
        description: `Open (no key): the token, signed by the server (HMAC-SHA256 with a key kept in its database) and holding the alert id, the notification time and the expiry, is the only credential. Sent only with alertform serve --public-url. ${EXTENSION}`,
        tags: ['alerts'],
        security: [],
        parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' }, description: 'The signed token of the link.' }],
        responses: {
          200: { description: 'An 800×300 PNG: the series, the thresholds in red, the alerting periods shaded.', content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } } },
          404: { description: 'The token does not verify, or its alert is gone (not_found).', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          410: { description: 'The link has expired (not_found).', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          429: { description: 'Too many failed credentials (wrong keys, forged tokens) from this address; see Retry-After (rate_limited).', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/v2/deliveries/{id}/retry/': {
      post: described(
        {
          operationId: 'retryDelivery',
          tag: 'deliveries',
          summary: 'Put a dead-lettered delivery back in the outbox',
          id: 'delivery id',
          ok: [200, 'DeliveryAnswer'],
          errors: { 404: "no such delivery, or another account's (not_found)", 409: 'the delivery is not dead-lettered (conflict)' },
        },
        'The delivery becomes pending again, due at once, with its attempts and age reset (its last error stays until the next attempt).',
      ),
    },
    '/v2/notifications/{id}/test/': {
      post: described(
        {
          operationId: 'testChannel',
          tag: 'notifications',
          summary: 'Send a test notification to a channel through the outbox',
          id: 'channel id',
          ok: [202, 'DeliveryAnswer'],
          errors: {
            404: "no such channel, or another account's (not_found)",
            429: 'more than 5 tests of this channel in 10 minutes, or 20 of this account in an hour, on this server process; see Retry-After (rate_limited)',
          },
        },
        'Writes a delivery of event `test` (alert id "") that the delivery worker sends like any other, retries included. Every notifier marks it: "[TEST] alertform test notification: no alert is firing", and the webhook body has `test: true`. Through a template, the title still starts with "[TEST] " and the body with a line naming the account that asked ("[TEST] This is a test notification sent by alertform at the request of account ID. No alert is firing."), whatever the template says. Limited per channel and per account, as it sends the tenant\'s wording to the tenant\'s address through the operator\'s mail server.',
      ),
    },
  };
}
