import { describe, expect, it } from 'vitest';
import type { CarbonPoint } from '../../../src/stream/carbon-point.js';
import { PlaintextParser } from '../../../src/stream/plaintext-parser.js';

/** A deterministic stream of decimal strings of every length and shape the fast path reads (and some it does not). */
function numbers(count: number): string[] {
  let seed = 12345;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
  return Array.from({ length: count }, (_, k) => {
    const whole = digits(1 + (k % 17));
    const fraction = k % 3 === 0 ? '' : `.${digits(k % 9)}`;
    return `${k % 5 === 0 ? '-' : ''}${whole}${fraction}`;
  });
}

describe('the plaintext parser reads numbers as Number() does', () => {
  it('four digits at a time or one, at any offset, with and without fractions, past 15 digits too', () => {
    const values = numbers(3000);
    // Paths of every length mod 4, so the numbers start at every offset within a word.
    const text = values.map((value, k) => `p${'x'.repeat(k % 4)} ${value} ${1_700_000_000 + (k % 7)}${k % 2 ? '.25' : ''}\n`).join('');
    const out: CarbonPoint[] = [];
    const parser = new PlaintextParser({ maxLineBytes: 200 });
    parser.push(Buffer.from(text), out);
    parser.end(out);
    expect(out).toHaveLength(values.length);
    out.forEach((point, k) => {
      expect(point.value).toBe(Number(values[k]));
      expect(point.timestamp).toBe(1_700_000_000 + (k % 7));
    });
  });
});
