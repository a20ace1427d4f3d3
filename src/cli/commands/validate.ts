import type { Command } from 'commander';

/** `alertform validate [DIR]`: schema and rules, every problem at once as `file:line:column  path  message`. */
export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description('check a definitions directory: YAML, schema and rules; all errors at once as file:line:column')
    .argument('[dir]', 'definitions directory', '.')
    .option('--ref <gitref>', 'validate the definitions as they are at a git revision (work tree untouched)')
    .addHelpText(
      'after',
      `
Examples:
  $ alertform validate examples/
  $ alertform validate --json .          # {"valid": false, "problems": [...]}
  $ alertform validate --ref origin/main .`,
    )
    .action(async (dir: string, _opts: unknown, command: Command) => {
      const { runValidate } = await import('../actions/validate.js');
      await runValidate(dir, command);
    });
}
