import type { Command } from 'commander';
import { CliError } from '../errors.js';

// Placeholder until its issue lands: registered so that --help lists it.
export function registerPlanCommand(program: Command): void {
  program
    .command('plan')
    .description('show what apply would change (not built yet)')
    .action(() => {
      throw new CliError('plan is not built yet');
    });
}
