import type { ReadReporter } from '../progress/reads.js';
import { createGraphiteClient, type GraphiteClient, type RenderResult } from '../graphite/index.js';
import { historyQueryRange, queryRangeMinutes } from '../evaluation/criteria.js';
import { listCriteria } from '../evaluation/judge-alert.js';
import type { ReplayableAlert } from './replay.js';

/** A render target and how far before the window its criteria look (their query range). */
export interface TargetUse {
  target: string;
  lookbackMinutes: number;
}

/** The targets an alert's criteria read, each with the look-back the server's queries have. */
export function listTargetUses(alert: Pick<ReplayableAlert, 'metric' | 'alert_criteria' | 'additional_criteria'>): TargetUse[] {
  return listCriteria(alert).map(({ metric, criteria }) => ({
    target: metric,
    lookbackMinutes: Math.max(queryRangeMinutes(criteria), historyQueryRange(criteria)?.fromMinutes ?? 0),
  }));
}

/**
 * A Graphite client for backtests: a week of points per series makes big answers, so fewer targets share a
 * request and each may take longer than an evaluation cycle's 10 s.
 */
export function createBacktestClient(baseUrl: string): GraphiteClient {
  return createGraphiteClient({ baseUrl, timeoutMs: 60_000, maxTargetsPerRequest: 10, concurrency: 4 });
}

/**
 * Reads every distinct target once, over the whole window plus the longest look-back any of its uses needs: one
 * render request per target at most (plain paths and wildcards share requests), never one per step. `reportRead`
 * is told after each answer.
 */
export async function fetchWindowSeries(
  client: GraphiteClient,
  uses: readonly TargetUse[],
  windowSeconds: number,
  reportRead?: ReadReporter,
): Promise<Map<string, RenderResult>> {
  const lookback = new Map<string, number>();
  for (const use of uses) lookback.set(use.target, Math.max(lookback.get(use.target) ?? 0, use.lookbackMinutes));
  const targets = [...lookback.keys()];
  const windowMinutes = Math.ceil(windowSeconds / 60);
  const results = new Array<RenderResult>(targets.length);
  let done = 0;
  await client.renderEach(
    targets.map((target) => ({ target, fromMinutes: windowMinutes + lookback.get(target)! })),
    (index, result) => {
      results[index] = result;
      reportRead?.({ kind: 'series', done: ++done, total: targets.length });
    },
  );
  return new Map(targets.map((target, i) => [target, results[i]!]));
}
