import type { Command } from 'commander';
import { CliError } from '../errors.js';

// Placeholder until its issue lands: registered so that --help lists it.
export function registerApplyCommand(program: Command): void {
  program
    .command('apply')
    .description('apply definitions to the server (not built yet)')
    .action(() => {
      throw new CliError('apply is not built yet');
    });
}
