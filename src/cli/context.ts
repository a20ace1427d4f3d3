import { AlertformClient } from '../client/api.js';
import { resolveServer } from '../client/resolve-server.js';
import type { ServerRequest } from '../plan/plan-project.js';
import type { GlobalOptions } from './program.js';
import { CliError } from './errors.js';
import type { ProjectConfig } from '../definitions/project.js';
import { formatProblem, type Problem } from '../definitions/problems.js';

/** What to say when no source names a server. */
const MISSING_SERVER = 'pass --server URL, set ALERTFORM_URL, or write `server:` in alertform.yaml';

/** The CLI's server request for planProject: flags over env (ALERTFORM_URL, ALERTFORM_API_KEY) over alertform.yaml. */
export function serverRequestOf(globals: GlobalOptions): ServerRequest {
  return { given: { server: globals.server, apiKey: globals.apiKey }, trustProjectServer: true, missingHint: MISSING_SERVER };
}

/** A client for the server the flags, the env or alertform.yaml name (commands that do not plan: pull, mute). */
export function createClient(globals: GlobalOptions, config?: ProjectConfig): AlertformClient {
  return new AlertformClient(
    resolveServer({
      given: { server: globals.server, apiKey: globals.apiKey },
      missingHint: MISSING_SERVER,
      ...(config?.server ? { projectServer: config.server } : {}),
    }),
  );
}

/** Prints definition problems to stderr and fails, or returns when there are none. */
export function failOnProblems(problems: Problem[], what = 'definitions'): void {
  if (problems.length > 0) failWithProblems(problems, what);
}

/** Prints definition problems to stderr and fails (a planProject result that is `invalid`). */
export function failWithProblems(problems: Problem[], what = 'definitions'): never {
  for (const problem of problems) process.stderr.write(`${formatProblem(problem)}\n`);
  throw new CliError(`${problems.length} problem(s) in the ${what}`);
}

export { writeOut } from './write-out.js';
export { optionsOf, useColor } from './options.js';
