import { describe, expect, it } from 'vitest';
import { compileGraphitePattern } from '../../../src/model/graphite-target/glob.js';
import { PathMatcher } from '../../../src/stream/path-matcher.js';

describe('the path matcher', () => {
  it('matches plain paths, globs of every kind, and each subscriber once', () => {
    const matcher = new PathMatcher<string>({ cacheSize: 100 });
    matcher.add('plain', 'servers.web1.cpu', null);
    matcher.add('star', 'servers.*.cpu', null);
    matcher.add('brace', 'servers.web{1,2}.cpu', null);
    matcher.add('class', 'servers.web[2-9].*', null);
    matcher.add('question', 'servers.we?1.cpu', null);
    matcher.add('dotted', 'servers.{web1.cpu,db.disk}', null);
    matcher.add('twice', 'servers.web1.*', null);
    matcher.add('twice', 'servers.*.cpu', null);
    expect([...matcher.match('servers.web1.cpu')].sort()).toEqual(['brace', 'dotted', 'plain', 'question', 'star', 'twice']);
    expect([...matcher.match('servers.web2.cpu')].sort()).toEqual(['brace', 'class', 'star', 'twice']);
    expect([...matcher.match('servers.db.disk')]).toEqual(['dotted']);
    expect(matcher.match('servers.web1.cpu.user')).toEqual([]);
    expect(matcher.match('other')).toEqual([]);
  });

  it('agrees with the whole-pattern glob matcher on every pattern and path of a grid', () => {
    const patterns = ['a.*', 'a.b*', '*.b', 'a.{b,c}d', 'a.[!b]', '{a,x}.*', 'a.b.c', 'a.*.c', '*.*.*', 'a.{b.c,d}', 'a.[a-c]?', 'a.*b*', '*'];
    const paths = ['a.b', 'a.bd', 'a.cd', 'x.b', 'a.c', 'a.b.c', 'a.d', 'a.x.c', 'a.bb', 'a.ab', 'a', 'x.y.z', 'a..c', 'a.'];
    const matcher = new PathMatcher<string>({ cacheSize: 3 });
    patterns.forEach((pattern) => matcher.add(pattern, pattern, null));
    for (const path of paths) {
      const expected = patterns.filter((pattern) => compileGraphitePattern(pattern).test(path)).sort();
      // Twice: the second answer comes from the cache (or after the cache dropped it).
      expect([...matcher.match(path)].sort(), path).toEqual(expected);
      expect([...matcher.match(path)].sort(), path).toEqual(expected);
    }
  });

  it("keeps a confined subscriber inside its account's metric prefixes, whatever the glob", () => {
    const matcher = new PathMatcher<string>({ cacheSize: 10 });
    matcher.add('team1', '*.cpu', ['team1.']);
    matcher.add('team1-plain', 'team2.cpu', ['team1.']);
    matcher.add('team1-brace', '{team1,team2}.cpu', ['team1.']);
    matcher.add('open', '*.cpu', null);
    expect([...matcher.match('team1.cpu')].sort()).toEqual(['open', 'team1', 'team1-brace']);
    expect([...matcher.match('team2.cpu')].sort()).toEqual(['open']);
  });

  it('forgets removed subscribers, and the cache never answers for them', () => {
    const matcher = new PathMatcher<string>({ cacheSize: 10 });
    matcher.add('a', 'x.*', null);
    matcher.add('b', 'x.y', null);
    expect([...matcher.match('x.y')].sort()).toEqual(['a', 'b']);
    matcher.remove('a');
    expect(matcher.match('x.y')).toEqual(['b']);
    matcher.remove('b');
    expect(matcher.match('x.y')).toEqual([]);
    matcher.add('c', 'x.{y,z}', null);
    expect(matcher.match('x.y')).toEqual(['c']);
    expect(matcher.stats()).toMatchObject({ subscribers: 1, globs: 1, plainPaths: 0 });
  });

  it('bounds its cache of decisions, and a malformed glob changes nothing', () => {
    const matcher = new PathMatcher<string>({ cacheSize: 50 });
    matcher.add('a', 'x.*', null);
    for (let k = 0; k < 1000; k += 1) matcher.match(`x.${k}`);
    expect(matcher.stats().cachedPaths).toBe(50);
    expect(() => matcher.add('bad', 'x.[z-a]', null)).toThrow(/reversed/);
    expect(matcher.stats()).toMatchObject({ subscribers: 1, globs: 1 });
  });

  it('answers the same frozen array for a path until subscriptions change', () => {
    const matcher = new PathMatcher<string>({ cacheSize: 10 });
    matcher.add('a', 'x.y', null);
    const first = matcher.match('x.y');
    expect(matcher.match('x.y')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });
});
