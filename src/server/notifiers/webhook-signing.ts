import { createHmac, randomBytes } from 'node:crypto';
import type { ConsoleStore } from '../store/console-store.js';

/** The header that carries a webhook body's signature: `sha256=<hex HMAC-SHA256 of the exact body>`. */
export const SIGNATURE_HEADER = 'x-alertform-signature';

/** The name of the server key in the store's server_secrets that every channel's signing secret is derived from. */
const SERVER_KEY_NAME = 'webhook-signing-hmac-v1';

/** Gives the signing secret of a channel (by id); the server key is read once, on first use. */
export type SigningSecrets = (channelId: string) => Promise<string>;

/**
 * Per-channel signing secrets derived from one server key (32 random bytes created once in the database, the same
 * on every replica): HMAC-SHA256(server key, "webhook:" + channel id), base64url. Derived rather than stored, so
 * there is no column to migrate, back up or leak in a dump of the channels; a channel's secret is fixed for its
 * life (delete and recreate the channel to change it). The account reads it from
 * GET /v2/notifications/{id}/signing-secret; it never reaches a log, a plan or a notification.
 */
export function signingSecrets(store: Pick<ConsoleStore, 'getServerSecret'>): SigningSecrets {
  let key: Promise<Buffer> | undefined;
  const loadKey = () =>
    (key ??= store
      .getServerSecret(SERVER_KEY_NAME, () => randomBytes(32).toString('base64url'))
      .then((secret) => Buffer.from(secret, 'base64url'))
      .catch((error: unknown) => {
        key = undefined;
        throw error;
      }));
  return async (channelId) => createHmac('sha256', await loadKey()).update(`webhook:${channelId}`).digest('base64url');
}

/** The signature header's value for `body` (the exact bytes sent) under `secret`. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
