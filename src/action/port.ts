/**
 * What the Action needs from the reconciler, as one narrow interface. The Action never plans by itself: the
 * default implementation (reconciler.ts) calls planProject and applyPlan; tests of the GitHub side may pass a fake.
 * Runs carry the reconciler's own types (Plan, Problem, and the backtest beside the plan): the Action composes its
 * comment from them.
 */
import type { Problem } from '../definitions/problems.js';
import type { Plan } from '../plan/types.js';
import type { ImpactOutcome } from '../impact/types.js';

/** A computed plan, hashed, and ready to apply. */
export interface PlannedRun {
  status: 'planned';
  /** The plan, its change sources named relative to the workspace. */
  plan: Plan;
  /** The backtest of the plan's alerts, when a Graphite was given (never part of the plan or its hash). */
  impact?: ImpactOutcome;
  /** fingerprintPlan: a stable hash of what the plan would do; equal hashes mean the same changes. */
  hash: string;
  /** Applies exactly this plan. */
  apply(): Promise<ApplyOutcome>;
}

/** Definitions that do not validate (or a plan with problems): every problem, files relative to the workspace. */
export interface InvalidRun {
  status: 'invalid';
  problems: Problem[];
}

export interface ApplyOutcome {
  ok: boolean;
  done: number;
  failed: number;
  skipped: number;
  /** A plain-text report of the run (one line per step and the summary), secrets masked. */
  report: string;
}

export interface PlanRequest {
  /** The definitions directory, resolved against the working directory. */
  dir: string;
  /** The workspace: problem locations are shown relative to it. */
  cwd: string;
  /** The server-url input: with ALERTFORM_URL, the only places the server may come from (never alertform.yaml). */
  serverUrl?: string;
  apiKey?: string;
  /** Overrides the project's prune setting when set. */
  prune?: boolean;
  /** graphite-web root: backtest the changed alerts (over ALERTFORM_GRAPHITE_URL and alertform.yaml's graphite). */
  graphiteUrl?: string;
  /** false skips the backtest (apply recomputes the plan only to compare and apply it). */
  impact?: boolean;
  /** The backtest window, e.g. `7d`. */
  impactWindow?: string;
  env: NodeJS.ProcessEnv;
}

/** The reconciler as the Action sees it. */
export interface Reconciler {
  plan(request: PlanRequest): Promise<PlannedRun | InvalidRun>;
}
