import { createProgram } from './program.js';
import { CliError } from './errors.js';
import { AlertformError } from '../model/errors.js';

/** The entry point: the only place that turns errors into messages and exit codes. */
async function main(argv: string[]): Promise<void> {
  const program = createProgram();
  program.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    process.exitCode = exitCodeFor(error, program.opts().verbose === true);
  }
}

function exitCodeFor(error: unknown, verbose: boolean): number {
  // commander already printed its own usage errors and help; it tells us the code to use.
  if (error && typeof error === 'object' && 'code' in error && String(error.code).startsWith('commander.')) {
    return (error as { exitCode?: number }).exitCode ?? 1;
  }
  if (error instanceof CliError) {
    if (error.message) process.stderr.write(`alertform: ${error.message}\n`);
    return error.exitCode;
  }
  // Expected failures of the modules below (client, definitions, plan, apply, agent), whatever their code: the
  // message, exit 1, a stack only with --verbose.
  if (error instanceof AlertformError) {
    process.stderr.write(`alertform: ${error.message}\n`);
    if (verbose && error.stack) process.stderr.write(`${error.stack}\n`);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`alertform: ${message}\n`);
  if (verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return 1;
}

await main(process.argv);
