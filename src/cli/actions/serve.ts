import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { createServerLogger, type LogFormat } from '../../server/log-destination.js';
import { startServer } from '../../server/index.js';
import { parseDestinationPolicy, refuseLiteralDestination } from '../../server/net/destination-policy.js';
import { maskPingUrl } from '../../server/evaluator/heartbeat.js';
import { CliError } from '../errors.js';
import { parseDurationMs } from '../parse.js';
import { durationMs } from '../../model/duration.js';
import { isHttpUrl } from '../../model/url.js';
import { MAX_SETTLE_SECONDS } from '../../model/defaults.js';
import { applyServeConfig, readServeConfig } from '../serve-config.js';
import { describeServeSettings } from '../serve-print-config.js';
import { parseListenAddress } from '../../stream/listen-address.js';

export interface ServeOptions {
  config?: string;
  /** Print the merged settings (secrets masked) and exit. */
  printConfig?: boolean;
  host: string;
  port: string;
  db: string;
  logLevel: string;
  logFormat: LogFormat;
  /** false with --no-console. */
  console: boolean;
  apiKey: string[];
  apiKeyFile?: string;
  graphiteUrl?: string;
  publicUrl?: string;
  heartbeatUrl?: string;
  evalInterval: string;
  settleDelay: string;
  onNoData?: 'ignore' | 'notify' | 'alerting';
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
  maxPendingDeliveriesPerAccount: string;
  carbonListen?: string;
  carbonPickleListen?: string;
  carbonUdpListen?: string;
  carbonMaxConnections: string;
  carbonMaxLineBytes: string;
  streamMaxSeries: string;
}

