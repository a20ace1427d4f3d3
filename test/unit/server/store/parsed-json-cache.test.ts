import { describe, expect, it } from 'vitest';
import { ParsedJsonCache } from '../../../../src/server/store/parsed-json-cache.js';

describe('the listing cache of parsed JSON columns', () => {
  it('parses a text once and hands out the same deeply frozen value, equal to JSON.parse', () => {
    const cache = new ParsedJsonCache<{ type: string; steps: number[] }>();
    const text = '{"type":"above","steps":[1,2]}';
    const first = cache.parse(text);
    expect(cache.parse(text)).toBe(first);
    expect(first).toEqual(JSON.parse(text));
    expect(Object.isFrozen(first) && Object.isFrozen(first.steps)).toBe(true);
    // A change in place throws (ESM is strict) instead of leaking into every alert with that text.
    expect(() => first.steps.push(3)).toThrow(TypeError);
    expect(cache.parse('{"type":"below","steps":[]}')).toEqual({ type: 'below', steps: [] });
  });

  it('stays bounded: past its size it starts over and parses again, with the same results', () => {
    const cache = new ParsedJsonCache<number[]>();
    const first = cache.parse('[0]');
    for (let i = 1; i <= 5_000; i += 1) expect(cache.parse(`[${i}]`)).toEqual([i]);
    const again = cache.parse('[0]');
    expect(again).toEqual([0]);
    expect(again).not.toBe(first);
  });

  it('throws on a text that is not JSON, as JSON.parse does, and caches nothing for it', () => {
    const cache = new ParsedJsonCache<unknown>();
    expect(() => cache.parse('{not json')).toThrow(SyntaxError);
    expect(() => cache.parse('{not json')).toThrow(SyntaxError);
  });
});
