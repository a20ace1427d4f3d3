import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileNameGlob } from '../../../src/model/name-glob.js';

/** The meaning of a name glob, as a regular expression (fine for the short strings of these tests). */
function reference(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^]*').replace(/\?/g, '[^]');
  return new RegExp(`^${source}$`).test(name);
}

describe('compileNameGlob', () => {
  it('means what the documented glob means', () => {
    const cases: [string, string, boolean][] = [
      ['web-*', 'web-1', true],
      ['web-*', 'db-1', false],
      ['*', '', true],
      ['', '', true],
      ['', 'a', false],
      ['a?c', 'abc', true],
      ['a?c', 'ac', false],
      ['*a*b', 'xaxb', true],
      ['*a*b', 'xbxa', false],
      ['a*a', 'a', false],
      ['a*a', 'aa', true],
      ['*?x?*', 'ax', false],
      ['*?x?*', 'axb', true],
      ['disk ?? full *', 'disk 42 full on web1', true],
      ['*.cpu', 'servers.web1.cpu', true],
    ];
    for (const [pattern, name, expected] of cases) expect(compileNameGlob(pattern).test(name), `${pattern} vs ${name}`).toBe(expected);
  });

  it('agrees with a regular expression on random globs and names', () => {
    const glob = fc.string({ unit: fc.constantFrom('a', 'b', '?', '*'), maxLength: 12 });
    const name = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 16 });
    fc.assert(fc.property(glob, name, (pattern, text) => compileNameGlob(pattern).test(text) === reference(pattern, text)), { numRuns: 5_000 });
  });

  it('matches parts with `?` longer than one machine word', () => {
    const part = `${'a?'.repeat(40)}b`;
    expect(compileNameGlob(`*${part}*`).test(`zz${'ax'.repeat(40)}bzz`)).toBe(true);
    expect(compileNameGlob(`*${part}*`).test(`zz${'ax'.repeat(39)}bzz`)).toBe(false);
    expect(compileNameGlob(`x*${part}`).test(`x${'a'.repeat(100)}${'ay'.repeat(40)}b`)).toBe(true);
  });
});
