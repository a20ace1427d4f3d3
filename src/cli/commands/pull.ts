import type { Command } from 'commander';

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
      const { runPull } = await import('../actions/pull.js');
      await runPull(command);
    });
}
