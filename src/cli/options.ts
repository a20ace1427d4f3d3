import type { Command } from 'commander';
import type { GlobalOptions } from './program.js';

// Apart from context.ts (which makes API clients): commands that talk to no server load no HTTP client.

/** The global options merged with the command's own. */
export function optionsOf<T>(command: Command): T & GlobalOptions {
  return command.optsWithGlobals() as T & GlobalOptions;
}

/** Colours only on a terminal, without NO_COLOR and without --no-color. */
export function useColor(globals: GlobalOptions, stream: NodeJS.WriteStream = process.stdout): boolean {
  if (globals.color === false || process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}
