import type { Op } from './document.js';
import { always, EXTENSION, extensionOperation, nullable, unixSeconds, type Json } from './parts.js';

const ERROR = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const PAGE = { 'text/html': { schema: { type: 'string' } } };

/** The acknowledgement as alert reads carry it (read-only). */
export const ACKNOWLEDGEMENT_SCHEMA: Json = {
  oneOf: [
    { type: 'null' },
    always({
      by: { type: 'string', description: 'Who acknowledged (a person, as they gave their name).' },
      note: nullable('string'),
      at: unixSeconds,
      until: nullable('integer', 'Unix seconds at which it ends by itself; null: when the alert recovers.'),
    }),
  ],
  description: `Who acknowledged the current alerting episode (POST /v2/alerts/{id}/ack/): no reminders or escalations while it holds. Ends when the alert recovers, when \`until\` passes, or when withdrawn; null when none. Read-only; ${EXTENSION}`,
};

/** The response of the one-click link's POST with a JSON body. */
export const ACK_RESPONSE_SCHEMAS: Json = {
  AckLinkAnswer: always({ id: { type: 'string' }, name: { type: 'string' }, acknowledgement: ACKNOWLEDGEMENT_SCHEMA }),
};

/** The acknowledgement paths, built with the main document's operation helper. */
export function buildAckPaths(operation: (op: Op) => Json): Json {
  const described = extensionOperation(operation);
  const link = (method: 'get' | 'post'): Json => ({
    operationId: method === 'get' ? 'showAckLink' : 'acknowledgeByLink',
    summary:
      method === 'get'
        ? 'The confirmation page of a one-click acknowledgement link (never acknowledges)'
        : 'Acknowledge through a one-click link (form `by`, `note`; or JSON)',
    description: `Open (no key): the token, signed by the server with the key of the graph links and holding the alert id, the alerting episode and an expiry 24 hours after the notification, is the only credential. Sent in alerting, reminder and escalation notifications (webhook \`ack_url\`, a link in Slack, email and PagerDuty's links) with alertform serve --public-url. ${method === 'get' ? 'A GET shows a page with a form (or, once acknowledged, who has it) and changes nothing (mail scanners follow links).' : 'An HTML form post answers a page; a JSON body answers JSON.'} ${EXTENSION}`,
    tags: ['alerts'],
    security: [],
    parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' }, description: 'The signed token of the link.' }],
    ...(method === 'post'
      ? {
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['by'], properties: { by: { type: 'string' }, note: { type: 'string' } } } },
              'application/json': { schema: { $ref: '#/components/schemas/alert.ack' } },
            },
          },
        }
      : {}),
    responses: {
      200: { description: method === 'get' ? 'The page: the alert and a form.' : 'Acknowledged.', content: method === 'get' ? PAGE : { ...PAGE, 'application/json': { schema: { $ref: '#/components/schemas/AckLinkAnswer' } } } },
      ...(method === 'post' ? { 400: { description: 'No name, or a note too long (invalid_body).', content: { ...PAGE, ...ERROR } } } : {}),
      404: { description: 'The token does not verify, or its alert is gone (not_found).', content: { ...PAGE, ...ERROR } },
      409: {
        description:
          method === 'post'
            ? 'The link is from an earlier alerting episode, the alert is not alerting any more, or it is already acknowledged (conflict): the first acknowledgement through a link stands, and the answer names it (JSON: `details` `acknowledgement.by` and `acknowledgement.at`, an ISO time).'
            : 'The link is from an earlier alerting episode, or the alert is not alerting any more (conflict).',
        content: { ...PAGE, ...ERROR },
      },
      410: { description: 'The link has expired (not_found).', content: { ...PAGE, ...ERROR } },
      429: { description: "Too many failed credentials (wrong keys, forged tokens) from this address, or the alert's acknowledgement changed 10 times in the last 10 minutes; see Retry-After (rate_limited).", content: { ...PAGE, ...ERROR } },
    },
  });
  return {
    '/v2/alerts/{id}/ack/': {
      post: described(
        {
          operationId: 'acknowledgeAlert',
          tag: 'alerts',
          summary: "Acknowledge the alert's current alerting episode",
          id: 'alert id',
          body: 'alert.ack',
          ok: [200, 'AlertRead'],
          errors: { 400: 'invalid body, or an until in the past or more than 30 days away (invalid_body)', 404: "no such alert, or another account's (not_found)", 409: 'the alert is not alerting (conflict)', 429: "the alert's acknowledgement changed 10 times in the last 10 minutes (acknowledged or withdrawn, by any means); see Retry-After (rate_limited)" },
        },
        'No reminders or escalations until it recovers, `until` passes or it is withdrawn. The first acknowledgement of an episode tells every channel of the alert through the outbox: PagerDuty `acknowledge` (same dedup_key), OpsGenie acknowledge by alias, VictorOps ACKNOWLEDGEMENT (same entity_id), a short "acknowledged by" message elsewhere; acknowledging again changes the note or end and tells nobody. History: `acknowledged` with the author.',
      ),
      delete: described(
        {
          operationId: 'withdrawAcknowledgement',
          tag: 'alerts',
          summary: "Withdraw the alert's acknowledgement",
          id: 'alert id',
          ok: [200, 'AlertRead'],
          query: [{ name: 'by', description: 'Who withdraws it (for the history).' }],
          errors: { 404: "no such alert, or another account's (not_found)", 409: 'the alert is not acknowledged (conflict)', 429: "the alert's acknowledgement changed 10 times in the last 10 minutes; see Retry-After (rate_limited)" },
        },
        'Reminders and escalations resume. History: `unacknowledged`, reason `withdrawn by ...` (an acknowledgement that ends by itself is `expired` or `recovered`).',
      ),
    },
    '/v2/ack-links/{token}': { get: link('get'), post: link('post') },
  };
}
