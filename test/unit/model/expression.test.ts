import { describe, expect, it } from 'vitest';
import {
  canonicalExpression,
  evaluateExpression,
  expressionLetters,
  ExpressionError,
  parseExpression,
} from '../../../src/model/expression.js';

describe('composite expressions', () => {
  it('binds && tighter than ||', () => {
    const tree = parseExpression('a || b && c');
    expect(evaluateExpression(tree, { a: false, b: true, c: false })).toBe(false);
    expect(evaluateExpression(tree, { a: true, b: false, c: false })).toBe(true);
    expect(canonicalExpression('a || b && c')).toBe('a || b && c');
  });

  it('honours parentheses and keeps only the ones precedence needs', () => {
    expect(canonicalExpression('(a || b) && c')).toBe('(a || b) && c');
    expect(canonicalExpression('((a)) && (b && c)')).toBe('a && b && c');
    expect(canonicalExpression('a||(b&&c)')).toBe('a || b && c');
  });

  it('treats letters case-insensitively and prints them lower case', () => {
    expect(canonicalExpression('A && B')).toBe('a && b');
    expect(expressionLetters(parseExpression('B || a && b'))).toEqual(['a', 'b']);
  });

  it.each([
    ['a &&', 'expression ends too early'],
    ['a & b', 'unexpected "&"'],
    ['(a || b', 'missing ")"'],
    ['a b', 'unexpected "b"'],
    ['ab && c', 'single letters'],
    ['', 'ends too early'],
  ])('rejects %j with a message saying why', (source, message) => {
    expect(() => parseExpression(source)).toThrowError(ExpressionError);
    expect(() => parseExpression(source)).toThrowError(message);
  });
});
