import type { Definitions } from '../definitions/definitions.js';
import type { ActualState } from '../plan/state.js';
import type { Plan } from '../plan/types.js';
import type { ImpactOutcome } from './types.js';
import { computePlanImpact } from './compute-impact.js';
import { parseDurationSeconds } from './duration.js';
import { createBacktestClient } from './fetch-window.js';
import type { ReadReporter } from '../progress/reads.js';

/** The default backtest window. */
export const DEFAULT_IMPACT_WINDOW = '7d';

export { resolveGraphiteUrl } from './graphite-url.js';

/**
 * Backtests a computed plan against Graphite, leaving the plan as it is: the outcome (the backtest, the live checks'
 * warnings and their errors: a query Graphite rejects) travels beside the plan to the renderers, the saved plan and
 * the Action's comment. The plan's fingerprint covers its changes only, so a backtest never makes a reviewed plan
 * differ from the applied one.
 */
export async function backtestPlan(
  plan: Plan,
  context: { graphiteUrl: string; window?: string; maxSeries?: number; definitions: Definitions; actual: ActualState; now?: Date; reportRead?: ReadReporter },
): Promise<ImpactOutcome> {
  return computePlanImpact(plan, {
    graphite: createBacktestClient(context.graphiteUrl),
    windowSeconds: parseDurationSeconds(context.window ?? DEFAULT_IMPACT_WINDOW),
    now: context.now ?? new Date(),
    definitions: context.definitions,
    server: context.actual,
    ...(context.maxSeries !== undefined ? { maxSeries: context.maxSeries } : {}),
    ...(context.reportRead ? { reportRead: context.reportRead } : {}),
  });
}
