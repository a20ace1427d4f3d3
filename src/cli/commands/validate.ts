import type { Command } from 'commander';
import { parseCount } from '../parse.js';

/** `alertform validate [DIR]`: schema and rules, every problem at once as `file:line:column  path  message`. */
export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description('check a definitions directory: YAML, schema and rules; all errors at once as file:line:column')
    .argument('[dir]', 'definitions directory', '.')
    .option('--ref <gitref>', 'validate the definitions as they are at a git revision (work tree untouched)')
    .option('--graphite-url <url>', 'also check every query against this graphite-web: no series, too many series, rejected functions (env ALERTFORM_GRAPHITE_URL)')
    .option('--window <duration>', 'history the live checks look at', '7d')
    .option('--max-series <n>', 'warn when a wildcard matches more series than this', parseCount, 100)
    .addHelpText(
      'after',
      `
Examples:
  $ alertform validate examples/
  $ alertform validate --json .          # {"valid": false, "problems": [...]}
  $ alertform validate --ref origin/main .
  $ alertform validate --graphite-url http://127.0.0.1:8000 .   # do the metrics exist?`,
    )
    .action(async (dir: string, _opts: unknown, command: Command) => {
      const { runValidate } = await import('../actions/validate.js');
      await runValidate(dir, command);
    });
}
