import type { PlanChange } from '../types.js';

/** What every rendering shows in place of a secret. */
export const SENSITIVE = '(sensitive)';

/** True when `path` is, contains or lies inside one of the change's sensitive paths. */
export function isSensitive(change: Pick<PlanChange, 'sensitive'>, path: string): boolean {
  return change.sensitive.some((s) => s === path || path.startsWith(`${s}.`) || s.startsWith(`${path}.`));
}

/** A value as it may be shown: `(sensitive)` when its path is secret. */
export function maskValue(change: Pick<PlanChange, 'sensitive'>, path: string, value: unknown): unknown {
  return value !== undefined && isSensitive(change, path) ? SENSITIVE : value;
}

/** A copy of a whole object with every sensitive field replaced. */
export function maskObject(change: Pick<PlanChange, 'sensitive'>, value: unknown, path = ''): unknown {
  if (path && change.sensitive.some((s) => s === path || path.startsWith(`${s}.`))) return value === undefined ? value : SENSITIVE;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskObject(change, v, path ? `${path}.${k}` : k);
    return out;
  }
  return value;
}

/** The leaves of an object as `path: value` pairs, lists kept whole, empty values left out. */
export function flattenFields(value: unknown, path = ''): { path: string; value: unknown }[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => flattenFields(v, path ? `${path}.${k}` : k));
  }
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return [];
  return [{ path, value }];
}
