import type { Command } from 'commander';
import type { GlobalOptions } from '../program.js';
import { CliError } from '../errors.js';
import { writeJson } from '../json-output.js';
import { parseCount, collect } from '../parse.js';

interface MuteOptions {
  id: string[];
  search?: string;
  duration?: number;
  all?: boolean;
}

/** The selection sent to the bulk endpoints; an empty one means every alert, so it must be asked for by --all. */
function selectionOf(opts: MuteOptions): { ids?: string[]; search?: string } {
  const selection = { ...(opts.id.length > 0 ? { ids: opts.id } : {}), ...(opts.search ? { search: opts.search } : {}) };
  if (!selection.ids && !selection.search && !opts.all) {
    throw new CliError('say which alerts: --id ID (repeatable), --search TEXT, or --all for every alert');
  }
  if (opts.all && (selection.ids || selection.search)) throw new CliError('--all cannot be combined with --id or --search');
  return selection;
}

/** `alertform mute` / `unmute`: the API's bulk mute, for maintenance windows. */
export function registerMuteCommands(program: Command): void {
  program
    .command('mute')
    .description('mute alerts in bulk for a number of minutes (by --id, --search, or --all)')
    .option('--id <id>', 'alert id (repeatable)', collect, [])
    .option('--search <text>', 'alerts whose name, metric or channel name contains the text')
    .option('--all', 'every alert of the account')
    .requiredOption('--duration <minutes>', 'minutes to stay muted', parseCount)
    .addHelpText(
      'after',
      `
Examples:
  $ alertform mute --search db- --duration 90      # maintenance on the database hosts
  $ alertform mute --id 4f1c2a --id 9e0b7d --duration 30
  $ alertform mute --all --duration 15`,
    )
    .action(async (_opts: unknown, command: Command) => {
      const { optionsOf, writeOut } = await import('../context.js');
      const opts = optionsOf<MuteOptions>(command);
      if (!opts.duration || opts.duration < 1) throw new CliError('--duration must be at least 1 minute');
      const selection = selectionOf(opts);
      const client = await clientHere(opts);
      const result = await client.bulkMute(selection, opts.duration);
      if (opts.json) await writeJson({ ...result });
      else await writeOut(`Muted ${result.ids.length} alert(s) for ${opts.duration} minutes.\n`);
    });

  program
    .command('unmute')
    .description('unmute alerts in bulk (by --id, --search, or --all)')
    .option('--id <id>', 'alert id (repeatable)', collect, [])
    .option('--search <text>', 'alerts whose name, metric or channel name contains the text')
    .option('--all', 'every alert of the account')
    .addHelpText(
      'after',
      `
Examples:
  $ alertform unmute --search db-
  $ alertform unmute --all`,
    )
    .action(async (_opts: unknown, command: Command) => {
      const { optionsOf, writeOut } = await import('../context.js');
      const opts = optionsOf<MuteOptions>(command);
      const selection = selectionOf(opts);
      const client = await clientHere(opts);
      const result = await client.bulkUnmute(selection);
      if (opts.json) await writeJson({ ...result });
      else await writeOut(`Unmuted ${result.ids.length} alert(s).\n`);
    });
}

/** A client for the server named by flags, env or ./alertform.yaml (loaded lazily: other commands start fast). */
async function clientHere(opts: MuteOptions & GlobalOptions) {
  const [{ createClient }, { loadProjectConfig }] = await Promise.all([import('../context.js'), import('../../definitions/project.js')]);
  return createClient(opts, (await loadProjectConfig('.')).config);
}