/** `serve`: loaded lazily, so that the other commands never load the server, its drivers and the evaluator. */
export async function runServe(flags: ServeOptions, command: Command): Promise<void> {
  // The file fills what neither a flag nor a variable set (serve-config.ts); its keys add to the others.
  const config = flags.config !== undefined ? readServeConfig(flags.config) : undefined;
  if (config) applyServeConfig(command, config);
  const options = config ? (command.opts() as ServeOptions) : flags;
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0..65535, not "${options.port}"`);
  // The one duration grammar (`30s`, `2m`, a bare number of seconds); Number() too, which this flag always took.
  const evalInterval = (durationMs(options.evalInterval) ?? Number(options.evalInterval) * 1_000) / 1_000;
  if (!Number.isFinite(evalInterval) || evalInterval <= 0) {
    throw new CliError(`--eval-interval must be a positive number of seconds, not "${options.evalInterval}"`);
  }
  const settleDelayMs = durationMs(options.settleDelay, { allowZero: true });
  if (settleDelayMs === undefined || settleDelayMs % 1000 !== 0 || settleDelayMs > MAX_SETTLE_SECONDS * 1000) {
    throw new CliError(`--settle-delay must be whole seconds from 0 to 1h, such as 60s or 2m, not "${options.settleDelay}"`);
  }
  for (const [flag, value] of [
    ['--graphite-url', options.graphiteUrl],
    ['--public-url', options.publicUrl],
    ['--pagerduty-url', options.pagerdutyUrl],
    ['--opsgenie-url', options.opsgenieUrl],
    ['--victorops-url', options.victoropsUrl],
    ['--heartbeat-url', options.heartbeatUrl],
  ] as const) {
    if (value !== undefined && !isHttpUrl(value)) throw new CliError(`${flag} must be an http(s) URL`);
  }
  if (options.smtpUrl !== undefined && !/^smtps?:\/\/[^/]/.test(options.smtpUrl)) {
    throw new CliError('--smtp-url must be an smtp:// or smtps:// URL');
  }
  const retry = {
    maxAgeMs: parseDurationMs(options.deliveryMaxAge, '--delivery-max-age'),
    firstDelayMs: parseDurationMs(options.deliveryFirstRetry, '--delivery-first-retry'),
    maxDelayMs: parseDurationMs(options.deliveryMaxRetryDelay, '--delivery-max-retry-delay'),
  };
  const deliveryTimeoutMs = parseDurationMs(options.deliveryTimeout, '--delivery-timeout');
  // From the environment the flag without a list is spelled "true".
  const allowPrivateDestinations =
    options.allowPrivateDestinations === 'true'
      ? true
      : typeof options.allowPrivateDestinations === 'string'
        ? options.allowPrivateDestinations.split(',')
        : options.allowPrivateDestinations;
  let destinations;
  try {
    destinations = parseDestinationPolicy(allowPrivateDestinations);
  } catch (error) {
    throw new CliError(`--allow-private-destinations: ${(error as Error).message}`);
  }
  if (options.heartbeatUrl !== undefined) {
    // The pings follow evaluation cycles; and they go where webhooks may go (the same SSRF rules), said at start.
    if (!options.graphiteUrl) throw new CliError('--heartbeat-url needs --graphite-url: the heartbeat follows evaluation cycles');
    const refusal = refuseLiteralDestination(destinations, options.heartbeatUrl);
    if (refusal) throw new CliError(`--heartbeat-url leads to a ${refusal}: allow it with --allow-private-destinations`);
  }
  const quotas = {
    alerts: positiveCount('--max-alerts-per-account', options.maxAlertsPerAccount),
    channels: positiveCount('--max-channels-per-account', options.maxChannelsPerAccount),
    schedules: positiveCount('--max-schedules-per-account', options.maxSchedulesPerAccount),
    pendingDeliveries: positiveCount('--max-pending-deliveries-per-account', options.maxPendingDeliveriesPerAccount),
  };
  const carbon = carbonSettings(options);
  const notifierUrls: Record<string, string> = {};
  if (options.pagerdutyUrl) notifierUrls.pagerduty = options.pagerdutyUrl;
  if (options.opsgenieUrl) notifierUrls.opsgenie = options.opsgenieUrl;
  if (options.victoropsUrl) notifierUrls.victorops = options.victoropsUrl;
  const fromEnv = (process.env.ALERTFORM_API_KEYS ?? '').split(',').map((key) => key.trim()).filter(Boolean);
  const fromArgs = [...repeatedOption(command, '--api-key'), ...(options.apiKey ?? [])];
  const fromFiles = options.apiKeyFile ? readKeyFile(options.apiKeyFile) : [];
  const apiKeys = [...fromArgs, ...fromFiles, ...fromEnv, ...(config?.apiKeys ?? [])];
  apiKeys.forEach(assertStrongKey);
  if (fromArgs.length > 0) {
    process.stderr.write('warning: a key given with --api-key is visible to every user of this machine (ps); use --api-key-file or ALERTFORM_API_KEYS\n');
  }
  if (options.printConfig) {
    process.stdout.write(describeServeSettings(command, { fromArgs: fromArgs.length, fromFiles: fromFiles.length, fromEnv: fromEnv.length, fromConfig: config?.apiKeys.length ?? 0 }));
    return;
  }
  // Asynchronous (server/log-destination.ts): a slow reader of stderr must not stall requests; close() flushes it.
  const logger = createServerLogger(options.logLevel, { format: options.logFormat });
  let server;
  try {
    server = await startServer({
      host: options.host,
      port,
      db: options.db,
      apiKeys,
      logger,
      ...(options.graphiteUrl ? { graphiteUrl: options.graphiteUrl, evalIntervalSeconds: evalInterval, settleDelaySeconds: settleDelayMs / 1000 } : {}),
      ...(options.onNoData ? { onNoData: options.onNoData } : {}),
      ...(options.heartbeatUrl ? { heartbeatUrl: options.heartbeatUrl } : {}),
      ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
      ...(options.smtpUrl ? { smtpUrl: options.smtpUrl } : {}),
      ...(options.smtpFrom ? { smtpFrom: options.smtpFrom } : {}),
      notifierUrls,
      delivery: { retry, timeoutMs: deliveryTimeoutMs },
      quotas,
      console: options.console,
      ...(allowPrivateDestinations !== undefined ? { allowPrivateDestinations } : {}),
      ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
      ...(carbon ? { carbon, stream: { maxSeries: positiveCount('--stream-max-series', options.streamMaxSeries) } } : {}),
    });
  } catch (error) {
    throw new CliError(`cannot start the server: ${(error as Error).message}`);
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      void server.close().then(resolve);
    };
    // Handlers first: whoever reads the URL below may signal at once.
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    process.stdout.write(`alertform server listening on ${server.url}\n`);
    if (options.console) process.stdout.write(`web console: ${server.url}/ (sign in with an API key)\n`);
    // The Graphite URL may carry credentials: say that evaluation runs, not where it reads.
    if (options.graphiteUrl) process.stdout.write(`evaluating alerts against Graphite every ${evalInterval} s\n`);
    if (server.carbon) {
      for (const [protocol, address] of Object.entries(server.carbon.addresses)) {
        process.stdout.write(`carbon ${protocol} receiver on ${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}\n`);
      }
    }
    // The ping URL is a secret too: its origin only.
    if (options.heartbeatUrl) process.stdout.write(`heartbeat after every healthy cycle to ${maskPingUrl(options.heartbeatUrl)}\n`);
  });
  process.stdout.write('alertform server stopped\n');
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

/** The carbon listeners and bounds, checked; undefined when no carbon port is asked for. */
function carbonSettings(options: ServeOptions) {
  const listeners = { plaintext: options.carbonListen, pickle: options.carbonPickleListen, udp: options.carbonUdpListen };
  const flags = { plaintext: '--carbon-listen', pickle: '--carbon-pickle-listen', udp: '--carbon-udp-listen' } as const;
  const given = Object.entries(listeners).filter((entry): entry is [keyof typeof flags, string] => entry[1] !== undefined && entry[1] !== '');
  if (given.length === 0) return undefined;
  for (const [protocol, text] of given) {
    try {
      parseListenAddress(text);
    } catch (error) {
      throw new CliError(`${flags[protocol]}: ${(error as Error).message}`);
    }
  }
  return {
    ...Object.fromEntries(given),
    maxConnections: positiveCount('--carbon-max-connections', options.carbonMaxConnections),
    maxLineBytes: positiveCount('--carbon-max-line-bytes', options.carbonMaxLineBytes),
  };
}

function positiveCount(flag: string, value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new CliError(`${flag} must be a whole number of at least 1, not "${value}"`);
  return count;
}

