import { describe, expect, it } from 'vitest';
import { evaluate, series, valuesOf } from './series-fixture.js';

const range = { from: 1000, until: 1060 };
const all = [series('a.b', 1010, 10, [1, null, null, -4, null, 6]), series('a.c', 1010, 10, [null, 1, null, null, null, null])];

describe('transform: scale, offset, absolute, keepLastValue, transformNull', () => {
  it('names with Python\'s %g and keeps nulls', () => {
    expect(valuesOf(evaluate('scale(a.b, 0.5)', all, range))).toEqual({ 'scale(a.b,0.5)': [0.5, null, null, -2, null, 3] });
    expect(Object.keys(valuesOf(evaluate('scale(a.b, 12345678)', all, range)))).toEqual(['scale(a.b,1.23457e+07)']);
    expect(valuesOf(evaluate('offset(a.b, -1)', all, range))).toEqual({ 'offset(a.b,-1)': [0, null, null, -5, null, 5] });
    expect(valuesOf(evaluate('absolute(a.b)', all, range))).toEqual({ 'absolute(a.b)': [1, null, null, 4, null, 6] });
  });

  it('keepLastValue fills gaps up to the limit, the trailing one too', () => {
    expect(valuesOf(evaluate('keepLastValue(a.b)', all, range))).toEqual({ 'keepLastValue(a.b)': [1, 1, 1, -4, -4, 6] });
    expect(valuesOf(evaluate('keepLastValue(a.b, 1)', all, range))).toEqual({ 'keepLastValue(a.b)': [1, null, null, -4, -4, 6] });
    expect(valuesOf(evaluate('keepLastValue(a.c, 3)', all, range))).toEqual({ 'keepLastValue(a.c)': [null, 1, null, null, null, null] });
  });

  it('transformNull replaces nulls, or only where the reference has a value; a reference only in a keyword is not read', () => {
    expect(valuesOf(evaluate('transformNull(a.b)', all, range))).toEqual({ 'transformNull(a.b,0)': [1, 0, 0, -4, 0, 6] });
    expect(valuesOf(evaluate('transformNull(a.b, -1, a.c)', all, range))).toEqual({ 'transformNull(a.b,-1,referenceSeries)': [1, -1, null, -4, null, 6] });
    expect(valuesOf(evaluate('transformNull(a.b, referenceSeries=a.c)', all, range))).toEqual({ 'transformNull(a.b,0)': [1, 0, 0, -4, 0, 6] });
  });
});
