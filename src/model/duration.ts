/**
 * The one duration grammar of alertform, for every flag, Action input and file that takes a length of time:
 * `--impact-window`, `validate --window`, the Action's `impact-window`, `serve --delivery-*`, `--eval-interval`,
 * `--settle-delay`, `mute --duration`, `ack --until`, a maintenance window's `duration`, a throttle's and a flap
 * guard's `window`, an escalation step's `after` and the rule tests' `at:` offsets. A number with a unit, or several
 * run together as Go and Prometheus write them: `500ms`, `90s`, `15m`, `2h`, `1h30m`, `1d12h`, `2w`; spaces around
 * (and between the parts) are allowed. A bare number has one documented unit per field (BARE_UNITS below): seconds
 * for most, minutes where the /v2 API counts minutes (a mute, a maintenance window).
 *
 * Our own lines rather than `ms` or `parse-duration` (both well kept): both read a bare number as milliseconds,
 * where every alertform field has a unit of its own, `ms` reads no `1h30m`, and both accept far more (years, words,
 * negative values) than a window should.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A unit of the grammar. */
export type DurationUnit = 'ms' | 's' | 'm' | 'h' | 'd' | 'w';

/**
 * The grammar as a pattern: a bare number, or one or more number-and-unit parts. The JSON Schemas repeat it
 * (test/unit/model/duration.test.ts holds every copy to this one).
 */
export const DURATION_PATTERN = /^\s*(?:\d+(?:\.\d+)?|(?:\d+(?:\.\d+)?\s*(?:ms|s|m|h|d|w)\s*)+)\s*$/;

const PART = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?/g;

/**
 * Milliseconds, or undefined when the text is not a duration; zero passes only with `allowZero` (an offset, a
 * settle delay). `bareUnit` is the unit of a number written without one: seconds unless the field says otherwise.
 */
export function durationMs(text: string, options: { allowZero?: boolean; bareUnit?: DurationUnit } = {}): number | undefined {
  const value = String(text);
  if (!DURATION_PATTERN.test(value)) return undefined;
  let total = 0;
  for (const [, number, unit] of value.matchAll(PART)) total += Number(number) * UNIT_MS[unit ?? options.bareUnit ?? 's']!;
  const ms = Math.round(total);
  if (!Number.isFinite(ms) || ms < 0 || (ms === 0 && !options.allowZero)) return undefined;
  return ms;
}
