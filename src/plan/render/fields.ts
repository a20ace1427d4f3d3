/** The leaves of an object as `path: value` pairs, lists kept whole, empty values left out. */
export function flattenFields(value: unknown, path = ''): { path: string; value: unknown }[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => flattenFields(v, path ? `${path}.${k}` : k));
  }
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return [];
  return [{ path, value }];
}
