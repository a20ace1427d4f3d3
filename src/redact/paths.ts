import { SENSITIVE } from './placeholder.js';

/** Something that names its secret fields by dot path (a plan change does). */
export interface HasSensitivePaths {
  readonly sensitive: readonly string[];
}

/** True when `path` is, contains or lies inside one of the sensitive paths. */
export function isSensitive(owner: HasSensitivePaths, path: string): boolean {
  return owner.sensitive.some((s) => s === path || path.startsWith(`${s}.`) || s.startsWith(`${path}.`));
}

/** A value as it may be shown: `(sensitive)` when its path is secret. */
export function maskValue(owner: HasSensitivePaths, path: string, value: unknown): unknown {
  return value !== undefined && isSensitive(owner, path) ? SENSITIVE : value;
}

/** A copy of a whole object with every sensitive field replaced. */
export function maskObject(owner: HasSensitivePaths, value: unknown, path = ''): unknown {
  if (path && owner.sensitive.some((s) => s === path || path.startsWith(`${s}.`))) return value === undefined ? value : SENSITIVE;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskObject(owner, v, path ? `${path}.${k}` : k);
    return out;
  }
  return value;
}

/** The string values found at the sensitive paths of an object (lists looked into). */
export function valuesAtSensitivePaths(owner: HasSensitivePaths, value: unknown): string[] {
  const found: string[] = [];
  for (const path of owner.sensitive) {
    let at: unknown = value;
    for (const part of path.split('.')) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined;
    for (const v of Array.isArray(at) ? at : [at]) if (typeof v === 'string') found.push(v);
  }
  return found;
}
