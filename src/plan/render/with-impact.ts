import type { ImpactOutcome } from '../../impact/types.js';
import type { Plan } from '../types.js';

/**
 * The plan as the renderers show it with a backtest beside it: the live checks' warnings and problems after the
 * plan's own. A new object: the computed plan (hashed, saved, applied) is never changed.
 */
export function shownWithImpact(plan: Plan, outcome: ImpactOutcome | undefined): Plan {
  if (!outcome || (outcome.warnings.length === 0 && outcome.problems.length === 0)) return plan;
  return { ...plan, warnings: [...plan.warnings, ...outcome.warnings], problems: [...plan.problems, ...outcome.problems] };
}
