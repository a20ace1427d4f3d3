import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { readActualState } from '../../plan/state.js';
import { renderPulledDefinitions } from '../../plan/pull.js';
import { copySchemas, findRepositoryRoot, schemaPathFrom } from '../../scaffold/schema-copy.js';
import { loadProjectConfig } from '../../definitions/project.js';
import { createClient, optionsOf, writeOut } from '../context.js';
import { writeJson } from '../json-output.js';

/**
 * `pull`: loaded lazily so other commands start fast. The files' `$schema` lines point into the repository's own
 * `.alertform/schemas/` (copied there), relative to each file: they are committed, so never a machine path.
 */
export async function runPull(command: Command): Promise<void> {
  const opts = optionsOf<{ out: string }>(command);
  const { config } = await loadProjectConfig(opts.out).catch(() => ({ config: { prune: false as const } }));
  const client = createClient(opts, config);
  const actual = await readActualState(client);
  await mkdir(opts.out, { recursive: true });
  const root = await findRepositoryRoot(opts.out);
  const schemas = await copySchemas(root);
  const files = renderPulledDefinitions(actual, schemaPathFrom(opts.out, root, 'definitions'));
  for (const file of files) await writeFile(join(opts.out, file.name), file.text);
  const written = files.map((f) => join(opts.out, f.name));
  if (opts.json) {
    await writeJson({ written, schemas: schemas.map((path) => relative(process.cwd(), path)) });
    return;
  }
  await writeOut(`Wrote ${written.join(', ')} (schemas in ${relative(process.cwd(), join(root, '.alertform', 'schemas')) || '.'})\n`);
}
