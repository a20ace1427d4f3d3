import { writeOut } from './context.js';

/**
 * The version of every `--json` output's shape. Scripts check it; it changes only when a field is removed or
 * changes meaning (new fields may appear without a bump).
 */
export const FORMAT_VERSION = 1;

/** Writes a command's `--json` result on stdout: one object, formatVersion first. */
export function writeJson(value: Record<string, unknown>): Promise<void> {
  return writeOut(`${JSON.stringify({ formatVersion: FORMAT_VERSION, ...value }, null, 2)}\n`);
}
