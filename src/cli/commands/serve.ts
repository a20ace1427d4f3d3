import type { Command } from 'commander';
import { pino } from 'pino';
import { startServer } from '../../server/index.js';
import { CliError } from '../errors.js';

interface ServeOptions {
  host: string;
  port: string;
  db: string;
  apiKey: string[];
}

/** `alertform serve`: the bundled /v2 server. Prints its URL; SIGTERM and SIGINT close it cleanly. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the bundled /v2 alerting server (alerts, channels, schedules, history) on SQLite')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '8080')
    .option('--db <path>', 'SQLite database file, or :memory:', './alertform.db')
    .option(
      '--api-key <key>',
      'make sure this API key exists (repeatable; also env ALERTFORM_API_KEYS, comma separated)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addHelpText(
      'after',
      `
Each new key gets an account of its own, with an "Email me" channel. Logs (JSON, pino) go to stdout;
ALERTFORM_LOG_LEVEL sets the level (default info).

Examples:
  $ alertform serve --api-key demo-key
  $ alertform serve --port 0 --db :memory: --api-key k1 --api-key k2
  $ ALERTFORM_API_KEYS=k1,k2 alertform serve --host 0.0.0.0 --db /var/lib/alertform/alertform.db
  $ curl http://demo-key@127.0.0.1:8080/v2/alerts/`,
    )
    .action(async (options: ServeOptions, command: Command) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0..65535, not "${options.port}"`);
      const fromEnv = (process.env.ALERTFORM_API_KEYS ?? '').split(',').map((key) => key.trim()).filter(Boolean);
      const logger = pino({ level: process.env.ALERTFORM_LOG_LEVEL ?? 'info' }, pino.destination(2));
      let server;
      try {
        server = await startServer({
          host: options.host,
          port,
          db: options.db,
          apiKeys: [...repeatedOption(command, '--api-key'), ...(options.apiKey ?? []), ...fromEnv],
          logger,
        });
      } catch (error) {
        throw new CliError(`cannot start the server: ${(error as Error).message}`);
      }
      process.stdout.write(`alertform server listening on ${server.url}\n`);
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
