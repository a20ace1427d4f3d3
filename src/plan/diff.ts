import type { FieldDiff } from './types.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep equality of JSON values (key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
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
