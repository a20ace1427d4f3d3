import type { Command } from 'commander';
import { initRepository, ScaffoldConflict } from '../../scaffold/init-repository.js';
import { CliError } from '../errors.js';
import { optionsOf, writeOut } from '../context.js';
import { writeJson } from '../json-output.js';
import { commandName } from '../invocation.js';

/** `init`: loaded lazily so other commands start fast. */
export async function runInit(dir: string, command: Command): Promise<void> {
  const opts = optionsOf<{ force?: boolean }>(command);
  let written: string[];
  try {
    written = await initRepository(dir, { force: opts.force === true });
  } catch (error) {
    if (error instanceof ScaffoldConflict) throw new CliError(`cannot init ${dir}: ${error.message}`);
    throw error;
  }
  if (opts.json) {
    await writeJson({ dir, written });
    return;
  }
  const inDir = dir === '.' ? '' : ` ${dir}`;
  const alertform = commandName();
  await writeOut(
    `Initialised a definitions repository in ${dir}:\n${written.map((path) => `  ${path}\n`).join('')}\n` +
      `Next:\n` +
      `  ${alertform} validate${inDir}\n` +
      `  ${alertform} plan${inDir} --server http://KEY@HOST:PORT     # or ALERTFORM_URL and ALERTFORM_API_KEY\n`,
  );
}
