import type { Command } from 'commander';
import { loadProject } from '../../definitions/source.js';
import { formatProblem } from '../../definitions/problems.js';
import { channelReferencesOutsideFiles } from '../../definitions/outside-references.js';
import { CliError } from '../errors.js';
import { optionsOf } from '../options.js';
import { writeOut } from '../write-out.js';
import { resolveGraphiteUrl } from '../../impact/graphite-url.js';
import { writeJson } from '../json-output.js';

/** `validate`: loaded lazily so other commands start fast. */
export async function runValidate(dir: string, command: Command): Promise<void> {
  const opts = optionsOf<{ ref?: string; graphiteUrl?: string; window?: string; maxSeries?: number }>(command);
  const loaded = await loadProject(dir, opts.ref ? { ref: opts.ref } : {});
  const graphiteUrl = resolveGraphiteUrl(opts.graphiteUrl, loaded.config, process.env);
  const warnings: string[] = [];
  if (graphiteUrl && loaded.problems.length === 0) {
    // The live checks and their HTTP client are loaded only when there is a Graphite to ask.
    const [{ checkDefinitionsLive }, { parseDurationSeconds }, { createBacktestClient }] = await Promise.all([
      import('../../impact/compute-impact.js'),
      import('../../impact/duration.js'),
      import('../../impact/fetch-window.js'),
    ]);
    let windowSeconds: number;
    try {
      windowSeconds = parseDurationSeconds(opts.window ?? '7d');
    } catch (error) {
      throw new CliError(`--window: ${(error as Error).message}`);
    }
    const live = await checkDefinitionsLive(loaded.definitions, {
      graphite: createBacktestClient(graphiteUrl),
      windowSeconds,
      ...(opts.maxSeries !== undefined ? { maxSeries: opts.maxSeries } : {}),
    });
    warnings.push(...live.warnings);
    loaded.problems.push(...live.problems);
  }
  // Offline, a channel that is not in the files may still be on the server: said where it is written, not refused.
  // Said with the problems too (over the items that loaded), so that one run shows everything to fix.
  const outside = channelReferencesOutsideFiles(loaded.definitions);
  warnings.push(...outside.map(formatProblem));
  const counts = {
    alerts: loaded.definitions.alerts.length,
    channels: loaded.definitions.channels.length,
    schedules: loaded.definitions.schedules.length,
    // Said only when there are some, so the line of a repository without windows reads as it always did.
    ...(loaded.definitions.maintenanceWindows?.length ? { maintenance_windows: loaded.definitions.maintenanceWindows.length } : {}),
    files: loaded.files.length,
  };
  if (opts.json) {
    await writeJson({ valid: loaded.problems.length === 0, counts, warnings, problems: loaded.problems.map((p) => ({ ...p, text: formatProblem(p) })) });
    if (loaded.problems.length > 0) throw new CliError('', 1);
    return;
  }
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
  if (loaded.problems.length > 0) {
    for (const problem of loaded.problems) process.stderr.write(`${formatProblem(problem)}\n`);
    throw new CliError(`${loaded.problems.length} problem(s) found`);
  }
  const toCheck = outside.length > 0 ? `; ${outside.length} channel reference(s) not in the files, for plan to check on the server` : '';
  const windows = counts.maintenance_windows ? `, ${counts.maintenance_windows} maintenance window(s)` : '';
  await writeOut(`Valid: ${counts.alerts} alert(s), ${counts.channels} channel(s), ${counts.schedules} schedule(s)${windows} in ${counts.files} file(s)${toCheck}.\n`);
}
