import { describe, expect, it } from 'vitest';
import { MAX_NESTING, parseGraphiteTarget } from '../../../../src/model/graphite-target/grammar.js';
import { TargetSyntaxError, readTarget } from '../../../../src/model/graphite-target/target.js';

// What graphite-web 1.1.8's parser reads for each of these (test/graphite-reads.py printed them); the differential
// test in test/security/ compares with the parser itself, this one runs without python (and on Node 24 in CI).
describe("reading a target with graphite-web's grammar", () => {
  it.each([
    ['sumSeries(team1.x[,other.secret.cpu,y])', ['team1.x[', 'other.secret.cpu', 'y]']],
    ['sumSeries(team1.x,null,+5,1e+5,5a)', ['team1.x', 'null', '+5', '1e+5', '5a']],
    ['f(a, 5, -5, 1.5, 1e5, 1E-3, -1.5e+5)', ['a', '-1.5e+5']],
    ['f(a, true, FALSE, None, inf, truex, infinity)', ['a', 'truex', 'infinity']],
    ['team1.{a,b}.x', ['team1.{a,b}.x']],
    ['team1.a\\,b', ['team1.a,b']],
    ['f(a, k=b.c, j = d)', ['a', 'b.c', 'd']],
    ['a.b|f(c)|g(d)', ['a.b', 'c', 'd']],
    ['f(a|g(b), c)', ['a', 'b', 'c']],
    ['f("a""b", \'c\\\'d\', e)', ['e']],
    [' f ( a ,\n b ) ', ['a', 'b']],
    ['f(a,\tb)', ['a', 'b']],
  ])('%s reads %j', (target, paths) => {
    expect(readTarget(target).paths).toEqual(paths);
  });

  it('gives seriesByTag its quoted arguments as written, also after a pipe', () => {
    expect(readTarget('x|seriesByTag(\'name=a\', "dc=eu")')).toEqual({ paths: ['x'], tagQueries: [['name=a', 'dc=eu']], functions: ['seriesByTag'] });
  });

  it.each([
    ['f(true.x)', 'a boolean then "." fails the call: graphite-web reads the path "f"'],
    ['f(k=a)', 'keyword arguments only come after a positional one'],
    ['a.b c.d', 'graphite-web ignores what follows a complete expression'],
    ['sumSeries(a.b', 'an unclosed call'],
  ])('refuses %s, which graphite-web would not take whole (%s)', (target) => {
    expect(() => readTarget(target)).toThrow(TargetSyntaxError);
  });

  it('stays linear where pyparsing looks ahead: keyword values nested deep, and calls nested past the limit', () => {
    const nested = 'f(a,k='.repeat(60) + 'a' + ')'.repeat(60);
    expect(readTarget(nested).paths).toHaveLength(61);
    const tooDeep = 'f('.repeat(MAX_NESTING + 1) + 'a' + ')'.repeat(MAX_NESTING + 1);
    expect(() => readTarget(tooDeep)).toThrow(/nested more than 64 deep/);
    expect(parseGraphiteTarget('(')).toBeNull();
  });
});
