/**
 * Every failure the CLI side expects (client, definitions, plan, apply, agent, Action) is an AlertformError: a
 * message safe to show and a stable `code` saying what went wrong. Only the entry points (src/cli/main.ts,
 * src/action/run.ts) turn codes into exit codes; the rest of the code throws and never exits.
 */
export class AlertformError extends Error {
  constructor(
    /** What went wrong, as a stable snake_case word: `no_server`, `api_response`, `stale_plan`... */
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** True for an expected failure with this code. */
export function hasErrorCode(error: unknown, code: string): boolean {
  return error instanceof AlertformError && error.code === code;
}
