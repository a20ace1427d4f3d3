import { invalidBody } from '../errors.js';
import {
  DEFAULT_ROTATION_GRACE_SECONDS,
  MAX_ROTATION_GRACE_SECONDS,
  RECEIVER_TOLERANCE_SECONDS,
  type ChannelSigningKeys,
} from '../notifiers/webhook-signing.js';

/**
 * The answer of GET /v2/notifications/{id}/signing-secret and of its rotation: the secret a receiver keys its
 * check with, how the header reads, and while a rotation lasts the previous secret with its end (so a receiver
 * being moved can be given both). `header` and `algorithm` keep the names receivers of the body-only signature read.
 */
export function presentSigningSecret(id: string, keys: ChannelSigningKeys) {
  return {
    id,
    signing_secret: keys.current,
    header: 'X-Alertform-Signature',
    algorithm: 'HMAC-SHA256',
    timestamped_header: 'Alertform-Signature',
    timestamped_format: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">[,v1=<previous secret>]',
    tolerance_seconds: RECEIVER_TOLERANCE_SECONDS,
    previous_signing_secret: keys.previous?.secret ?? null,
    previous_expires_at: keys.previous ? new Date(keys.previous.expiresAt * 1000).toISOString() : null,
  };
}

/** A rotation body's `previous_valid_seconds`: how long the replaced secret still signs (default a day, at most a week). */
export function readRotationGrace(body: Record<string, unknown>): number {
  const unknown = Object.keys(body).filter((key) => key !== 'previous_valid_seconds');
  if (unknown.length > 0) throw invalidBody(unknown.map((key) => ({ path: key.slice(0, 200), message: 'is not a field of a rotation (previous_valid_seconds)' })));
  const value = body.previous_valid_seconds;
  if (value === undefined) return DEFAULT_ROTATION_GRACE_SECONDS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_ROTATION_GRACE_SECONDS) {
    throw invalidBody([{ path: 'previous_valid_seconds', message: `must be a whole number of seconds from 0 to ${MAX_ROTATION_GRACE_SECONDS} (a week)` }]);
  }
  return value;
}
