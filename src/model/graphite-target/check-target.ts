import { checkGraphitePattern, isBatchableTarget } from './glob.js';
import { TargetSyntaxError, readTarget } from './target.js';

/**
 * What is wrong with the wildcards of the metric paths a target reads (`[z-a]`, an unclosed `[` or `{`), or null.
 * A target the reader cannot follow is left to Graphite, except a plain path, which is checked whole.
 */
export function checkTargetPatterns(target: string): string | null {
  let paths: string[];
  try {
    paths = readTarget(target).paths;
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
