import { describe, expect, it } from 'vitest';
import { NotationError, parseSeriesValues } from '../../../src/rule-tests/series-notation.js';

describe('promtool series notation', () => {
  it.each([
    ['10+5x20', Array.from({ length: 21 }, (_, i) => 10 + 5 * i)],
    // promtool's own examples ("Unit testing for rules")
    ['-2+4x3', [-2, 2, 6, 10]],
    [' 1-2x4', [1, -1, -3, -5, -7]],
    [' 1x4', [1, 1, 1, 1, 1]],
    ['1 _x3 5', [1, null, null, null, 5]],
    ['1x3', [1, 1, 1, 1]],
    ['_ _ 7', [null, null, 7]],
    ['0x0', [0]],
    ['_x0 3', [3]],
    ['1.5+0.5x2', [1.5, 2, 2.5]],
    ['1e3-1e2x2', [1000, 900, 800]],
    ['+3 -4 .5', [3, -4, 0.5]],
    ['100-10x2 _ 50', [100, 90, 80, null, 50]],
  ])('expands %j', (text, expected) => {
    expect(parseSeriesValues(text)).toEqual(expected);
  });

  it.each([
    ['1 2 stale', 4, '"stale" has no meaning in Graphite: write _ for a missing point'],
    ['1 Inf', 2, '"Inf": Graphite values are finite numbers (or _ for missing)'],
    ['10+5x', 0, '"10+5x": expected a whole count after "x", e.g. 10+5x5'],
    ['3 10+5x2.5', 2, '"10+5x2.5": the count after "x" must be a whole number'],
    ['_+1x3', 0, '"_+1x3": a missing point repeats as _xN (it cannot increment)'],
    ['1 10+x3', 2, '"10+x3" is not a+bxN, a-bxN or axN'],
    ['1 ten', 2, '"ten" is not a value: write a number, _ for a missing point, or a+bxN'],
    ['1,2', 0, '"1,2" is not a value: write a number, _ for a missing point, or a+bxN'],
    ['   ', 0, 'no values: write numbers, _ for a missing point, or a+bxN'],
    ['1x100001', 0, '"1x100001" repeats 100001 times, more than 100000'],
  ])('rejects %j at column %i', (text, column, message) => {
    let error: unknown;
    try {
      parseSeriesValues(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NotationError);
    expect({ column: (error as NotationError).column, message: (error as NotationError).message }).toEqual({ column, message });
  });
});
