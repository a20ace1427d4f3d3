import { runScoped } from '../run-scope.js';
import { writeOut } from './write-out.js';

/**
 * The version of every `--json` output's shape. Scripts check it; it changes only when a field is removed or
 * changes meaning (new fields may appear without a bump).
 */
export const FORMAT_VERSION = 1;

/** Holds 'json' once this run wrote its document. */
const written = runScoped(new Set<'json'>());

/** Writes a command's `--json` result on stdout: one object, formatVersion first. */
export function writeJson(value: Record<string, unknown>): Promise<void> {
  return writeJsonText(`${JSON.stringify({ formatVersion: FORMAT_VERSION, ...value }, null, 2)}\n`);
}

/** Writes an already rendered JSON document (it carries formatVersion itself, e.g. a plan). */
export function writeJsonText(text: string): Promise<void> {
  written.add('json');
  return writeOut(text);
}

/**
 * Whether this run already wrote its JSON document. A command that fails after writing one (a plan with errors,
 * an apply with failed steps) has said so in it: stdout then gets no second document, only the exit code.
 */
export function jsonWritten(): boolean {
  return written.has('json');
}

/** The JSON document of a failed command under --json. */
export function renderJsonError(message: string, exitCode: number): string {
  return `${JSON.stringify({ formatVersion: FORMAT_VERSION, error: { message, exitCode } }, null, 2)}\n`;
}
