/**
 * What the Action needs from the reconciler, as one narrow interface. The Action never plans by itself: the
 * default implementation (reconciler.ts) calls src/spec, src/plan and src/apply; tests of the GitHub side may pass
 * a fake. Keeping the seam here means only reconciler.ts changes when the reconciler's API does.
 */

/** A definitions problem, located in its file. */
export interface DefinitionProblem {
  file: string;
  line?: number;
  column?: number;
  /** Field path such as `alerts.0.alert_criteria`. */
  path?: string;
  message: string;
}

export type ChangeAction = 'create' | 'update' | 'delete' | 'mute' | 'unmute';

/** One planned change, reduced to what the comment's file table needs. */
export interface ChangeRef {
  action: ChangeAction;
  kind: string;
  name: string;
  /** The definition's source file (absolute, or relative to the working directory); absent for deletions. */
  file?: string;
}

export interface PlanCounts {
  create: number;
  update: number;
  delete: number;
  mute: number;
  unmute: number;
}

/** A computed plan, rendered, hashed, and ready to apply. */
export interface PlannedRun {
  status: 'planned';
  counts: PlanCounts;
  /** Only real changes (no no-ops). */
  changes: ChangeRef[];
  /** `Plan: 2 to create, 1 to update, 1 to mute, 0 to delete.` */
  summaryLine: string;
  /**
   * The plan as markdown, secrets masked: a heading, the summary line, problems and warnings, then the details in a
   * `<details>` block. The comment inserts the changed-files table before that block.
   */
  markdown: string;
  /** The plan as JSON (formatVersion 1), secrets masked. */
  json: string;
  /** A stable hash of what the plan would do: equal hashes mean the same changes. */
  hash: string;
  /** Applies exactly this plan. */
  apply(): Promise<ApplyOutcome>;
}

export interface InvalidRun {
  status: 'invalid';
  problems: DefinitionProblem[];
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
  /** The markdown heading, e.g. `alertform plan for \`alerts\``. */
  title: string;
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
