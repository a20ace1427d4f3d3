import type { Command } from 'commander';
import { CliError } from './errors.js';
import { jsonWritten, renderJsonError } from './json-output.js';
import { AlertformError } from '../model/errors.js';
import { startRun } from '../run-scope.js';
import { VERSION } from '../version.js';

/**
 * One run of the command line: the only place that turns errors into messages and exit codes (process.exitCode).
 * The entry point (main.ts) runs it once; a process may run it more than once in turn (the test suite runs the CLI
 * in its workers), each run starting clean (startRun).
 */
export async function runCommandLine(argv: string[]): Promise<void> {
  // Every command's module tree loads with the program: `--version` alone, asked by scripts and version checks,
  // answers before it (its start is then node's own plus this file's few imports).
  if (argv.length === 3 && (argv[2] === '--version' || argv[2] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  startRun();
  const { createProgram } = await import('./program.js');
  const program = createProgram();
  // Every command, not only the root (commander copies the setting only to commands added after it): usage
  // errors of a subcommand come here too, instead of a process.exit inside commander.
  const override = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  override(program);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    const opts = program.opts<{ verbose?: boolean; json?: boolean; apiKey?: string; server?: string }>();
    const json = opts.json === true || argv.includes('--json');
    // Error messages leave the process too: the key and URL credentials, wherever they were given, never do.
    // (Loaded here, as every module below a command is: `--version` and `--help` load only commander.)
    const { Redactor, secretsInUrl } = await import('../redact/index.js');
    const redactor = new Redactor([opts.apiKey, process.env.ALERTFORM_API_KEY, ...secretsInUrl(opts.server), ...secretsInUrl(process.env.ALERTFORM_URL)]);
    const { hintFor } = await import('./error-hints.js');
    const hint = hintFor(error);
    process.exitCode = exitCodeFor(error, { verbose: opts.verbose === true, json, redact: (text) => redactor.redact(text), ...(hint ? { hint } : {}) });
  }
}

function exitCodeFor(error: unknown, options: { verbose: boolean; json: boolean; redact: (text: string) => string; hint?: string }): number {
  const write = (text: string) => process.stderr.write(options.redact(text));
  // Under --json a script reads stdout: a failure is a JSON document there too, unless the command's own
  // document (a plan with errors, an apply with failed steps, an invalid validate) already says it.
  const failWith = (message: string, code: number) => {
    if (options.json && code !== 0 && !jsonWritten()) process.stdout.write(renderJsonError(options.redact(message), code));
    return code;
  };
  // commander already printed its own usage errors and help; it tells us the code to use.
  if (error && typeof error === 'object' && 'code' in error && String(error.code).startsWith('commander.')) {
    const message = error instanceof Error ? error.message.replace(/^error: /, '') : String(error);
    return failWith(message, (error as { exitCode?: number }).exitCode ?? 1);
  }
  if (error instanceof CliError) {
    if (error.message) write(`alertform: ${error.message}\n`);
    return failWith(error.message, error.exitCode);
  }
  // Expected failures of the modules below (client, definitions, plan, apply, agent), whatever their code: the
  // message, exit 1, a stack only with --verbose.
  const message = error instanceof AlertformError ? error.message : describeError(error);
  write(`alertform: ${message}\n`);
  if (options.hint) write(`hint: ${options.hint}\n`);
  if (options.verbose && error instanceof Error && error.stack) write(`${error.stack}\n`);
  return failWith(options.hint ? `${message} (${options.hint})` : message, 1);
}

/** One line for an unexpected error; a missing file or directory is named plainly, not as a raw ENOENT. */
function describeError(error: unknown): string {
  const system = error as NodeJS.ErrnoException;
  if (system && typeof system === 'object' && typeof system.path === 'string') {
    const what = system.syscall === 'scandir' || system.syscall === 'opendir' ? 'directory' : 'file or directory';
    if (system.code === 'ENOENT') return `no such ${what}: ${system.path}`;
    if (system.code === 'ENOTDIR') return `not a directory: ${system.path}`;
    if (system.code === 'EACCES' || system.code === 'EPERM') return `permission denied: ${system.path}`;
    if (system.code === 'EISDIR') return `is a directory, not a file: ${system.path}`;
  }
  return error instanceof Error ? error.message : String(error);
}
