import { CliError } from './errors.js';

/** Parses a non-negative integer option. */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(`expected a whole number, got "${value}"`);
  return Number(value);
}

/** Collects a repeatable option into a list. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
