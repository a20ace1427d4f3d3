import type { Command } from 'commander';

/** `alertform init [DIR]`: a new definitions repository with schemas, editor settings and the workflow. */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('scaffold a definitions repository: alertform.yaml, an example channel and alert, schemas, editor settings, workflow')
    .argument('[dir]', 'directory to write into (created when missing)', '.')
    .option('--force', 'overwrite files that exist already')
    .addHelpText(
      'after',
      `
Writes alertform.yaml, channels.yaml, alerts.yaml, .alertform/schemas/*.schema.json (every YAML file's
\`# yaml-language-server: $schema=\` line points there, relative), .vscode/settings.json (yaml.schemas) and
.github/workflows/alertform.yml. Refuses to overwrite any of them unless --force.

Examples:
  $ alertform init alerts && cd alerts && alertform validate
  $ alertform init --force          # refresh the schema copies and the examples after an upgrade`,
    )
    .action(async (dir: string, _opts: unknown, command: Command) => {
      const { runInit } = await import('../actions/init.js');
      await runInit(dir, command);
    });
}
