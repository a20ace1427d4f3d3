import type { RenderResult } from '../graphite/index.js';
import { isBatchableTarget } from '../graphite/index.js';
import { isValue } from '../evaluation/buckets.js';

/** Wildcards matching more series than this are worth a second look (each series is judged and alerts alone). */
export const DEFAULT_MAX_SERIES = 100;

/** What Graphite's answer says about a query, if anything: a warning, or an error that must block the plan. */
export interface LiveFinding {
  level: 'warning' | 'error';
  message: string;
}

/**
 * Checks one query against Graphite's answer over the window: no series with any data (a typo, or a metric
 * nobody sends), a wildcard matching more than `maxSeries` series, or a query Graphite rejects (HTTP 400: an
 * unknown function or bad arguments). Other failures (timeouts, an unreachable Graphite) say the check could not
 * run: a warning, never an error, because the definitions may well be right.
 */
export function checkQueryResult(target: string, result: RenderResult, options: { maxSeries: number; windowText: string }): LiveFinding | null {
  if (!result.ok) {
    if (result.failure.kind === 'invalid_target') {
      return { level: 'error', message: `Graphite rejects the query "${target}" (${result.failure.message}): check the function names and arguments` };
    }
    return { level: 'warning', message: `could not check "${target}" against Graphite: ${result.failure.message}` };
  }
  const withData = result.series.filter((one) => one.datapoints.some((point) => isValue(point?.[0])));
  if (withData.length === 0) {
    return { level: 'warning', message: `"${target}" matches no series with data over the last ${options.windowText}: a typo?` };
  }
  if (isBatchableTarget(target) && /[*?[{]/.test(target) && result.series.length > options.maxSeries) {
    return {
      level: 'warning',
      message: `"${target}" matches ${result.series.length} series (more than ${options.maxSeries}): each is judged and alerts on its own; narrow the pattern or aggregate it`,
    };
  }
  return null;
}
