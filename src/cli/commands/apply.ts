import type { Command } from 'commander';
import { parseCount } from '../parse.js';


/** `alertform apply [DIR|PLANFILE]`: plan, confirm, then run the steps; or apply a saved plan if still fresh. */
export function registerApplyCommand(program: Command): void {
  program
    .command('apply')
    .description('apply definitions (plan, confirm, run) or a plan saved with `plan --out`')
    .argument('[target]', 'definitions directory, or a plan file from `plan --out`', '.')
    .option('--auto-approve', 'do not ask for confirmation (required when not on a terminal)')
    .option('--allow-deletes <n>', 'allow up to N deletions (over prune.max_deletes)', parseCount)
    .option('--concurrency <n>', 'steps in flight at once', parseCount, 8)
    .addHelpText(
      'after',
      `
Examples:
  $ alertform apply examples/                         # shows the plan, asks before changing anything
  $ alertform apply . --auto-approve                  # CI: no questions
  $ alertform plan . --out plan.json && alertform apply plan.json   # refuses if the plan is stale
Exit codes: 0 all applied (or nothing to do), 1 an error or a failed step.`,
    )
    .action(async (target: string, _opts: unknown, command: Command) => {
      const { runApply } = await import('../actions/apply.js');
      await runApply(target, command);
    });
}
