import type { Command } from 'commander';
import { addServeOptions } from '../serve-options.js';
import type { ServeOptions } from '../actions/serve.js';
import { docsUrl } from '../../model/docs-url.js';

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
    .option('--print-config', 'print the settings merged from flags, variables, --config and defaults (secrets masked), and exit')
    .addHelpText(
      'after',
      `
Every option can also come from the environment variable shown, or from a YAML file given with --config (each
option as a snake_case key: graphite_url, eval_interval, console: false; \${VAR} in values; a secret as
KEY_file: PATH); a flag wins over its variable, which wins over the file. --print-config shows the result, as a
file --config reads back. Name the file alertform-server.yaml (never alertform.yaml, the definitions' project file);
keys and backup read its db too. SIGHUP (systemctl reload) reads it again and applies log_level, api_keys,
api_key_file and the max_*_per_account limits; the other settings need a restart.
Each new key gets an account of its own, with an "Email me" channel. Keys must be at least 24 characters without
":" (alertform keys create makes such keys); prefer --api-key-file or ALERTFORM_API_KEYS to --api-key, which the
process list shows; a config file, KEY_file or key file holding secrets that its group or others can read is warned
about too (chmod 600 it). Logs go to stderr: readable lines on a terminal, JSON lines (pino) otherwise (--log-format).
GET /healthz, /readyz and /metrics (Prometheus) need no API key; /metrics needs the
--metrics-token (as a Bearer token) when one is set. See ${docsUrl('server.md')}.

Examples:
  $ alertform serve --api-key-file /etc/alertform/keys
  $ alertform serve --config /etc/alertform/alertform-server.yaml --print-config
  $ ALERTFORM_API_KEYS=$KEY1,$KEY2 ALERTFORM_HOST=0.0.0.0 ALERTFORM_DB=/var/lib/alertform/alertform.db alertform serve
  $ ALERTFORM_DB=postgres://alertform@db.internal:5432/alertform alertform serve --api-key-file keys
  $ curl http://$KEY1@127.0.0.1:8080/v2/alerts/
  $ ALERTFORM_METRICS_TOKEN=$(cat /etc/alertform/metrics-token) alertform serve --api-key-file keys
  $ curl -H "Authorization: Bearer $(cat /etc/alertform/metrics-token)" http://127.0.0.1:8080/metrics
  $ alertform serve --api-key-file keys --graphite-url http://127.0.0.1:8000 --eval-interval 30 \\
      --smtp-url smtp://127.0.0.1:25 --smtp-from alerts@example.com

With --graphite-url, every --eval-interval seconds each alert is evaluated against Graphite: status, history and
notifications to its channels (email needs --smtp-url). See ${docsUrl('evaluator.md')}.
With --heartbeat-url (a dead man's switch: healthchecks.io, Cronitor, Dead Man's Snitch), the server GETs that URL
after every healthy cycle (the database answered, and Graphite answered at least one query); the switch pages when
the pings stop. The URL is a secret: prefer the environment variable. See ${docsUrl('operations.md')}.
  $ ALERTFORM_HEARTBEAT_URL=https://hc-ping.com/$CHECK_UUID alertform serve --api-key-file keys --graphite-url http://127.0.0.1:8000

With --carbon-listen (plaintext) or --carbon-pickle-listen (carbon-relay's pickles), the server also receives the
metric stream as one more destination of your relay; a bare port listens on loopback. Malformed input is counted
(alertform_carbon_lines_invalid_total), never fatal. See ${docsUrl('operations.md')} for relay, Telegraf and collectd configs.
  $ alertform serve --api-key-file keys --graphite-url http://127.0.0.1:8000 --carbon-listen 2103 --carbon-pickle-listen 2104

Notifications go through a durable outbox in the database: a failed one is retried with exponential backoff and
jitter (or after the service's Retry-After) until --delivery-max-age, then dead-lettered; a restart resumes them.
Durations: 500ms, 30s, 15m, 24h, 7d (a bare number is seconds). See them with \`alertform deliveries\`.
  $ alertform serve --api-key-file keys --graphite-url http://127.0.0.1:8000 --delivery-max-age 2h
--db takes a SQLite file (one node) or a postgres://USER[:PASSWORD]@HOST:PORT/DB URL; ALERTFORM_DB keeps a
password off the command line (PGPASSWORD works too). The schema is migrated on start. While PostgreSQL is
unreachable the API answers 503 {"error": {"code": "unavailable"}} and recovers by itself. See ${docsUrl('operations.md')}.

Webhook, Slack and VictorOps deliveries never reach loopback, private, link-local or metadata addresses (checked
on the address connected to), nor follow redirects, unless --allow-private-destinations says so. See
${docsUrl('security.md')}.`,
    )
    .action(async (options: ServeOptions, command: Command) => {
      const { runServe } = await import('../actions/serve.js');
      await runServe(options, command);
    });
}
