import type { Command } from 'commander';
import { CliError } from '../errors.js';

// Placeholder until its issue lands: registered so that --help lists it.
export function registerKeysCommand(program: Command): void {
  program
    .command('keys')
    .description('manage API keys of the bundled server (not built yet)')
    .action(() => {
      throw new CliError('keys is not built yet');
    });
}
