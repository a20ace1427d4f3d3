import { TargetSyntaxError, readTarget } from '../../graphite/target.js';
import { echo } from '../errors.js';

/**
 * Functions that turn strings into queries of their own (or read data shared by every tenant): a confined account
 * may not call them, because what they read cannot be told from the target's text.
 */
const UNCHECKABLE_FUNCTIONS = new Set(['applyByNode', 'useSeriesAbove', 'aliasQuery', 'events']);

/** A prefix an operator may give: dot-separated plain words, ending with a dot or not (`team1.`, `team1.prod`). */
export const METRIC_PREFIX = /^[A-Za-z0-9_:-]+(\.[A-Za-z0-9_:-]+)*\.?$/;

/**
 * Why a Graphite target reads outside an account's metric prefixes, or null when every metric path it reads
 * (top level, as a function argument, before a pipe) and every seriesByTag call stays inside them. No prefixes:
 * the account is not confined. A target that cannot be read is refused for a confined account: what cannot be
 * checked is not run.
 */
export function checkMetricPrefixes(target: string, prefixes: readonly string[]): string | null {
  if (prefixes.length === 0) return null;
  const allowed = `(allowed: ${prefixes.join(', ')})`;
  let reads;
  try {
    reads = readTarget(target);
  } catch (error) {
    if (!(error instanceof TargetSyntaxError)) throw error;
    return `cannot be checked against the account's metric prefixes: ${error.message} (at character ${error.position + 1})`;
  }
  const inside = (path: string) => prefixes.some((prefix) => path.startsWith(prefix));
  for (const name of reads.functions) {
    if (UNCHECKABLE_FUNCTIONS.has(name)) return `calls ${name}, which a metric-prefix-confined account may not use`;
  }
  for (const path of reads.paths) {
    if (!inside(path)) return `reads ${echo(path)}, outside the account's metric prefixes ${allowed}`;
  }
  for (const expressions of reads.tagQueries) {
    // seriesByTag ANDs its expressions: one exact name= inside the prefixes confines the whole call.
    const names = expressions.filter((e) => /^name=(?!~)/.test(e)).map((e) => e.slice('name='.length));
    if (!names.some(inside)) {
      const shown = names[0] ?? expressions.join(', ');
      return `seriesByTag reads ${echo(shown)}, outside the account's metric prefixes ${allowed}; give an exact name= inside them`;
    }
  }
  return null;
}
