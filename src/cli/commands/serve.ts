import type { Command } from 'commander';
import { CliError } from '../errors.js';

// Placeholder until its issue lands: registered so that --help lists it.
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the bundled /v2 alerting server (not built yet)')
    .action(() => {
      throw new CliError('serve is not built yet');
    });
}
