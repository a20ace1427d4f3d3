import type { Command } from 'commander';
import type { GlobalOptions } from '../program.js';
import { CliError } from '../errors.js';
import { writeJson } from '../json-output.js';
import { collect, parseMinutes } from '../parse.js';
import { MAX_MUTE_MINUTES } from '../../model/defaults.js';

interface MuteOptions {
  id: string[];
  search?: string;
  duration?: string;
  all?: boolean;
}

type Selection = { ids?: string[]; search?: string };

/**
 * The selection sent to the bulk endpoints, alert names (the arguments) looked up as ids; an empty selection means
 * every alert, so it must be asked for by --all.
 */
async function selectionOf(names: string[], opts: MuteOptions, client: () => Promise<AlertsByName>): Promise<Selection> {
  if (!names.length && !opts.id.length && !opts.search && !opts.all) {
    throw new CliError('say which alerts: their names, --id ID (repeatable), --search TEXT, or --all for every alert');
  }
  if (opts.all && (names.length || opts.id.length || opts.search)) throw new CliError('--all cannot be combined with names, --id or --search');
  const named = await Promise.all(names.map(async (name) => ({ name, id: await (await client()).findAlertId(name) })));
  const missing = named.filter((one) => !one.id).map((one) => `"${one.name}"`);
  if (missing.length) throw new CliError(`no alert named ${missing.join(', ')} on the server (nothing changed)`);
  const ids = [...opts.id, ...named.map((one) => one.id!)];
  return { ...(ids.length > 0 ? { ids } : {}), ...(opts.search ? { search: opts.search } : {}) };
}

interface AlertsByName {
  findAlertId(name: string): Promise<string | undefined>;
}

/** `alertform mute` / `unmute`: the API's bulk mute, for maintenance windows. */
export function registerMuteCommands(program: Command): void {
  program
    .command('mute')
    .description('mute alerts for a while (by name, --id, --search, or --all)')
    .argument('[names...]', "alert names (each must exist; all or nothing)")
    .option('--id <id>', 'alert id (repeatable)', collect, [])
    .option('--search <text>', 'alerts whose name, metric or channel name contains the text')
    .option('--all', 'every alert of the account')
    .requiredOption('--duration <duration>', `how long to stay muted: 2h, 1h30m, 1d, 30m, or a bare number of minutes (at most ${MAX_MUTE_MINUTES} minutes, a year)`)
    .addHelpText(
      'after',
      `
Examples:
  $ alertform mute "Disk full" --duration 2h
  $ alertform mute --search db- --duration 90      # 90 minutes: maintenance on the database hosts
  $ alertform mute --id 4f1c2a --id 9e0b7d --duration 30m
  $ alertform mute --all --duration 15`,
    )
    .action(async (names: string[], _opts: unknown, command: Command) => {
      const { optionsOf, writeOut } = await import('../context.js');
      const opts = optionsOf<MuteOptions>(command);
      const minutes = parseMinutes(opts.duration ?? '', '--duration', MAX_MUTE_MINUTES);
      const client = once(() => clientHere(opts));
      const selection = await selectionOf(names, opts, client);
      const result = await (await client()).bulkMute(selection, minutes);
      if (opts.json) await writeJson({ ...result });
      else await writeOut(`Muted ${result.ids.length} alert(s) for ${minutes} minutes.\n`);
    });

  program
    .command('unmute')
    .description('unmute alerts (by name, --id, --search, or --all)')
    .argument('[names...]', "alert names (each must exist; all or nothing)")
    .option('--id <id>', 'alert id (repeatable)', collect, [])
    .option('--search <text>', 'alerts whose name, metric or channel name contains the text')
    .option('--all', 'every alert of the account')
    .addHelpText(
      'after',
      `
Examples:
  $ alertform unmute "Disk full"
  $ alertform unmute --search db-
  $ alertform unmute --all`,
    )
    .action(async (names: string[], _opts: unknown, command: Command) => {
      const { optionsOf, writeOut } = await import('../context.js');
      const opts = optionsOf<MuteOptions>(command);
      const client = once(() => clientHere(opts));
      const selection = await selectionOf(names, opts, client);
      const result = await (await client()).bulkUnmute(selection);
      if (opts.json) await writeJson({ ...result });
      else await writeOut(`Unmuted ${result.ids.length} alert(s).\n`);
    });
}

/** A client for the server named by flags, env or ./alertform.yaml (loaded lazily: other commands start fast). */
async function clientHere(opts: MuteOptions & GlobalOptions) {
  const [{ createClient }, { loadProjectConfig }] = await Promise.all([import('../context.js'), import('../../definitions/project.js')]);
  return createClient(opts, (await loadProjectConfig('.')).config);
}

/** `make()` on the first call, its promise thereafter: one client per command, made only when needed. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
