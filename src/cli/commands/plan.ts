import type { Command } from 'commander';
import { parseCount } from '../parse.js';


/** `alertform plan [DIR]`: what apply would change, read from one paginated list per kind. */
export function registerPlanCommand(program: Command): void {
  program
    .command('plan')
    .description('show what apply would create, change, mute and delete on the server')
    .argument('[dir]', 'definitions directory', '.')
    .option('--out <file>', 'save the plan (with fingerprints of the server objects read) for `apply FILE`')
    .option('--detailed-exitcode', 'exit 2 when there are changes (0 none, 1 error)')
    .option('--ref <gitref>', 'plan the definitions as they are at a git revision (work tree untouched)')
    .option('--allow-deletes <n>', 'allow up to N deletions (over prune.max_deletes)', parseCount)
    .addHelpText(
      'after',
      `
Examples:
  $ alertform plan examples/ --server http://KEY@127.0.0.1:8080
  $ ALERTFORM_URL=https://api.example.com ALERTFORM_API_KEY=... alertform plan . --out plan.json
  $ alertform plan . --json --detailed-exitcode       # exit 2 when something would change
  $ alertform plan . --ref origin/main                # the definitions at a git revision`,
    )
    .action(async (dir: string, _opts: unknown, command: Command) => {
      const { runPlan } = await import('../actions/plan.js');
      await runPlan(dir, command);
    });
}
