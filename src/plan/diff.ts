import type { FieldDiff } from './types.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deep equality of JSON values (key order ignored; a key set to undefined counts as absent). Plain loops: a plan
 * compares every defined object with the server's, tens of thousands of values.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  let defined = 0;
  for (const key of Object.keys(a)) {
    const value = a[key];
    if (value === undefined) continue;
    defined += 1;
    if (!deepEqual(value, b[key])) return false;
  }
  for (const key of Object.keys(b)) if (b[key] !== undefined) defined -= 1;
  return defined === 0;
}

/**
 * The fields that differ between two canonical objects, as leaf paths (`alert_criteria.above_value`). Lists are
 * compared whole: in canonical form they are sorted sets or short tuples, and a whole-list diff reads better.
 */
export function diffFields(before: unknown, after: unknown, path = '', skip: ReadonlySet<string> = new Set()): FieldDiff[] {
  if (deepEqual(before, after)) return [];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => {
      const sub = path ? `${path}.${key}` : key;
      if (skip.has(sub)) return [];
      return diffFields(before[key], after[key], sub, skip);
    });
  }
  const diff: FieldDiff = { path };
  if (before !== undefined) diff.before = before;
  if (after !== undefined) diff.after = after;
  return [diff];
}
