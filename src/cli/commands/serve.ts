import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { pino } from 'pino';
import { startServer } from '../../server/index.js';
import { parseDestinationPolicy } from '../../server/net/destination-policy.js';
import { CliError } from '../errors.js';
import { parseDuration } from '../parse.js';
import { addServeOptions } from '../serve-options.js';

interface ServeOptions {
  host: string;
  port: string;
  db: string;
  logLevel: string;
  apiKey: string[];
  apiKeyFile?: string;
  graphiteUrl?: string;
  evalInterval: string;
  smtpUrl?: string;
  smtpFrom?: string;
  pagerdutyUrl?: string;
  opsgenieUrl?: string;
  victoropsUrl?: string;
  deliveryMaxAge: string;
  deliveryFirstRetry: string;
  deliveryMaxRetryDelay: string;
  deliveryTimeout: string;
  metricsToken?: string;
  allowPrivateDestinations?: boolean | string;
  maxAlertsPerAccount: string;
  maxChannelsPerAccount: string;
  maxSchedulesPerAccount: string;
}

/** `alertform serve`: the bundled /v2 server. Prints its URL; SIGTERM and SIGINT close it cleanly. */
export function registerServeCommand(program: Command): void {
  const serve = program.command('serve');
  addServeOptions(serve);
  serve
    .description('run the bundled /v2 alerting server (alerts, channels, schedules, history) on SQLite or PostgreSQL')
    .option(
      '--api-key <key>',
      'make sure this API key exists (repeatable; visible in the process list: prefer --api-key-file or env ALERTFORM_API_KEYS, comma separated)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addHelpText(
      'after',
      `
Every option can also come from the environment variable shown (a flag wins). Each new key gets an account of
its own, with an "Email me" channel. Keys must be at least 24 characters without ":" (alertform keys create makes
such keys); prefer --api-key-file or ALERTFORM_API_KEYS to --api-key, which the process list shows. Logs are JSON
lines (pino) on stderr. GET /healthz, /readyz and /metrics (Prometheus) need no API key; /metrics needs the
--metrics-token (as a Bearer token) when one is set. See docs/server.md.

Examples:
  $ alertform serve --api-key-file /etc/alertform/keys
  $ ALERTFORM_API_KEYS=$KEY1,$KEY2 ALERTFORM_HOST=0.0.0.0 ALERTFORM_DB=/var/lib/alertform/alertform.db alertform serve
  $ ALERTFORM_DB=postgres://alertform@db.internal:5432/alertform alertform serve --api-key-file keys
  $ curl http://$KEY1@127.0.0.1:8080/v2/alerts/
  $ ALERTFORM_METRICS_TOKEN=$(cat /etc/alertform/metrics-token) alertform serve --api-key-file keys
  $ curl -H "Authorization: Bearer $(cat /etc/alertform/metrics-token)" http://127.0.0.1:8080/metrics
  $ alertform serve --api-key-file keys --graphite-url http://127.0.0.1:8000 --eval-interval 30 \\
      --smtp-url smtp://127.0.0.1:25 --smtp-from alerts@example.com

With --graphite-url, every --eval-interval seconds each alert is evaluated against Graphite: status, history and
notifications to its channels (email needs --smtp-url). See docs/evaluator.md.

Notifications go through a durable outbox in the database: a failed one is retried with exponential backoff and
jitter (or after the service's Retry-After) until --delivery-max-age, then dead-lettered; a restart resumes them.
Durations: 500ms, 30s, 15m, 24h, 7d (a bare number is seconds). See them with \`alertform deliveries\`.
  $ alertform serve --api-key k1 --graphite-url http://127.0.0.1:8000 --delivery-max-age 2h
--db takes a SQLite file (one node) or a postgres://USER[:PASSWORD]@HOST:PORT/DB URL; ALERTFORM_DB keeps a
password off the command line (PGPASSWORD works too). The schema is migrated on start. While PostgreSQL is
unreachable the API answers 503 {"error": {"code": "unavailable"}} and recovers by itself. See docs/operations.md.

Webhook, Slack and VictorOps deliveries never reach loopback, private, link-local or metadata addresses (checked
on the address connected to), nor follow redirects, unless --allow-private-destinations says so. See
docs/security.md.`,
    )
    .action(async (options: ServeOptions, command: Command) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0..65535, not "${options.port}"`);
      const evalInterval = Number(options.evalInterval);
      if (!Number.isFinite(evalInterval) || evalInterval <= 0) {
        throw new CliError(`--eval-interval must be a positive number of seconds, not "${options.evalInterval}"`);
      }
      for (const [flag, value] of [
        ['--graphite-url', options.graphiteUrl],
        ['--pagerduty-url', options.pagerdutyUrl],
        ['--opsgenie-url', options.opsgenieUrl],
        ['--victorops-url', options.victoropsUrl],
      ] as const) {
        if (value !== undefined && !isHttpUrl(value)) throw new CliError(`${flag} must be an http(s) URL`);
      }
      if (options.smtpUrl !== undefined && !/^smtps?:\/\/[^/]/.test(options.smtpUrl)) {
        throw new CliError('--smtp-url must be an smtp:// or smtps:// URL');
      }
      const retry = {
        maxAgeMs: parseDuration(options.deliveryMaxAge, '--delivery-max-age'),
        firstDelayMs: parseDuration(options.deliveryFirstRetry, '--delivery-first-retry'),
        maxDelayMs: parseDuration(options.deliveryMaxRetryDelay, '--delivery-max-retry-delay'),
      };
      const deliveryTimeoutMs = parseDuration(options.deliveryTimeout, '--delivery-timeout');
      // From the environment the flag without a list is spelled "true".
      const allowPrivateDestinations =
        options.allowPrivateDestinations === 'true'
          ? true
          : typeof options.allowPrivateDestinations === 'string'
            ? options.allowPrivateDestinations.split(',')
            : options.allowPrivateDestinations;
      try {
        parseDestinationPolicy(allowPrivateDestinations);
      } catch (error) {
        throw new CliError(`--allow-private-destinations: ${(error as Error).message}`);
      }
      const quotas = {
        alerts: positiveCount('--max-alerts-per-account', options.maxAlertsPerAccount),
        channels: positiveCount('--max-channels-per-account', options.maxChannelsPerAccount),
        schedules: positiveCount('--max-schedules-per-account', options.maxSchedulesPerAccount),
      };
      const notifierUrls: Record<string, string> = {};
      if (options.pagerdutyUrl) notifierUrls.pagerduty = options.pagerdutyUrl;
      if (options.opsgenieUrl) notifierUrls.opsgenie = options.opsgenieUrl;
      if (options.victoropsUrl) notifierUrls.victorops = options.victoropsUrl;
      const fromEnv = (process.env.ALERTFORM_API_KEYS ?? '').split(',').map((key) => key.trim()).filter(Boolean);
      const fromArgs = [...repeatedOption(command, '--api-key'), ...(options.apiKey ?? [])];
      const fromFiles = options.apiKeyFile ? readKeyFile(options.apiKeyFile) : [];
      const apiKeys = [...fromArgs, ...fromFiles, ...fromEnv];
      apiKeys.forEach(assertStrongKey);
      if (fromArgs.length > 0) {
        process.stderr.write('warning: a key given with --api-key is visible to every user of this machine (ps); use --api-key-file or ALERTFORM_API_KEYS\n');
      }
      const logger = pino({ level: options.logLevel }, pino.destination(2));
      let server;
      try {
        server = await startServer({
          host: options.host,
          port,
          db: options.db,
          apiKeys,
          logger,
          ...(options.graphiteUrl ? { graphiteUrl: options.graphiteUrl, evalIntervalSeconds: evalInterval } : {}),
          ...(options.smtpUrl ? { smtpUrl: options.smtpUrl } : {}),
          ...(options.smtpFrom ? { smtpFrom: options.smtpFrom } : {}),
          notifierUrls,
          delivery: { retry, timeoutMs: deliveryTimeoutMs },
          quotas,
          ...(allowPrivateDestinations !== undefined ? { allowPrivateDestinations } : {}),
          ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
        });
      } catch (error) {
        throw new CliError(`cannot start the server: ${(error as Error).message}`);
      }
      process.stdout.write(`alertform server listening on ${server.url}\n`);
      // The Graphite URL may carry credentials: say that evaluation runs, not where it reads.
      if (options.graphiteUrl) process.stdout.write(`evaluating alerts against Graphite every ${evalInterval} s\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGTERM', stop);
          process.off('SIGINT', stop);
          void server.close().then(resolve);
        };
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
      });
      process.stdout.write('alertform server stopped\n');
    });
}

