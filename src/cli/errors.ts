import { AlertformError } from '../model/errors.js';

/**
 * An expected failure of a command: its message is shown as is, without a stack. The CLI is an entry point, so
 * its own errors may name their exit code (2 for `plan --detailed-exitcode` with changes, 130 for Ctrl-C).
 */
export class CliError extends AlertformError {
  constructor(
    message: string,
    readonly exitCode = 1,
    options?: { cause?: unknown },
  ) {
    super('command_failed', message, options);
  }
}
