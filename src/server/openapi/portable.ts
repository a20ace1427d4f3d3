/**
 * Rewrites of JSON Schema that keep its meaning but suit the OpenAPI tools clients use. Code generators
 * (openapi-typescript, @hey-api/openapi-ts) drop keywords that sit next to a `$ref`, so `alert_criteria` came out
 * `unknown` and every create body all-optional; validators without `prefixItems` (Prism) could not check tuples;
 * `enum: [null, ...]` without a `type` reads as "any type" to several of them.
 */

type Json = Record<string, unknown>;
type Components = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/** Every component schema made portable; `components` is read for the targets of $refs, not changed. */
export function makePortable(components: Components): Components {
  return Object.fromEntries(Object.entries(components).map(([name, schema]) => [name, portable(schema, components)]));
}

function portable(value: unknown, components: Components): unknown {
  if (Array.isArray(value)) return value.map((item) => portable(item, components));
  if (value === null || typeof value !== 'object') return value;
  let schema = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, portable(inner, components)])) as Json;
  schema = splitRefSiblings(schema, components);
  schema = typeNullableEnum(schema);
  schema = spellTupleForAll(schema);
  return schema;
}

/**
 * `{$ref: X, ...siblings}` without siblings next to the $ref. The schemas' own idiom, `{$ref: fields, properties:
 * {name: true, ...}, additionalProperties: false}` (the `true`s only make the names known to
 * additionalProperties), becomes X's properties copied in; anything else is wrapped as `allOf: [{$ref: X}]`.
 */
function splitRefSiblings(schema: Json, components: Components): Json {
  const { $ref, ...siblings } = schema;
  if (typeof $ref !== 'string' || Object.keys(siblings).length === 0) return schema;
  const target = $ref.startsWith(REF_PREFIX) ? (components[$ref.slice(REF_PREFIX.length)] as Json | undefined) : undefined;
  const targetProperties = target?.properties as Json | undefined;
  const listed = siblings.properties as Json | undefined;
  if (target && targetProperties && listed) {
    const properties = Object.fromEntries(
      Object.entries(listed).map(([key, inner]) => [key, inner === true ? portable(targetProperties[key] ?? {}, components) : inner]),
    );
    const { properties: _unused, ...inherited } = target;
    return { ...inherited, ...siblings, properties };
  }
  return { ...siblings, allOf: [{ $ref }, ...((siblings.allOf as unknown[] | undefined) ?? [])] };
}

/** `enum: [null, "a", ...]` gets the matching `type: ["string", "null"]`, the form tools read as nullable. */
function typeNullableEnum(schema: Json): Json {
  const values = schema.enum;
  if (!Array.isArray(values) || !values.includes(null) || schema.type !== undefined) return schema;
  const types = [...new Set(values.map((v) => (v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v)))];
  return { type: types.length === 1 ? types[0] : types, ...schema };
}

/**
 * A tuple (`prefixItems` with `items: false`) also spelled for tools that ignore prefixItems: `items` allows any of
 * the positions' schemas and `maxItems` the length. To a 2020-12 validator `items` then applies to no element (there
 * are none past the prefix), so the meaning is unchanged; to the others, the positions' order is in the description.
 */
function spellTupleForAll(schema: Json): Json {
  const prefix = schema.prefixItems;
  if (!Array.isArray(prefix) || schema.items !== false) return schema;
  const unique = [...new Map(prefix.map((item) => [JSON.stringify(item), item])).values()];
  return { ...schema, items: unique.length === 1 ? unique[0] : { anyOf: unique }, maxItems: prefix.length };
}
