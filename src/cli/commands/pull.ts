import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { readActualState } from '../../plan/state.js';
import { renderPulledDefinitions } from '../../plan/pull.js';
import { SCHEMAS_DIR } from '../../spec/schemas.js';
import { loadProjectConfig } from '../../spec/project.js';
import { createClient, optionsOf, writeOut } from '../context.js';

/** `alertform pull --out DIR`: the server's alerts, channels and schedules as YAML that plans as no-op. */
export function registerPullCommand(program: Command): void {
  program
    .command('pull')
    .description("write the server's alerts, channels and schedules as definitions that plan as no-op")
    .requiredOption('--out <dir>', 'directory to write schedules.yaml, channels.yaml and alerts.yaml into')
    .addHelpText(
      'after',
      `
Examples:
  $ alertform pull --out alerts/ --server https://KEY@api.example.com
  $ alertform plan alerts/          # plans as no-op
Channel destinations are written as they are: replace them with \${VARIABLES} before committing.`,
    )
    .action(async (_opts: unknown, command: Command) => {
      const opts = optionsOf<{ out: string }>(command);
      const { config } = await loadProjectConfig(opts.out).catch(() => ({ config: { prune: false as const } }));
      const client = createClient(opts, config);
      const actual = await readActualState(client);
      const schemaPath = relative(opts.out, join(SCHEMAS_DIR, 'definitions.schema.json')).split('\\').join('/');
      const files = renderPulledDefinitions(actual, schemaPath);
      await mkdir(opts.out, { recursive: true });
      for (const file of files) await writeFile(join(opts.out, file.name), file.text);
      await writeOut(`Wrote ${files.map((f) => join(opts.out, f.name)).join(', ')}\n`);
    });
}
