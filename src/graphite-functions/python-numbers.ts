/**
 * Python's number formatting and rounding, as graphite-web 1.1.8 (Python 3) applies them to series names and
 * values: `str(x)` of an int or a float, `'%g' % x`, and `round(x, 6)`. JavaScript's own (String, toPrecision)
 * differ in where they switch to exponents, in `1.0` against `1`, and in ties (Python rounds them to even).
 */

/** A number as graphite-web's evaluator has it: an int from `5`, a float from `5.0` or `5e0`. */
export interface PyNumber {
  value: number;
  int: boolean;
}

/** The digits and decimal exponent of the shortest text that reads back as x (x finite, not 0). */
function shortestDigits(x: number): { digits: string; exponent: number } {
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e') as [string, string];
  return { digits: mantissa.replace('.', ''), exponent: Number(exponent) };
}

/** Python's repr/str of a float: shortest round-trip digits, fixed from 1e-4 up to 1e16, else 1e+16 style. */
export function pyFloatText(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const { digits, exponent } = shortestDigits(x);
  if (exponent < -4 || exponent >= 16) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return sign + placeDecimalPoint(digits, exponent, true);
}

/** `str(n)` of a number as graphite-web holds it: `5` for an int, `5.0` for a float. */
export function pyNumberText(n: PyNumber): string {
  return n.int ? String(n.value) : pyFloatText(n.value);
}

/** digits d1d2d3... with the point after the (exponent+1)th digit; `.0` kept for Python's float repr when asked. */
function placeDecimalPoint(digits: string, exponent: number, keepPointZero: boolean): string {
  if (exponent < 0) return `0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  if (fraction) return `${whole}.${fraction}`;
  return keepPointZero ? `${whole}.0` : whole;
}

/**
 * x's digits rounded to `significant` digits, ties to even on the exact binary value (Python's dtoa), as
 * [digits, exponent]. toExponential(99) is exact enough to tell a tie: a double whose exact decimal expansion is a
 * tie at digit 7 ends there.
 */
function roundSignificant(x: number, significant: number): { digits: string; exponent: number } {
  const exact = Math.abs(x).toExponential(99);
  const [mantissa, exp] = exact.split('e') as [string, string];
  const all = mantissa.replace('.', '');
  let kept = all.slice(0, significant);
  const rest = all.slice(significant);
  let exponent = Number(exp);
  const roundUp = rest[0]! > '5' || (rest[0] === '5' && (/[1-9]/.test(rest.slice(1)) || Number(kept[kept.length - 1]) % 2 === 1));
  if (roundUp) {
    const bumped = (BigInt(kept) + 1n).toString();
    if (bumped.length > kept.length) {
      exponent += 1;
      kept = bumped.slice(0, significant);
    } else kept = bumped;
  }
  return { digits: kept, exponent };
}

/** Python's `'%g' % x`: 6 significant digits, trailing zeros dropped, exponent form below 1e-4 or from 1e6. */
export function pyFormatG(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const sign = x < 0 ? '-' : '';
  const rounded = roundSignificant(x, 6);
  const digits = rounded.digits.replace(/0+$/, '') || '0';
  if (rounded.exponent < -4 || rounded.exponent >= 6) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mantissa}e${rounded.exponent < 0 ? '-' : '+'}${String(Math.abs(rounded.exponent)).padStart(2, '0')}`;
  }
  return sign + placeDecimalPoint(digits, rounded.exponent, false);
}

/** Python's `round(x, digits)` of a float: the double nearest the exact value rounded half to even. */
export function pyRound(x: number, digits: number): number {
  // From 1e21 up a double has no fractional digits (and toFixed would switch to exponents).
  if (!Number.isFinite(x) || x === 0 || Math.abs(x) >= 1e21) return x;
  // Fast path: when x * 10^digits is clearly not halfway between two integers, the product's own rounding error
  // (half a unit in its last place) cannot move it across .5, so Math.round picks Python's integer, and n / 10^digits
  // (both exact doubles, one correctly rounded division) is the double nearest the decimal result.
  const power = 10 ** digits;
  const scaled = x * power;
  if (Math.abs(scaled) < 2 ** 52) {
    const fraction = Math.abs(scaled - Math.trunc(scaled));
    if (Math.abs(fraction - 0.5) > Math.abs(scaled) * 2 ** -50 + 2 ** -60) {
      const n = Math.sign(scaled) * Math.round(Math.abs(scaled));
      return n / power;
    }
  }
  const exact = Math.abs(x).toFixed(100);
  const point = exact.indexOf('.');
  const kept = exact.slice(0, point) + exact.slice(point + 1, point + 1 + digits);
  const rest = exact.slice(point + 1 + digits);
  let whole = BigInt(kept);
  if (rest[0]! > '5' || (rest[0] === '5' && (/[1-9]/.test(rest.slice(1)) || whole % 2n === 1n))) whole += 1n;
  const text = whole.toString().padStart(digits + 1, '0');
  const value = Number(`${text.slice(0, text.length - digits)}.${text.slice(text.length - digits)}`);
  return x < 0 ? -value : value;
}
