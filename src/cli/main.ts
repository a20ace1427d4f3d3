import { createProgram } from './program.js';
import { CliError } from './errors.js';
import { AlertformError } from '../model/errors.js';
import { Redactor, secretsInUrl } from '../redact/index.js';

/** The entry point: the only place that turns errors into messages and exit codes. */
async function main(argv: string[]): Promise<void> {
  const program = createProgram();
  program.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    const opts = program.opts<{ verbose?: boolean; apiKey?: string; server?: string }>();
    // Error messages leave the process too: the key and URL credentials, wherever they were given, never do.
    const redactor = new Redactor([opts.apiKey, process.env.ALERTFORM_API_KEY, ...secretsInUrl(opts.server), ...secretsInUrl(process.env.ALERTFORM_URL)]);
    process.exitCode = exitCodeFor(error, opts.verbose === true, (text) => process.stderr.write(redactor.redact(text)));
  }
}

function exitCodeFor(error: unknown, verbose: boolean, write: (text: string) => void): number {
  // commander already printed its own usage errors and help; it tells us the code to use.
  if (error && typeof error === 'object' && 'code' in error && String(error.code).startsWith('commander.')) {
    return (error as { exitCode?: number }).exitCode ?? 1;
  }
  if (error instanceof CliError) {
    if (error.message) write(`alertform: ${error.message}\n`);
    return error.exitCode;
  }
  // Expected failures of the modules below (client, definitions, plan, apply, agent), whatever their code: the
  // message, exit 1, a stack only with --verbose.
  if (error instanceof AlertformError) {
    write(`alertform: ${error.message}\n`);
    if (verbose && error.stack) write(`${error.stack}\n`);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  write(`alertform: ${message}\n`);
  if (verbose && error instanceof Error && error.stack) write(`${error.stack}\n`);
  return 1;
}

await main(process.argv);
