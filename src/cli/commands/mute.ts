import type { Command } from 'commander';
import { CliError } from '../errors.js';

// Placeholder until its issue lands: registered so that --help lists it.
export function registerMuteCommands(program: Command): void {
  for (const name of ['mute', 'unmute']) {
    program
      .command(name)
      .description(`${name} alerts in bulk (not built yet)`)
      .action(() => {
        throw new CliError(`${name} is not built yet`);
      });
  }
}
