import { CliError } from './errors.js';
import { durationMs } from '../model/duration.js';

/** Parses a non-negative integer option. */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(`expected a whole number, got "${value}"`);
  return Number(value);
}

/** Collects a repeatable option into a list. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A duration in ms in the one grammar (src/model/duration.ts: `500ms`, `30s`, `15m`, `24h`, `7d`, `1w`, bare seconds). */
export function parseDurationMs(value: string, flag: string): number {
  const ms = durationMs(value);
  if (ms === undefined) throw new CliError(`${flag} must be a positive duration such as 90s, 15m or 24h, not "${value}"`);
  return ms;
}

/**
 * Whole minutes for a flag whose bare number has always been minutes (`mute --duration 90`), in the one grammar
 * otherwise (`2h`, `1d`, `90m`); a part of a minute counts as a whole one (a mute is never shorter than asked).
 */
export function parseMinutes(value: string, flag: string, max: number): number {
  const ms = durationMs(value, { bareUnit: 'm' });
  const minutes = ms === undefined ? undefined : Math.ceil(ms / 60_000);
  if (minutes === undefined || minutes < 1 || minutes > max) {
    throw new CliError(`${flag} must be a duration from 1 minute to ${max} minutes, such as 90 (minutes), 2h or 1d, not "${value}"`);
  }
  return minutes;
}
