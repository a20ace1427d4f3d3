import { Option, type Command } from 'commander';
import { DB_OPTION_HELP, DEFAULT_DB } from './db-option.js';
import { DEFAULT_QUOTAS } from '../model/defaults.js';
import { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_LINE_BYTES, DEFAULT_STREAM_MAX_SERIES } from '../stream/defaults.js';

/**
 * One option of `alertform serve`: its flag, the environment variable that sets it when the flag is absent, and
 * its default. Every serve option lives in this table (docs/server.md has the same one, and a test compares them),
 * so a new flag is one line here.
 */
export interface ServeOptionSpec {
  flags: string;
  env: string;
  description: string;
  default?: string;
  choices?: readonly string[];
  /**
   * A secret, or a value that may carry one (a URL with a password): `serve --print-config` masks it, and a config
   * file may give it as `KEY_file: PATH` (the file's content, as Docker and systemd credentials provide).
   */
  secret?: 'url' | 'token';
}

/** pino's levels, and `silent` for no logs. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Readable lines for a person (`pretty`), JSON lines for a machine (`json`), or whichever suits stderr (`auto`). */
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;

export const SERVE_OPTIONS: readonly ServeOptionSpec[] = [
  {
    flags: '--config <file>',
    env: 'ALERTFORM_CONFIG',
    description: 'read settings from this YAML file (every option below as a key); flags and variables override it',
  },
  { flags: '--host <host>', env: 'ALERTFORM_HOST', description: 'address to listen on', default: '127.0.0.1' },
  { flags: '--port <port>', env: 'ALERTFORM_PORT', description: 'port to listen on (0 picks a free one)', default: '8080' },
  { flags: '--db <path-or-url>', env: 'ALERTFORM_DB', description: `database: ${DB_OPTION_HELP}`, default: DEFAULT_DB, secret: 'url' },
  { flags: '--no-console', env: 'ALERTFORM_NO_CONSOLE', description: 'do not serve the web console at / (the API stays)' },
  { flags: '--log-level <level>', env: 'ALERTFORM_LOG_LEVEL', description: 'log level of the logs on stderr', default: 'info', choices: LOG_LEVELS },
  {
    flags: '--log-format <format>',
    env: 'ALERTFORM_LOG_FORMAT',
    description: 'logs on stderr as readable lines (pretty) or JSON lines (json); auto: pretty on a terminal, else JSON',
    default: 'auto',
    choices: LOG_FORMATS,
  },
  {
    flags: '--graphite-url <url>',
    env: 'ALERTFORM_GRAPHITE_URL',
    description: 'evaluate alerts against this Graphite render API (graphite-web root); no evaluation without it',
    secret: 'url',
  },
  {
    flags: '--public-url <url>',
    env: 'ALERTFORM_PUBLIC_URL',
    description: 'the URL people reach this server at: notifications then link to the console and to a graph picture (none without it)',
  },
  {
    flags: '--heartbeat-url <url>',
    env: 'ALERTFORM_HEARTBEAT_URL',
    description:
      "a dead man's switch (healthchecks.io, Cronitor, Dead Man's Snitch): GET this URL after every healthy evaluation cycle; a secret, never logged (prefer the environment variable)",
    secret: 'url',
  },
  { flags: '--eval-interval <seconds>', env: 'ALERTFORM_EVAL_INTERVAL', description: 'seconds between evaluation cycles', default: '30' },
  {
    flags: '--settle-delay <duration>',
    env: 'ALERTFORM_SETTLE_DELAY',
    description: 'judge only data older than this (points still arriving can neither trigger nor resolve); an alert\'s settle_seconds overrides it; 0 judges the newest points as they are',
    default: '60s',
  },
  {
    flags: '--on-no-data <policy>',
    env: 'ALERTFORM_ON_NO_DATA',
    description: "what no data does for alerts whose on_no_data is not set: ignore (shown as no_data, nobody told), notify, or alerting",
    default: 'ignore',
    choices: ['ignore', 'notify', 'alerting'],
  },
  { flags: '--smtp-url <url>', env: 'ALERTFORM_SMTP_URL', description: 'SMTP server for email channels, e.g. smtp://user:pass@mail.example:587', secret: 'url' },
  { flags: '--smtp-from <address>', env: 'ALERTFORM_SMTP_FROM', description: 'From address of notification emails (default alertform@localhost)' },
  { flags: '--pagerduty-url <url>', env: 'ALERTFORM_PAGERDUTY_URL', description: 'PagerDuty Events API base URL (default https://events.pagerduty.com)' },
  {
    flags: '--opsgenie-url <url>',
    env: 'ALERTFORM_OPSGENIE_URL',
    description: 'OpsGenie API base URL (default https://api.opsgenie.com; EU: https://api.eu.opsgenie.com)',
  },
  { flags: '--victorops-url <url>', env: 'ALERTFORM_VICTOROPS_URL', description: 'replace the scheme and host of VictorOps REST endpoint URLs (proxies, tests)' },
  {
    flags: '--delivery-max-age <duration>',
    env: 'ALERTFORM_DELIVERY_MAX_AGE',
    description: 'keep retrying a notification this long, then dead-letter it',
    default: '24h',
  },
  {
    flags: '--delivery-first-retry <duration>',
    env: 'ALERTFORM_DELIVERY_FIRST_RETRY',
    description: 'wait before the first retry of a failed notification (doubles each time)',
    default: '1s',
  },
  {
    flags: '--delivery-max-retry-delay <duration>',
    env: 'ALERTFORM_DELIVERY_MAX_RETRY_DELAY',
    description: 'longest wait between two retries of a notification',
    default: '10m',
  },
  {
    flags: '--delivery-timeout <duration>',
    env: 'ALERTFORM_DELIVERY_TIMEOUT',
    description: 'time limit of one delivery attempt (a crashed attempt is retried after twice it)',
    default: '10s',
  },
  {
    flags: '--metrics-token <token>',
    env: 'ALERTFORM_METRICS_TOKEN',
    description: 'require this bearer token on GET /metrics, whose figures span every account (prefer the environment variable: argv is visible in ps)',
    secret: 'token',
  },
  { flags: '--api-key-file <path>', env: 'ALERTFORM_API_KEY_FILE', description: 'make sure the keys in this file exist, one per line (# comments)' },
  {
    flags: '--allow-private-destinations [cidrs-or-hosts]',
    env: 'ALERTFORM_ALLOW_PRIVATE_DESTINATIONS',
    description:
      'let webhook, Slack and VictorOps deliveries reach loopback and private addresses (single-tenant installs); ' +
      'with a comma-separated list, only those CIDRs and host names (default: public addresses only)',
  },
  { flags: '--max-alerts-per-account <n>', env: 'ALERTFORM_MAX_ALERTS_PER_ACCOUNT', description: 'alerts one account may hold (403 quota_exceeded beyond)', default: String(DEFAULT_QUOTAS.alerts) },
  { flags: '--max-channels-per-account <n>', env: 'ALERTFORM_MAX_CHANNELS_PER_ACCOUNT', description: 'notification channels one account may hold', default: String(DEFAULT_QUOTAS.channels) },
  { flags: '--max-schedules-per-account <n>', env: 'ALERTFORM_MAX_SCHEDULES_PER_ACCOUNT', description: 'scheduled mutes one account may hold', default: String(DEFAULT_QUOTAS.schedules) },
  {
    flags: '--max-pending-deliveries-per-account <n>',
    env: 'ALERTFORM_MAX_PENDING_DELIVERIES_PER_ACCOUNT',
    description: 'deliveries one account may have waiting in the outbox; past it new ones are refused (history and /metrics say so)',
    default: String(DEFAULT_QUOTAS.pendingDeliveries),
  },
  {
    flags: '--carbon-listen <host:port>',
    env: 'ALERTFORM_CARBON_LISTEN',
    description: "receive Graphite's plaintext protocol (path value timestamp) over TCP here, as a second destination of your relay; a bare port listens on loopback",
  },
  {
    flags: '--carbon-pickle-listen <host:port>',
    env: 'ALERTFORM_CARBON_PICKLE_LISTEN',
    description: "receive carbon's pickle protocol (what carbon-relay sends its DESTINATIONS) here; a bare port listens on loopback",
  },
  {
    flags: '--carbon-udp-listen <host:port>',
    env: 'ALERTFORM_CARBON_UDP_LISTEN',
    description: 'receive the plaintext protocol over UDP here (one or more lines a datagram); a bare port listens on loopback',
  },
  {
    flags: '--carbon-max-connections <n>',
    env: 'ALERTFORM_CARBON_MAX_CONNECTIONS',
    description: 'open TCP connections over the carbon ports; more are closed at once and counted',
    default: String(DEFAULT_MAX_CONNECTIONS),
  },
  {
    flags: '--carbon-max-line-bytes <n>',
    env: 'ALERTFORM_CARBON_MAX_LINE_BYTES',
    description: 'longest plaintext line taken; longer ones are refused and counted',
    default: String(DEFAULT_MAX_LINE_BYTES),
  },
  {
    flags: '--stream-max-series <n>',
    env: 'ALERTFORM_STREAM_MAX_SERIES',
    description: 'matched series the stream keeps in memory (about 1 KB each at 10 s points for an hour); past it new ones are counted, not kept',
    default: String(DEFAULT_STREAM_MAX_SERIES),
  },
];

/** The config file's key of an option: its long flag in snake_case, `console` for `--no-console`. */
export function configKey(spec: ServeOptionSpec): string {
  return longFlag(spec).replace(/^--(no-)?/, '').replaceAll('-', '_');
}

/** The commander attribute an option's value is stored under: `graphiteUrl`, `console`. */
export function attributeName(spec: ServeOptionSpec): string {
  return longFlag(spec)
    .replace(/^--(no-)?/, '')
    .replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

function longFlag(spec: ServeOptionSpec): string {
  return spec.flags.split(' ')[0]!;
}

/** Adds the table's options to a command: a flag wins over its environment variable, which wins over the default. */
export function addServeOptions(command: Command, specs: readonly ServeOptionSpec[] = SERVE_OPTIONS): Command {
  for (const spec of specs) {
    const option = new Option(spec.flags, spec.description).env(spec.env);
    if (spec.default !== undefined) option.default(spec.default);
    if (spec.choices) option.choices(spec.choices);
    command.addOption(option);
  }
  return command;
}
