/**
 * Whether a metric path lies inside an account's metric prefixes: the one test behind every confinement (the
 * target check at write time, the stream's path matcher, the stream's warm-up from render). Null or empty prefixes:
 * the account is not confined.
 */
export function isInsidePrefixes(path: string, prefixes: readonly string[] | null): boolean {
  return prefixes === null || prefixes.length === 0 || prefixes.some((prefix) => path.startsWith(prefix));
}
