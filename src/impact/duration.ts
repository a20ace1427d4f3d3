/** Seconds per unit of a duration such as `7d`, `12h`, `90m` or `30s`. */
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/**
 * Parses `7d`, `36h`, `90m`, `30s` or `2w` (one number, one unit) into seconds. Throws with the offending text,
 * so a flag or a test file can say exactly what it did not understand.
 */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/.exec(String(text));
  if (!match) throw new Error(`"${text}" is not a duration: write a number and a unit, e.g. 30s, 15m, 12h, 7d`);
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2]!]!;
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`"${text}" is not a positive duration`);
  return Math.round(seconds);
}

/** A duration in seconds as people say it: `7 days`, `36 hours`, `90 minutes`. */
export function describeDuration(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds % 86_400 === 0) return plural(seconds / 86_400, 'day');
  if (seconds % 3600 === 0) return plural(seconds / 3600, 'hour');
  if (seconds % 60 === 0) return plural(seconds / 60, 'minute');
  return plural(seconds, 'second');
}
