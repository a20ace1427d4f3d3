import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { readActualState } from '../../plan/state.js';
import { renderPulledDefinitions } from '../../plan/pull.js';
import { SCHEMAS_DIR } from '../../model/schemas.js';
import { loadProjectConfig } from '../../definitions/project.js';
import { createClient, optionsOf, writeOut } from '../context.js';

/** `pull`: loaded lazily so other commands start fast. */
export async function runPull(command: Command): Promise<void> {
  const opts = optionsOf<{ out: string }>(command);
  const { config } = await loadProjectConfig(opts.out).catch(() => ({ config: { prune: false as const } }));
  const client = createClient(opts, config);
  const actual = await readActualState(client);
  const schemaPath = relative(opts.out, join(SCHEMAS_DIR, 'definitions.schema.json')).split('\\').join('/');
  const files = renderPulledDefinitions(actual, schemaPath);
  await mkdir(opts.out, { recursive: true });
  for (const file of files) await writeFile(join(opts.out, file.name), file.text);
  await writeOut(`Wrote ${files.map((f) => join(opts.out, f.name)).join(', ')}\n`);
}

