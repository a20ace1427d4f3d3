import { describe, expect, it } from 'vitest';
import { evaluate, series } from './series-fixture.js';

const range = { from: 1000, until: 1010 };
const all = [series('dc1.web1.cpu.user', 1010, 10, [1]), series('dc1.web2.cpu.user', 1010, 10, [2])];
const names = (target: string) => evaluate(target, all, range).map((one) => one.target);

describe('alias, aliasByNode, aliasByMetric', () => {
  it('alias renames but keeps the path expression for an aggregate above it', () => {
    expect(names("alias(dc1.web1.cpu.user, 'one')")).toEqual(['one']);
    expect(names('sumSeries(alias(dc1.*.cpu.user, "x"))')).toEqual(['sumSeries(dc1.*.cpu.user)']);
  });

  it('aliasByNode takes nodes of the name, of its first path inside a function; past the end is empty', () => {
    expect(names('aliasByNode(dc1.*.cpu.user, 1)')).toEqual(['web1', 'web2']);
    expect(names('aliasByNode(dc1.*.cpu.user, 0, -1)')).toEqual(['dc1.user', 'dc1.user']);
    expect(names('aliasByNode(scale(dc1.*.cpu.user, 2), 1)')).toEqual(['web1', 'web2']);
    expect(names('dc1.*.cpu.user | aliasByNode(1, 9)')).toEqual(['web1.', 'web2.']);
  });

  it('aliasByMetric takes the last node inside the innermost parentheses, up to a comma', () => {
    expect(names('aliasByMetric(dc1.*.cpu.user)')).toEqual(['user', 'user']);
    expect(names('aliasByMetric(scale(dc1.web1.cpu.user, 2))')).toEqual(['user']);
  });
});
