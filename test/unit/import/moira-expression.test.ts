import { describe, expect, it } from 'vitest';
import { parseMoiraExpression } from '../../../src/import/moira/moira-expression.js';

describe("Moira's expressions", () => {
  it('reads a chain of levels ending in OK, with the target on either side', () => {
    const parsed = parseMoiraExpression('t1 > 20 ? ERROR : (10 <= t1 ? WARN : OK)');
    expect(parsed).toEqual({
      ok: true,
      branches: [
        { state: 'ERROR', condition: { kind: 'compare', operand: { kind: 'target', index: 1 }, op: '>', value: 20 } },
        { state: 'WARN', condition: { kind: 'compare', operand: { kind: 'target', index: 1 }, op: '>=', value: 10 } },
      ],
    });
  });

  it('reads && over || and a ratio of two targets', () => {
    const parsed = parseMoiraExpression('(t1 / t2 > 0.5 || t3 < 1) && t1 > 2 ? WARNING : OK');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.branches[0]!.state).toBe('WARN');
    expect(parsed.branches[0]!.condition).toMatchObject({ kind: 'and', left: { kind: 'or', left: { operand: { kind: 'ratio', numerator: 1, denominator: 2 } } } });
  });

  it.each([
    ['t1 > 1 ? ERROR : PREV_STATE', /PREV_STATE/],
    ['t1 == 1 ? ERROR : OK', /equality/],
    ['t1 + t2 > 1 ? ERROR : OK', /arithmetic/],
    ['t1 > 1 ? NODATA : OK', /NODATA/],
    ['t1 > 1 ? ERROR : WARN', /last state must be OK/],
    ['t1 > 1 ? OK : OK', /never leaves OK/],
    ['t1 > 1 ? ERROR : OK extra', /text after/],
    ['t1 > $x ? ERROR : OK', /cannot read/],
  ])('refuses %s and says why', (text, why) => {
    const parsed = parseMoiraExpression(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.why).toMatch(why);
  });

  it('refuses an expression longer than 4096 characters without reading it', () => {
    const parsed = parseMoiraExpression(`${'(t1 > 1 || '.repeat(1000)}t1 > 1${')'.repeat(1000)} ? ERROR : OK`);
    expect(parsed).toEqual({ ok: false, why: 'longer than 4096 characters' });
  });
});
