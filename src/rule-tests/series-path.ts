/**
 * Input series of rule tests are written to carbon's plaintext port, one `path value timestamp` line each, under a
 * prefix of the test's own. A name with a space, a newline or a control character would end the line early and
 * write points anywhere (outside the prefix): names are checked as Graphite paths before anything is sent.
 */

/** Characters of one path segment: what Graphite stores as a file name and reads back in a plain target. */
const SEGMENT = /^[A-Za-z0-9_\-:~@%+=!#$^]+$/;
const MAX_PATH_LENGTH = 1_024;

/** Why `name` is not a concrete Graphite path (no wildcard, no spaces or control characters), or null. */
export function checkSeriesPath(name: string): string | null {
  if (name.length > MAX_PATH_LENGTH) return `is longer than ${MAX_PATH_LENGTH} characters`;
  const segments = name.split('.');
  if (segments.some((segment) => segment === '')) return 'is not a Graphite path: it has an empty segment (a leading, trailing or doubled dot)';
  if (!segments.every((segment) => SEGMENT.test(segment))) {
    return 'is not a Graphite path: use letters, digits and _-:~@%+=!#$^ in dot-separated segments (no spaces, newlines, quotes or wildcards)';
  }
  return null;
}

/** One carbon plaintext line; throws for a name that is not a Graphite path or a value that is not a finite number. */
export function carbonLine(path: string, value: number, timestamp: number): string {
  const problem = checkSeriesPath(path);
  if (problem) throw new Error(`series ${JSON.stringify(path)} ${problem}`);
  if (!Number.isFinite(value) || !Number.isInteger(timestamp)) throw new Error(`series ${JSON.stringify(path)} has a point that is not a number`);
  return `${path} ${value} ${timestamp}`;
}
