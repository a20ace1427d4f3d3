import { checkGraphitePattern, isBatchableTarget } from './glob.js';
import { TargetSyntaxError, readTarget } from './target.js';

const BRACKETS = /[[{}]/;

/**
 * What is wrong with the wildcards of the metric paths a target reads (`[z-a]`, an unclosed `[` or `{`), or null.
 * A target the reader cannot follow is left to Graphite, except a plain path, which is checked whole.
 */
export function checkTargetPatterns(target: string): string | null {
  // Only a bracket or a brace makes a wildcard malformed, and a path read from the target has one only if the target
  // has (an escape resolves to the character it escapes): most targets need no parse at all (a 10,000-alert plan
  // spent a seventh of its time parsing them).
  return BRACKETS.test(target) ? checkEveryPath(target) : null;
}

/** checkTargetPatterns without its shortcut: every path the grammar reads from the target, each checked. */
export function checkEveryPath(target: string): string | null {
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

