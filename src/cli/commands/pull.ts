import type { Command } from 'commander';
import { CliError } from '../errors.js';

// Placeholder until its issue lands: registered so that --help lists it.
export function registerPullCommand(program: Command): void {
  program
    .command('pull')
    .description('write the server state as definitions (not built yet)')
    .action(() => {
      throw new CliError('pull is not built yet');
    });
}
