import { describe, expect, it } from 'vitest';
import { GraphiteWebError } from '../../../src/graphite-functions/index.js';
import { evaluate, series, valuesOf } from './series-fixture.js';

const range = { from: 1000, until: 1060 };
const all = [series('c.one', 1010, 10, [100, 130, 10, null, 40, 45]), series('c.full', 1010, 10, [90, 99, 3, 5, 5, 8])];

describe('perSecond and nonNegativeDerivative', () => {
  it('take differences, null on a decrease and after a null', () => {
    expect(valuesOf(evaluate('nonNegativeDerivative(c.one)', all, range))).toEqual({ 'nonNegativeDerivative(c.one)': [null, 30, null, null, null, 5] });
    expect(valuesOf(evaluate('perSecond(c.one)', all, range))).toEqual({ 'perSecond(c.one)': [null, 3, null, null, null, 0.5] });
  });

  it('count a wrap at maxValue, a reset to minValue, and refuse a value outside them', () => {
    expect(valuesOf(evaluate('nonNegativeDerivative(c.full, 99)', all, range))).toEqual({ 'nonNegativeDerivative(c.full)': [null, 9, 4, 2, 0, 3] });
    expect(valuesOf(evaluate('nonNegativeDerivative(c.full, minValue=2)', all, range))).toEqual({ 'nonNegativeDerivative(c.full)': [null, 9, 1, 2, 0, 3] });
    expect(valuesOf(evaluate('nonNegativeDerivative(c.full, 95)', all, range))).toEqual({ 'nonNegativeDerivative(c.full)': [null, null, null, 2, 0, 3] });
  });

  it('rounds perSecond to 6 decimals with ties to even, as Python does', () => {
    const tie = [series('t', 1010, 10, [0, 0.078125])]; // 0.0078125 a second: exactly halfway at the 7th decimal
    expect(valuesOf(evaluate('perSecond(t)', tie, { from: 1000, until: 1020 }))).toEqual({ 'perSecond(t)': [null, 0.007812] });
  });

  it('fails as graphite-web does (500) with maxValue and a null point', () => {
    expect(() => evaluate('perSecond(c.one, 1000)', all, range)).toThrow(GraphiteWebError);
  });
});
