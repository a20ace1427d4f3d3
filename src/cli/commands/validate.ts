import type { Command } from 'commander';
import { CliError } from '../errors.js';

// Placeholder until its issue lands: registered so that --help lists it.
export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description('check definitions (not built yet)')
    .action(() => {
      throw new CliError('validate is not built yet');
    });
}
