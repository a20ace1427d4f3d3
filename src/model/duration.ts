/**
 * The one duration grammar of alertform, for every flag, Action input and file that takes a length of time:
 * `--impact-window`, `validate --window`, the Action's `impact-window`, `serve --delivery-*`, `--eval-interval` and
 * the rule tests' `at:` offsets. A number, optionally a unit: `500ms`, `30s`, `15m`, `24h`, `7d`, `2w`; spaces
 * around are allowed; a bare number is seconds (`90` is 90 s). Before this module there were three grammars: the
 * backtest window refused `90` and `500ms`, the delivery flags refused `1w`; this one accepts everything any of
 * them did.
 *
 * Our own ten lines rather than `ms` or `parse-duration` (both well kept): both read a bare number as
 * milliseconds, where every alertform flag has always read seconds, and both accept far more (years, words,
 * negative values) than a window should.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** The grammar as a pattern (schemas/rule-test.schema.json repeats it for `at:`). */
export const DURATION_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/;

/**
 * Milliseconds, or undefined when the text is not a duration; zero passes only with `allowZero` (an offset).
 * `bareUnit` is the unit of a number written without one, for the few flags whose bare numbers always meant
 * something else than seconds (`mute --duration 90` has always been 90 minutes, the API's unit).
 */
export function durationMs(text: string, options: { allowZero?: boolean; bareUnit?: 'ms' | 's' | 'm' | 'h' | 'd' | 'w' } = {}): number | undefined {
  const match = DURATION_PATTERN.exec(String(text));
  if (!match) return undefined;
  const ms = Math.round(Number(match[1]) * UNIT_MS[match[2] ?? options.bareUnit ?? 's']!);
  if (!Number.isFinite(ms) || ms < 0 || (ms === 0 && !options.allowZero)) return undefined;
  return ms;
}
