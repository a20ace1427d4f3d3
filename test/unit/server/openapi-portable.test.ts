import { describe, expect, it } from 'vitest';
import { makePortable } from '../../../src/server/openapi/portable.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('makePortable', () => {
  it('inlines the `$ref: fields` + `properties: {x: true}` idiom, keeping the siblings', () => {
    const out = makePortable({
      fields: { type: 'object', description: 'shared', properties: { a: { type: 'string' }, b: { enum: [null, 'x'] }, c: { type: 'integer' } } },
      create: { $ref: '#/components/schemas/fields', required: ['a'], properties: { a: true, b: true, extra: { type: 'boolean' } }, additionalProperties: false },
    });
    expect(out.create).toEqual({
      type: 'object',
      description: 'shared',
      required: ['a'],
      properties: { a: { type: 'string' }, b: { type: ['null', 'string'], enum: [null, 'x'] }, extra: { type: 'boolean' } },
      additionalProperties: false,
    });
  });

  it('wraps any other $ref with siblings in allOf, and leaves a bare $ref alone', () => {
    const out = makePortable({
      rules: { allOf: [] },
      criteria: { type: 'object', properties: { t: ref('rules') }, $ref: '#/components/schemas/rules' },
    });
    expect(out.criteria).toEqual({ type: 'object', properties: { t: ref('rules') }, allOf: [ref('rules')] });
  });

  it('spells tuples for validators without prefixItems, without changing them for those with it', () => {
    const out = makePortable({ pair: { type: 'array', prefixItems: [{ const: 'every' }, { type: 'integer' }], items: false, minItems: 2 } });
    expect(out.pair).toEqual({
      type: 'array',
      prefixItems: [{ const: 'every' }, { type: 'integer' }],
      items: { anyOf: [{ const: 'every' }, { type: 'integer' }] },
      minItems: 2,
      maxItems: 2,
    });
  });

  it('types enums that include null, and leaves typed ones alone', () => {
    expect(makePortable({ a: { enum: [null, 1, 2] }, b: { type: 'string', enum: ['x', null] } })).toEqual({
      a: { type: ['null', 'integer'], enum: [null, 1, 2] },
      b: { type: 'string', enum: ['x', null] },
    });
  });
});