/**
 * Every value of a repeatable option. The program's global `--api-key` (the client's key) is parsed first and
 * swallows the option wherever it stands, so serve reads its own occurrences from the raw arguments.
 */
function repeatedOption(command: Command, flag: string): string[] {
  let root: Command = command;
  while (root.parent) root = root.parent;
  const args = (root as Command & { rawArgs: string[] }).rawArgs ?? [];
  const values: string[] = [];
  args.forEach((arg, index) => {
    if (arg === flag && index + 1 < args.length) values.push(args[index + 1]!);
    else if (arg.startsWith(`${flag}=`)) values.push(arg.slice(flag.length + 1));
  });
  return values;
}

/** Operator keys are credentials too: long enough not to be guessed, and without the `:` that Basic auth splits on. */
export const MIN_OPERATOR_KEY_LENGTH = 24;

function assertStrongKey(key: string, index: number): void {
  // The key itself is never printed: only which one is at fault.
  if (key.length < MIN_OPERATOR_KEY_LENGTH) {
    throw new CliError(`API key #${index + 1} is shorter than ${MIN_OPERATOR_KEY_LENGTH} characters; make one with: alertform keys create`);
  }
  if (key.includes(':')) throw new CliError(`API key #${index + 1} contains ":", which Basic authentication cannot carry`);
}

function readKeyFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`--api-key-file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return text.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
}

function positiveCount(flag: string, value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new CliError(`${flag} must be a whole number of at least 1, not "${value}"`);
  return count;
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
