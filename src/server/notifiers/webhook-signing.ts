import { createHmac, randomBytes } from 'node:crypto';
import type { ConsoleStore } from '../store/console-store.js';
import type { ChannelStore, SigningRotation } from '../store/channel-store.js';

/**
 * The header that carries a webhook's timestamped signatures: `t=<unix seconds>,v1=<hex>` (Stripe's form), each
 * `v1` the HMAC-SHA256 of `<t>.<exact body>` under one of the channel's secrets: the current one, and while a
 * rotation lasts the previous one too (a second `v1=`). The receiver refuses a `t` outside its tolerance window.
 */
export const SIGNATURE_HEADER = 'alertform-signature';

/**
 * The body-only signature receivers written before the timestamp verify: `sha256=<hex HMAC-SHA256 of the exact
 * body>` under the current secret. Kept so they go on working; it cannot tell a replay from a delivery.
 */
export const LEGACY_SIGNATURE_HEADER = 'x-alertform-signature';

/** How long the previous secret keeps signing after a rotation unless the rotation says otherwise: one day. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 3600;

/** The longest a previous secret may keep signing: a week. */
export const MAX_ROTATION_GRACE_SECONDS = 7 * 24 * 3600;

/** The tolerance window the docs advise receivers to apply to `t`: five minutes either way, as Stripe's libraries do. */
export const RECEIVER_TOLERANCE_SECONDS = 300;

/** The name of the server key in the store's server_secrets that every channel's signing secret is derived from. */
const SERVER_KEY_NAME = 'webhook-signing-hmac-v1';

/** A channel's secrets that sign now: the current one, and the previous one while its rotation lasts. */
export interface ChannelSigningKeys {
  current: string;
  /** The secret before the last rotation, and until when (unix seconds) it still signs. */
  previous: { secret: string; expiresAt: number } | null;
}

/** Gives the signing keys of a channel (by id) at `now` (ms); the server key is read once, on first use. */
export type SigningSecrets = (channelId: string, now?: number) => Promise<ChannelSigningKeys>;

/**
 * Per-channel signing secrets derived from one server key (32 random bytes created once in the database, the same
 * on every replica): HMAC-SHA256(server key, "webhook:" + channel id), base64url, for the channel's first
 * generation, and "webhook:" + id + ":" + generation after each rotation. Derived rather than stored, so there is
 * no secret column to migrate, back up or leak in a dump: the store keeps only the generation numbers
 * (`channel_signing`). The account reads the secret from GET /v2/notifications/{id}/signing-secret and rotates it
 * with POST .../signing-secret/rotate; it never reaches a log, a plan or a notification.
 */
export function signingSecrets(store: { console: Pick<ConsoleStore, 'getServerSecret'>; channels: Pick<ChannelStore, 'getSigningRotation'> }): SigningSecrets {
  let key: Promise<Buffer> | undefined;
  const loadKey = () =>
    (key ??= store.console
      .getServerSecret(SERVER_KEY_NAME, () => randomBytes(32).toString('base64url'))
      .then((secret) => Buffer.from(secret, 'base64url'))
      .catch((error: unknown) => {
        key = undefined;
        throw error;
      }));
  return async (channelId, now = Date.now()) => {
    const [serverKey, rotation] = await Promise.all([loadKey(), store.channels.getSigningRotation(channelId)]);
    return keysOf(serverKey, channelId, rotation, now);
  };
}

/** The secrets of `rotation` that sign at `now` (ms). */
function keysOf(serverKey: Buffer, channelId: string, rotation: SigningRotation, now: number): ChannelSigningKeys {
  const previous = rotation.previous && rotation.previous.expiresAt * 1000 > now ? rotation.previous : null;
  return {
    current: deriveSecret(serverKey, channelId, rotation.generation),
    previous: previous ? { secret: deriveSecret(serverKey, channelId, previous.generation), expiresAt: previous.expiresAt } : null,
  };
}

/** Generation 0 is the derivation every channel had before rotation existed, so its secret is unchanged. */
function deriveSecret(serverKey: Buffer, channelId: string, generation: number): string {
  const label = generation === 0 ? `webhook:${channelId}` : `webhook:${channelId}:${generation}`;
  return createHmac('sha256', serverKey).update(label).digest('base64url');
}

/** The legacy header's value for `body` (the exact bytes sent) under `secret`. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The timestamped signature header's value for `body` sent at `timestamp` (unix seconds), one `v1` per secret. */
export function signTimestamped(keys: ChannelSigningKeys, body: string, timestamp: number): string {
  const secrets = keys.previous ? [keys.current, keys.previous.secret] : [keys.current];
  const signatures = secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  return [`t=${timestamp}`, ...signatures].join(',');
}

/** Both signature headers of a webhook body sent now: signed at each attempt, so a retry carries a fresh `t`. */
export function signatureHeaders(keys: ChannelSigningKeys, body: string, now = Date.now()): Record<string, string> {
  return { [SIGNATURE_HEADER]: signTimestamped(keys, body, Math.floor(now / 1000)), [LEGACY_SIGNATURE_HEADER]: signBody(keys.current, body) };
}
