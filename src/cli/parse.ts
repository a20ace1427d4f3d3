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

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration in ms from `500ms`, `30s`, `15m`, `24h`, `7d` or a bare number of seconds; `flag` names it in errors. */
export function parseDuration(value: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match || Number(match[1]) <= 0) throw new CliError(`${flag} must be a positive duration such as 90s, 15m or 24h, not "${value}"`);
  return Math.round(Number(match[1]) * DURATION_UNITS[match[2] ?? 's']!);
}
