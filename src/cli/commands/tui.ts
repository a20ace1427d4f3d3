import type { Command } from 'commander';
import { CliError } from '../errors.js';

// Placeholder until its issue lands: registered so that --help lists it.
export function registerTuiCommand(program: Command): void {
  program
    .command('tui')
    .description('the agent installer, interactive (not built yet)')
    .action(() => {
      throw new CliError('tui is not built yet');
    });
}
