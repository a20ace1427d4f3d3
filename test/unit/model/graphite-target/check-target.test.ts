import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTargetPatterns } from '../../../../src/model/graphite-target/check-target.js';
import { checkGraphitePattern, isBatchableTarget } from '../../../../src/model/graphite-target/glob.js';
import { TargetSyntaxError, readTarget } from '../../../../src/model/graphite-target/target.js';

/** checkTargetPatterns without its shortcut: every path the grammar reads, each checked (the reference). */
function referenceCheck(target: string): string | null {
  let paths: string[];
  try {
    paths = readTarget(target).paths;
  } catch (error) {
    if (!(error instanceof TargetSyntaxError)) throw error;
    paths = isBatchableTarget(target) ? [target] : [];
  }
  for (const path of paths) {
    const problem = checkGraphitePattern(path);
    if (problem) return paths.length === 1 && path === target ? `has a malformed pattern: ${problem}` : `has a malformed pattern in "${path.slice(0, 200)}": ${problem}`;
  }
  return null;
}

const piece = fc.constantFrom('a', 'b.c', '.', '*', '?', '-', '(', ')', ',', ' ', '\\', '|', '"', "'", 'sumSeries(', '=', '1', 'true', '[', ']', '{', '}', '[z-a]', '{a,b}');
const target = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''));

describe('checkTargetPatterns', () => {
  it('finds what reading every path of the target finds, brackets or not', () => {
    fc.assert(
      fc.property(target, (t) => {
        expect(checkTargetPatterns(t)).toBe(referenceCheck(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('still finds a malformed pattern inside a call', () => {
    expect(checkTargetPatterns('sumSeries(a.[z-a].b)')).toMatch(/malformed pattern in "a.\[z-a\].b"/);
    expect(checkTargetPatterns('sumSeries(bench.h7.*.errors)')).toBeNull();
  });
});
