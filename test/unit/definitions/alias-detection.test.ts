import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { mayHoldAlias } from '../../../src/definitions/alias-expansion.js';

/** Whether js-yaml's value of a text shares an object between two places (what an alias makes). */
function sharesObjects(text: string): boolean {
  const seen = new Set<object>();
  let shared = false;
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    if (seen.has(node)) shared = true;
    seen.add(node);
    for (const child of Object.values(node)) walk(child);
  };
  for (const value of loadAll(text, { schema: CORE_SCHEMA })) walk(value);
  return shared;
}

describe('telling a YAML text that may hold an alias', () => {
  it.each([
    'a: &x {v: 1}\nb: *x\n',
    '- &x [1]\n- *x\n',
    '[&x [1], *x]',
    '[&x [1],*x]',
    '{a: &x [1],b: *x}',
    '{"a": &x [1], "b":*x}',
    'a: &x [1]\nb:\t*x\n',
    'a: &x [1]\nb:\n  *x\n',
    'y: [1]\nz: &y [2]\nw: [3, *y]\n',
    'a: &x [1]\nb: {c: *x}\n',
  ])('says yes for %j, whose aliases share objects', (text) => {
    expect(sharesObjects(text)).toBe(true);
    expect(mayHoldAlias(text)).toBe(true);
  });

  it('says no for stars inside metrics and && in expressions, the text of a large repository without aliases', () => {
    const text = 'alerts:\n  - name: x\n    metric: sumSeries(servers.*.errors)\n    expression: a && b\n    info: "*bold*"\n';
    expect(sharesObjects(text)).toBe(false);
    expect(mayHoldAlias(text)).toBe(false);
    expect(mayHoldAlias('a: [1]\nb: *x is not here without an anchor\n')).toBe(false);
  });
});
