import { readFileSync } from 'node:fs';
import { SCHEMAS_DIR } from '../../model/schemas.js';
import { always, nullable, type Json } from './parts.js';
import { ref } from './responses.js';

/** The component name of the webhook body; its `$defs` become `WebhookPayload.<def>`. */
const PAYLOAD = 'WebhookPayload';

/** schemas/webhook-payload.schema.json, the one source of the webhook body, as components with their $refs rewritten. */
function payloadComponents(): Json {
  const { $schema: _schema, $id: _id, $defs, ...payload } = JSON.parse(readFileSync(`${SCHEMAS_DIR}webhook-payload.schema.json`, 'utf8')) as Json;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', `#/components/schemas/${PAYLOAD}.`) : rewrite(inner)]),
    );
  };
  const defs = Object.entries(($defs ?? {}) as Json).map(([name, schema]) => [`${PAYLOAD}.${name}`, rewrite(schema)]);
  return { [PAYLOAD]: rewrite(payload), ...Object.fromEntries(defs) };
}

export const WEBHOOK_RESPONSE_SCHEMAS: Json = {
  ...payloadComponents(),
  ChannelSigningSecret: always({
    id: { type: 'string' },
    signing_secret: { type: 'string', description: "The channel's current secret: the key of the HMAC-SHA256 in Alertform-Signature's first v1 and in X-Alertform-Signature. Keep it as a secret." },
    header: { const: 'X-Alertform-Signature', description: 'The body-only signature header (kept for receivers that verify it; it cannot refuse a replay).' },
    algorithm: { const: 'HMAC-SHA256' },
    timestamped_header: { const: 'Alertform-Signature', description: 'The header to verify: a signed timestamp, so a receiver can refuse replays.' },
    timestamped_format: { type: 'string', description: 'How the timestamped header reads.' },
    tolerance_seconds: { type: 'integer', description: "The tolerance window the documentation advises for `t`, either way of the receiver's clock." },
    previous_signing_secret: nullable('string', 'While a rotation lasts: the secret before, which still signs (a second v1=); null otherwise.'),
    previous_expires_at: nullable('string', 'When the previous secret stops signing (ISO 8601); null when none.'),
  }),
};

const header = (description: string, required = true): Json => ({ description, required, schema: { type: 'string' } });

/** The OpenAPI 3.1 `webhooks`: what the server POSTs to a webhook channel, and what it expects back. */
export function buildWebhooks(): Json {
  return {
    notification: {
      post: {
        operationId: 'webhookNotification',
        summary: "A notification POSTed to a webhook channel's URL",
        description:
          'Sent by the delivery worker once per notification and channel, retried with backoff on network errors, 5xx, 408 and 429 (Retry-After honoured) until the server\'s --delivery-max-age. Redirects are not followed. Verify Alertform-Signature (its timestamp within your tolerance window, 300 s advised) before trusting the body, drop repeats by `id`, pair notifications of one alert by `alert_id` and order them by `started_at` and `time`.',
        tags: ['notifications'],
        parameters: [
          { name: 'User-Agent', in: 'header', ...header('`alertform/<version>`.') },
          { name: 'Idempotency-Key', in: 'header', ...header('The delivery id (the body\'s `id`), the same on every retry.', false) },
          {
            name: 'Alertform-Signature',
            in: 'header',
            ...header(
              "`t=<unix seconds of this attempt>,v1=<hex HMAC-SHA256 of \"<t>.<exact body bytes>\">`, keyed with the channel's secret (GET /v2/notifications/{id}/signing-secret/); while a rotation lasts a second `v1=` under the previous secret. Accept when any v1 matches and t is within your tolerance window.",
            ),
          },
          {
            name: 'X-Alertform-Signature',
            in: 'header',
            ...header("`sha256=` and the hex HMAC-SHA256 of the exact body bytes, keyed with the channel's current secret: the body-only form, kept for receivers written for it (no timestamp: it cannot refuse a replay)."),
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref(PAYLOAD) } } },
        responses: {
          '2XX': { description: 'Received: the delivery is done.' },
          '4XX': { description: 'Refused: dead-lettered at once, except 408 and 429, which are retried.' },
          '5XX': { description: 'Failed: retried with backoff.' },
        },
      },
    },
  };
}
