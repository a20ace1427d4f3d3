import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkGraphitePattern, compileGraphitePattern } from '../../../../src/model/graphite-target/glob.js';
import { callsFunction, readTarget } from '../../../../src/model/graphite-target/target.js';
import { threadCpuMs } from '../../../helpers/event-loop-lag.js';

/** The pattern as a regular expression, for small well-formed patterns only (the reference, not the product). */
function referenceRegex(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i]!;
    if (ch === '*') source += '[^.]*';
    else if (ch === '?') source += '[^.]';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 1);
      source += `[${pattern.slice(i + 1, end)}]`;
      i = end;
    } else if (ch === '{') source += '(?:';
    else if (ch === '}') source += ')';
    else if (ch === ',') source += '|';
    else source += ch === '.' ? '\\.' : ch;
  }
  return new RegExp(`^${source}$`);
}

const piece = fc.constantFrom('a', 'b', '.', '*', '?', '[ab]', '[a-b]', '{a,b.a}', '{,b}', 'ab');
const pattern = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
const name = fc.array(fc.constantFrom('a', 'b', '.'), { maxLength: 12 }).map((parts) => parts.join(''));

describe('Graphite glob matching', () => {
  it('agrees with the regular expression it replaces on small patterns', () => {
    fc.assert(
      fc.property(pattern, name, (p, n) => {
        expect(compileGraphitePattern(p).test(n), `${p} ~ ${n}`).toBe(referenceRegex(p).test(n));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps wildcards within a segment and knows negated classes', () => {
    expect(compileGraphitePattern('a.*.c').test('a.b.x.c')).toBe(false);
    expect(compileGraphitePattern('a.[!0-9].c').test('a.x.c')).toBe(true);
    expect(compileGraphitePattern('a.[!0-9].c').test('a.7.c')).toBe(false);
    expect(compileGraphitePattern('a[.]b').test('a.b')).toBe(false);
    expect(compileGraphitePattern('x.{a,{b,c}d}').test('x.cd')).toBe(true);
  });

  it('says what is wrong with a malformed pattern and where', () => {
    expect(checkGraphitePattern('a.[z-a]')).toBe('range "z-a" is reversed (at character 4)');
    expect(checkGraphitePattern('a.{b,c')).toBe('"{" is never closed (at character 3)');
    expect(checkGraphitePattern('a.b]')).toBeNull();
    expect(checkGraphitePattern('a.{b,c}.[0-9]*')).toBeNull();
  });
});

describe('reading a Graphite target', () => {
  it('finds paths inside calls and pipes, and not strings, numbers or keyword values', () => {
    expect(readTarget('sumSeries(a.{b,c}.d, scale(e.f, 2), "g.h", key=i.j)|alias("x")')).toEqual({
      paths: ['a.{b,c}.d', 'e.f', 'i.j'],
      tagQueries: [],
      functions: ['sumSeries', 'scale', 'alias'],
    });
    expect(readTarget("seriesByTag('name=cpu', 'dc=eu')").tagQueries).toEqual([['name=cpu', 'dc=eu']]);
    expect(readTarget('asPercent(a.b, total=true)').paths).toEqual(['a.b']);
  });

  it('refuses what it cannot follow', () => {
    expect(() => readTarget('sumSeries(a.b')).toThrow(/expected "," or "\)"/);
    expect(() => readTarget('a.b)')).toThrow(/unexpected/);
    expect(() => readTarget("alias(a.b, 'x)")).toThrow(/never closed/);
  });
});

describe('callsFunction', () => {
  it('says what /[A-Za-z_][A-Za-z0-9_]*\\s*\\(/ says, in linear time', () => {
    const reference = /[A-Za-z_][A-Za-z0-9_]*\s*\(/;
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', '1', '_', ' ', '(', '.', ')'), { maxLength: 12 }).map((parts) => parts.join('')), (text) => {
        expect(callsFunction(text), JSON.stringify(text)).toBe(reference.test(text));
      }),
      { numRuns: 3000 },
    );
    const started = threadCpuMs();
    expect(callsFunction('a'.repeat(100_000))).toBe(false);
    expect(threadCpuMs() - started).toBeLessThan(100);
  });
});
