import type { GraphiteMatcher } from '../model/graphite-target/glob.js';
import type { RenderSeries } from './types.js';

/**
 * Bounds on matching a shared answer's series back to the wildcard patterns that asked for them. Patterns and
 * series names come from tenants, and matching costs the pattern's length times the name's, per pair: these keep
 * one pair cheap, one batch and one cycle bounded, and the event loop free between pairs. What is over a bound is
 * not matched here: its patterns are asked of Graphite one per request, where no matching is needed.
 */
export const MATCH_LIMITS = {
  /** A wildcard pattern longer than this is never batched (it is sent alone). */
  maxPatternLength: 512,
  /** A series name longer than this is never matched here: its batch's wildcards are asked again, alone. */
  maxNameLength: 1_024,
  /** Matching time one batch may use, ms, before its wildcards are asked again alone. */
  batchBudgetMs: 250,
  /** Matching time one cycle (one renderEach call) may use in all, ms; past it, batches' wildcards go alone. */
  cycleBudgetMs: 2_000,
  /** The longest matching holds the event loop before yielding, ms. */
  sliceMs: 5,
};

/** The matching time left to one cycle, ms (shared by all its batches). */
export interface MatchBudget {
  leftMs: number;
}

export function createMatchBudget(): MatchBudget {
  return { leftMs: MATCH_LIMITS.cycleBudgetMs };
}

/**
 * Matches `series` to `wildcards`, adding each match with `add`. Yields to the event loop every few ms. Resolves
 * false (having added only part of the matches) when a name is too long or a budget runs out: the caller then asks
 * Graphite for each wildcard alone instead.
 */
export async function matchWildcards(
  series: readonly RenderSeries[],
  wildcards: readonly { target: string; matcher: GraphiteMatcher }[],
  add: (target: string, one: RenderSeries) => void,
  budget: MatchBudget,
): Promise<boolean> {
  if (wildcards.length === 0) return true;
  if (budget.leftMs <= 0) return false;
  if (series.some((one) => one.target.length > MATCH_LIMITS.maxNameLength)) return false;
  let spentMs = 0;
  let sliceStart = performance.now();
  for (const one of series) {
    for (const pattern of wildcards) {
      if (pattern.matcher.test(one.target)) add(pattern.target, one);
      const elapsed = performance.now() - sliceStart;
      if (elapsed > MATCH_LIMITS.sliceMs) {
        spentMs += elapsed;
        budget.leftMs -= elapsed;
        if (spentMs > MATCH_LIMITS.batchBudgetMs || budget.leftMs <= 0) return false;
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }
  budget.leftMs -= performance.now() - sliceStart;
  return true;
}

/** The series matched to each target of a shared request so far (null: none yet). */
export interface Matches {
  found: Map<string, RenderSeries[] | null>;
  /** Past a few series per target, their positions by name (a wildcard can match thousands). */
  positions: Map<string, Map<string, number>>;
}

/**
 * Adds `one` to what `target` matched, replacing a series of the same name. A function rather than a closure made per
 * request, whose optimized code would not outlive the cycle (see render-client.ts, above `deliver`).
 */
export function addMatch({ found, positions }: Matches, target: string, one: RenderSeries): void {
  const matched = found.get(target);
  if (!matched) {
    found.set(target, [one]);
    return;
  }
  let byName = positions.get(target);
  if (!byName) {
    if (matched.length < 16) {
      for (let i = 0; i < matched.length; i += 1) {
        if (matched[i]!.target === one.target) {
          matched[i] = one;
          return;
        }
      }
      matched.push(one);
      return;
    }
    positions.set(target, (byName = new Map(matched.map((series, i) => [series.target, i]))));
  }
  const at = byName.get(one.target);
  if (at === undefined) byName.set(one.target, matched.push(one) - 1);
  else matched[at] = one;
}
