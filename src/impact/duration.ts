import { DURATION_PATTERN, durationMs } from '../model/duration.js';

/**
 * A backtest window in whole seconds, in the one duration grammar (src/model/duration.ts): `7d`, `36h`, `90m`,
 * `2w`, `90` (seconds). Throws with the offending text, so a flag or an input can say what it did not understand.
 */
export function parseDurationSeconds(text: string): number {
  if (!DURATION_PATTERN.test(String(text))) throw new Error(`"${text}" is not a duration: write a number and a unit, e.g. 30s, 15m, 12h, 7d`);
  const ms = durationMs(text);
  if (ms === undefined || ms < 1_000) throw new Error(`"${text}" is not a positive duration`);
  return Math.round(ms / 1_000);
}

/** A duration in seconds as people say it: `7 days`, `36 hours`, `90 minutes`. */
export function describeDuration(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds % 86_400 === 0) return plural(seconds / 86_400, 'day');
  if (seconds % 3600 === 0) return plural(seconds / 3600, 'hour');
  if (seconds % 60 === 0) return plural(seconds / 60, 'minute');
  return plural(seconds, 'second');
}
