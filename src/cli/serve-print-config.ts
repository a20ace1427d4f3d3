import type { Command } from 'commander';
import { SERVE_OPTIONS, attributeName, configKey, type ServeOptionSpec } from './serve-options.js';

/** Where each of the server's API keys came from (the keys themselves are never printed). */
export interface KeyCounts {
  fromArgs: number;
  fromFiles: number;
  fromEnv: number;
  fromConfig: number;
}

/**
 * `alertform serve --print-config`: the settings the server would start with, as a config file (YAML) that
 * `--config` reads back, each line saying where its value came from. Secrets are masked: a token entirely, a URL
 * down to its scheme and host (its user-info, path and query may carry a password or a key).
 */
export function describeServeSettings(command: Command, keys: KeyCounts): string {
  const lines = ['# alertform serve: the merged settings (a flag wins over its variable, then the config file, then the default)'];
  for (const spec of SERVE_OPTIONS) {
    const key = configKey(spec);
    const attribute = attributeName(spec);
    const value = command.getOptionValue(attribute) as string | boolean | undefined;
    if (key === 'config' || value === undefined) continue;
    // A number as a number where the key takes one (port, eval_interval, the quotas), else YAML would read text.
    const numeric = typeof value === 'string' && /^\d+$/.test(value) && /^\d/.test(spec.default ?? '');
    const shown =
      key === 'allow_private_destinations' ? destinations(value) : numeric ? value : yamlScalar(spec.secret ? maskSecret(spec, value) : value);
    lines.push(`${key}: ${shown}  # ${sourceOf(spec, command.getOptionValueSource(attribute))}`);
  }
  const total = keys.fromArgs + keys.fromFiles + keys.fromEnv + keys.fromConfig;
  const origins = [
    [keys.fromConfig, 'the config file'],
    [keys.fromArgs, '--api-key'],
    [keys.fromFiles, '--api-key-file'],
    [keys.fromEnv, 'ALERTFORM_API_KEYS'],
  ]
    .filter(([count]) => (count as number) > 0)
    .map(([count, origin]) => `${count} from ${origin}`);
  lines.push(`# API keys: ${total}${origins.length > 0 ? ` (${origins.join(', ')})` : ''}, not shown`);
  return `${lines.join('\n')}\n`;
}

/** `true`, or the list of CIDRs and hosts as a YAML list (the variable spells the list `a,b`, the flag alone `true`). */
function destinations(value: string | boolean): string {
  if (typeof value === 'boolean' || value === 'true') return String(value === true || value === 'true');
  return `[${value.split(',').map((entry) => yamlScalar(entry.trim())).join(', ')}]`;
}

/** A secret as it may be shown: `(secret)` for a token; a URL's scheme and host only (a file path as it is). */
export function maskSecret(spec: Pick<ServeOptionSpec, 'secret'>, value: string | boolean): string | boolean {
  if (typeof value !== 'string') return value;
  if (spec.secret === 'token') return '(secret)';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not a URL: a SQLite file name, which holds no secret.
    return value;
  }
  if (!url.host) return value;
  const hidden = url.username || url.password ? '***@' : '';
  const more = (url.pathname && url.pathname !== '/') || url.search || url.hash ? '/…' : '';
  return `${url.protocol}//${hidden}${url.host}${more}`;
}

function sourceOf(spec: ServeOptionSpec, source: string | undefined): string {
  switch (source) {
    case 'cli':
      return `flag ${spec.flags.split(' ')[0]}`;
    case 'env':
      return spec.env;
    case 'config':
      return 'config file';
    default:
      return 'default';
  }
}

/** Plain when YAML reads it back as the same string, else quoted (JSON's quoting is YAML's double-quoted style). */
function yamlScalar(value: string | boolean): string {
  if (typeof value === 'boolean') return String(value);
  const plain = /^[\w./:@-]+$/.test(value) && !/^(true|false|null|~|yes|no|on|off)$/i.test(value);
  // What YAML would read as a number: integers, decimals, exponents, 0x and 0o forms.
  const number = /^[-+]?(\.\d+|\d+(\.\d*)?)(e[-+]?\d+)?$/i.test(value) || /^0[xo]/i.test(value);
  return plain && !number ? value : JSON.stringify(value);
}
