/**
 * promtool's expanding notation for input series, as `promtool test rules` reads it (Prometheus docs, "Unit
 * testing for rules"), on Graphite values:
 *
 * - `a+bxn` is a, a+b, a+2b ... a+nb: the start and n further points (n+1 in all); `a-bxn` counts down.
 * - `axn` is a repeated n+1 times (`a+0xn`).
 * - `_` is a missing point (null in Graphite); `_xn` is n missing points (a missing point cannot increment).
 * - Items are separated by spaces: `1 _x3 10+5x2` is 1, _, _, _, 10, 15, 20.
 *
 * `stale`, `Inf` and `NaN` mean nothing to Graphite (it sends null or a finite number) and are rejected.
 */

/** A notation error at a 0-based column of the text. */
export class NotationError extends Error {
  constructor(
    message: string,
    readonly column: number,
  ) {
    super(message);
    this.name = 'NotationError';
  }
}

/** More points than this in one item is a typo, not a test (a week of 10 s points is 60,480). */
export const MAX_REPEAT = 100_000;

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`;
const UNSIGNED = String.raw`(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`;
const PLAIN = new RegExp(`^${NUMBER}$`);
const EXPANDING = new RegExp(`^(${NUMBER})(?:([+-])(${UNSIGNED}))?x(\\d+)$`);
const MISSING_RUN = /^_x(\d+)$/;

/** Expands a `values:` text into points, null for missing; throws NotationError at the bad item. */
export function parseSeriesValues(text: string): (number | null)[] {
  const values: (number | null)[] = [];
  const items = /\S+/g;
  let match: RegExpExecArray | null;
  let seen = 0;
  while ((match = items.exec(text)) !== null) {
    seen += 1;
    const item = match[0];
    const column = match.index;
    if (item === '_') {
      values.push(null);
      continue;
    }
    const missing = MISSING_RUN.exec(item);
    if (missing) {
      for (let i = 0, n = count(missing[1]!, item, column); i < n; i += 1) values.push(null);
      continue;
    }
    if (PLAIN.test(item)) {
      values.push(Number(item));
      continue;
    }
    const expanding = EXPANDING.exec(item);
    if (expanding) {
      const start = Number(expanding[1]);
      const step = expanding[2] ? Number(expanding[3]) * (expanding[2] === '-' ? -1 : 1) : 0;
      const n = count(expanding[4]!, item, column);
      for (let i = 0; i <= n; i += 1) values.push(start + i * step);
      continue;
    }
    throw new NotationError(describeBadItem(item), column);
  }
  if (seen === 0) throw new NotationError('no values: write numbers, _ for a missing point, or a+bxN', 0);
  return values;
}

function count(digits: string, item: string, column: number): number {
  const n = Number(digits);
  if (n > MAX_REPEAT) throw new NotationError(`"${item}" repeats ${n} times, more than ${MAX_REPEAT}`, column);
  return n;
}

function describeBadItem(item: string): string {
  if (item === 'stale') return '"stale" has no meaning in Graphite: write _ for a missing point';
  if (/^[+-]?(inf|nan)/i.test(item)) return `"${item}": Graphite values are finite numbers (or _ for missing)`;
  if (/x$/.test(item)) return `"${item}": expected a whole count after "x", e.g. ${item}5`;
  if (/x\d*\.\d/.test(item)) return `"${item}": the count after "x" must be a whole number`;
  if (/^_/.test(item)) return `"${item}": a missing point repeats as _xN (it cannot increment)`;
  if (/^[+-]?[\d.]/.test(item) && /x/.test(item)) return `"${item}" is not a+bxN, a-bxN or axN`;
  return `"${item}" is not a value: write a number, _ for a missing point, or a+bxN`;
}
