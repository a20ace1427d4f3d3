import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEveryPath, checkTargetPatterns } from '../../../../src/model/graphite-target/check-target.js';

const piece = fc.constantFrom('a', 'b.c', '.', '*', '?', '-', '(', ')', ',', ' ', '\\', '|', '"', "'", 'sumSeries(', '=', '1', 'true', '[', ']', '{', '}', '[z-a]', '{a,b}');
const target = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''));

describe('checkTargetPatterns', () => {
  it('finds what reading every path of the target finds, brackets or not', () => {
    fc.assert(
      fc.property(target, (t) => {
        expect(checkTargetPatterns(t)).toBe(checkEveryPath(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('still finds a malformed pattern inside a call', () => {
    expect(checkTargetPatterns('sumSeries(a.[z-a].b)')).toMatch(/malformed pattern in "a.\[z-a\].b"/);
    expect(checkTargetPatterns('sumSeries(bench.h7.*.errors)')).toBeNull();
  });
});
