import type { Command } from 'commander';
import { AlertformClient } from '../client/api.js';
import { parseServerUrl, redactUrl } from '../client/connection.js';
import type { GlobalOptions } from './program.js';
import { CliError } from './errors.js';
import type { ProjectConfig } from '../definitions/project.js';
import { formatProblem, type Problem } from '../definitions/problems.js';

/** The server and key to use: flags over env (ALERTFORM_URL, ALERTFORM_API_KEY) over alertform.yaml. */
export function resolveServer(globals: GlobalOptions, config: ProjectConfig | undefined, env: NodeJS.ProcessEnv = process.env): { server: string; apiKey?: string } {
  const server = globals.server ?? env.ALERTFORM_URL ?? config?.server;
  if (!server) throw new CliError('no server: pass --server URL, set ALERTFORM_URL, or write `server:` in alertform.yaml');
  const apiKey = globals.apiKey ?? env.ALERTFORM_API_KEY;
  try {
    parseServerUrl(server, apiKey);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  return { server, ...(apiKey ? { apiKey } : {}) };
}

/** A client for the resolved server. */
export function createClient(globals: GlobalOptions, config?: ProjectConfig): AlertformClient {
  return new AlertformClient(resolveServer(globals, config));
}

/** The server's base URL as it may be printed (never the key). */
export function printableServer(globals: GlobalOptions, config?: ProjectConfig): string {
  const { server, apiKey } = resolveServer(globals, config);
  return redactUrl(parseServerUrl(server, apiKey).baseUrl);
}

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

/** Prints definition problems to stderr and fails, or returns when there are none. */
export function failOnProblems(problems: Problem[], what = 'definitions'): void {
  if (problems.length === 0) return;
  for (const problem of problems) process.stderr.write(`${formatProblem(problem)}\n`);
  throw new CliError(`${problems.length} problem(s) in the ${what}`);
}

export { writeOut } from './write-out.js';
