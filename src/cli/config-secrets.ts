import { statSync } from 'node:fs';
import { interpolateString } from '../definitions/interpolate.js';
import type { ServeOptionSpec } from './serve-options.js';

/** URL settings whose whole URL is the credential (a dead man's switch's ping URL holds its token in the path). */
const WHOLE_URL_SECRETS = new Set(['heartbeat_url']);

/** The permission bits that let a file's group or anyone else read it. */
const SHARED_READ = 0o044;

/**
 * The keys of a serve config file whose secret is written in the file itself, not taken from the environment:
 * `${VAR}` references do not count (their value is not in the file), a `${VAR:-default}`'s default does. A token
 * counts when anything of it is written; a URL when it carries a password or a query (or is a ping URL); `api_keys`
 * when one key is written. `specs` are the serve options with their config keys.
 */
export function secretsWrittenIn(raw: unknown, specs: readonly { key: string; secret: ServeOptionSpec['secret'] }[]): string[] {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const settings = raw as Record<string, unknown>;
  const written = (value: unknown) => (typeof value === 'string' ? interpolateString(value, {}).value.trim() : '');
  const found: string[] = [];
  for (const { key, secret } of specs) {
    const literal = written(settings[key]);
    if (!secret || literal === '') continue;
    if (secret === 'token' || WHOLE_URL_SECRETS.has(key) || urlCarriesSecret(literal)) found.push(key);
  }
  if (Array.isArray(settings.api_keys) && settings.api_keys.some((key) => written(key) !== '')) found.push('api_keys');
  return found;
}

function urlCarriesSecret(text: string): boolean {
  try {
    const url = new URL(text);
    return url.password !== '' || url.search !== '';
  } catch {
    // Not a URL (a SQLite file name): no secret.
    return false;
  }
}

/**
 * A warning when the file at `path`, which holds secrets (`what`), can be read by its group or by anyone: the same
 * exposure as a key on the command line. undefined when only its owner can read it (or it cannot be looked at).
 */
export function sharedSecretFileWarning(path: string, what: string, advice = 'chmod 600 it'): string | undefined {
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
  if ((mode & SHARED_READ) === 0) return undefined;
  const who = (mode & 0o004) !== 0 ? 'every user of this machine' : "its group's users";
  return `warning: ${path} holds ${what} and is readable by ${who} (mode 0${mode.toString(8)}): ${advice}`;
}
