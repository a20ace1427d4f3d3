import type { Command } from 'commander';
import { loadProject } from '../../definitions/source.js';
import { formatProblem } from '../../definitions/problems.js';
import { CliError } from '../errors.js';
import { optionsOf, writeOut } from '../context.js';
import { writeJson } from '../json-output.js';

/** `validate`: loaded lazily so other commands start fast. */
export async function runValidate(dir: string, command: Command): Promise<void> {
  const opts = optionsOf<{ ref?: string }>(command);
  const loaded = await loadProject(dir, opts.ref ? { ref: opts.ref } : {});
  const counts = {
    alerts: loaded.definitions.alerts.length,
    channels: loaded.definitions.channels.length,
    schedules: loaded.definitions.schedules.length,
    files: loaded.files.length,
  };
  if (opts.json) {
    await writeJson({ valid: loaded.problems.length === 0, counts, problems: loaded.problems.map((p) => ({ ...p, text: formatProblem(p) })) });
    if (loaded.problems.length > 0) throw new CliError('', 1);
    return;
  }
  if (loaded.problems.length > 0) {
    for (const problem of loaded.problems) process.stderr.write(`${formatProblem(problem)}\n`);
    throw new CliError(`${loaded.problems.length} problem(s) found`);
  }
  await writeOut(`Valid: ${counts.alerts} alert(s), ${counts.channels} channel(s), ${counts.schedules} schedule(s) in ${counts.files} file(s).\n`);
}
