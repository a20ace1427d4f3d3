import type { Definitions } from '../definitions/definitions.js';
import type { ActualState } from '../plan/state.js';
import type { Plan } from '../plan/types.js';
import { computePlanImpact } from './compute-impact.js';
import { parseDuration } from './duration.js';
import { createBacktestClient } from './fetch-window.js';

/** The default backtest window. */
export const DEFAULT_IMPACT_WINDOW = '7d';

export { resolveGraphiteUrl } from './graphite-url.js';

/**
 * Backtests a computed plan against Graphite and records it on the plan: `plan.impact`, the live checks'
 * warnings in `plan.warnings` and their errors (a query Graphite rejects) in `plan.problems`. The plan's
 * fingerprint covers its changes only, so a backtest never makes a reviewed plan differ from the applied one.
 */
export async function attachImpact(
  plan: Plan,
  context: { graphiteUrl: string; window?: string; maxSeries?: number; definitions: Definitions; actual: ActualState; now?: Date },
): Promise<void> {
  const outcome = await computePlanImpact(plan, {
    graphite: createBacktestClient(context.graphiteUrl),
    windowSeconds: parseDuration(context.window ?? DEFAULT_IMPACT_WINDOW),
    now: context.now ?? new Date(),
    definitions: context.definitions,
    server: context.actual,
    ...(context.maxSeries !== undefined ? { maxSeries: context.maxSeries } : {}),
  });
  plan.impact = outcome.impact;
  plan.warnings.push(...outcome.warnings);
  plan.problems.push(...outcome.problems);
}
