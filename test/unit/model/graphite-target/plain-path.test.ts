import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTargetPatterns, isPlainPath } from '../../../../src/model/graphite-target/check-target.js';
import { readTarget } from '../../../../src/model/graphite-target/target.js';

const element = fc.array(fc.constantFrom('a', 'Z', '0', '9', '_', '-', '*', '?', 'true', 'inf', 'none', 'e5'), { minLength: 1, maxLength: 4 }).map((p) => p.join(''));
const plain = fc.array(element, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('.'));

describe('the plain-path shortcut of checkTargetPatterns', () => {
  it('takes a path only where the full grammar reads that same single path', () => {
    fc.assert(
      fc.property(plain, (target) => {
        expect(isPlainPath(target)).toBe(true);
        expect(readTarget(target).paths).toEqual([target]);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves calls, braces, escapes, spaces and empty elements to the grammar', () => {
    for (const target of ['sumSeries(a.b)', 'a.{b,c}', 'a\\.b', ' a.b', 'a..b', '.a', 'a.', 'a[0-9]', '', 'a|b']) {
      expect(isPlainPath(target)).toBe(false);
    }
  });

  it('finds no problem in a plain path with wildcards, as the grammar would not', () => {
    expect(checkTargetPatterns('servers.*.cpu')).toBeNull();
    expect(checkTargetPatterns('servers.web-1.cpu')).toBeNull();
  });
});
