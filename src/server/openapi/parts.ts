import type { Op } from './document.js';

/** A JSON Schema or OpenAPI fragment. */
export type Json = Record<string, unknown>;

/** An object schema whose every listed property the server always sends. */
export function always(properties: Json, extra: Json = {}): Json {
  return { type: 'object', required: Object.keys(properties), properties, ...extra };
}

/** A value of `type` or null. */
export function nullable(type: string, description?: string): Json {
  return { type: [type, 'null'], ...(description ? { description } : {}) };
}

export const unixSeconds = { type: 'integer', description: 'Unix seconds.' };

export const EXTENSION = "alertform's own extension (additive; Hosted Graphite has no such endpoint).";

/** The main document's operation helper for alertform's own endpoints: their description says they are extensions. */
export function extensionOperation(operation: (op: Op) => Json): (op: Op, description: string) => Json {
  return (op, description) => ({ ...operation(op), description: `${description} ${EXTENSION}` });
}
