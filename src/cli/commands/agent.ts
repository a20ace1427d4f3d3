import type { Command } from 'commander';
import { CliError } from '../errors.js';

// Placeholder until its issue lands: registered so that --help lists it.
export function registerAgentCommand(program: Command): void {
  program
    .command('agent')
    .description('install a metrics agent (not built yet)')
    .action(() => {
      throw new CliError('agent is not built yet');
    });
}
