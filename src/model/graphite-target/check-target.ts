import { checkGraphitePattern, isBatchableTarget } from './glob.js';
import { TargetSyntaxError, readTarget } from './target.js';

/**
 * What is wrong with the wildcards of the metric paths a target reads (`[z-a]`, an unclosed `[` or `{`), or null.
 * A target the reader cannot follow is left to Graphite, except a plain path, which is checked whole.
 */
export function checkTargetPatterns(target: string): string | null {
  let paths: string[];
  try {
    paths = isPlainPath(target) ? [target] : readTarget(target).paths;
  } catch (error) {
    if (!(error instanceof TargetSyntaxError)) throw error;
    paths = isBatchableTarget(target) ? [target] : [];
  }
  for (const path of paths) {
    const problem = checkGraphitePattern(path);
    if (problem) return paths.length === 1 && path === target ? `has a malformed pattern: ${problem}` : `has a malformed pattern in "${path.slice(0, 200)}": ${problem}`;
  }
  return null;
}

/**
 * A dotted path of name characters, `*` and `?` only: graphite-web's grammar reads it as that one path (no call,
 * no brace, no escape, no whitespace). Most alerts' metrics are such paths; taking them without the full grammar
 * keeps validating a large repository cheap (a 10,000-alert plan spent a seventh of its time parsing them).
 */
const PLAIN_PATH = /^[A-Za-z0-9_*?-]+(?:\.[A-Za-z0-9_*?-]+)*$/;

export function isPlainPath(target: string): boolean {
  return PLAIN_PATH.test(target);
}
