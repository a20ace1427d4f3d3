import type { Problem } from '../definitions/problems.js';

/** What one version of an alert would have done over the backtest window (JSON field names as `plan --json`). */
export interface ImpactFigures {
  /** Times it went from healthy to alerting. */
  fired: number;
  alerting_minutes: number;
  longest_episode_minutes: number;
  /** Deliveries per channel name. */
  notifications: Record<string, number>;
}

/** A small picture of the window for the PR comment: the worst series, its threshold(s), when it fired. */
export interface ImpactChart {
  /** Hours covered by each of `values` / `firing`. */
  slotHours: number;
  /** The worst value of the alert's `a` series per slot (highest for above, lowest for below); null = no data. */
  values: (number | null)[];
  thresholds: number[];
  /** Whether the new version was alerting at any time in the slot. */
  firing: boolean[];
}

/** The backtest of one created or updated alert. */
export interface AlertImpact extends ImpactFigures {
  name: string;
  action: 'create' | 'update';
  /** Seconds between replayed evaluations (30, or the data's resolution when coarser). */
  step_seconds: number;
  /** The server's current version, for updates. */
  before?: ImpactFigures;
  /** Episodes of the new version, unix seconds (`end` null: still alerting when the window ends). */
  episodes: { start: number; end: number | null }[];
  chart?: ImpactChart;
}

/** An alert that could not be replayed, and why (its query failed, or it could not be read). */
export interface SkippedImpact {
  name: string;
  reason: string;
}

/** The backtest of a plan (`impact` in `plan --json`). */
export interface PlanImpact {
  window_seconds: number;
  /** ISO times of the window. */
  from: string;
  until: string;
  /** The coarsest step any alert was replayed at. */
  step_seconds: number;
  alerts: AlertImpact[];
  skipped: SkippedImpact[];
  /**
   * Messages the replayed alerts would have sent without and with noise control (dependencies and grouping by
   * path): present when a changed alert depends on another or notifies a grouping channel.
   */
  noise?: { without: number; with: number; held: number };
}

/**
 * The backtest of a plan and what the live checks found on the way, carried beside the computed Plan (which it
 * never changes): renderers show `warnings` and `problems` after the plan's own, and a problem here (a query
 * Graphite rejects) keeps the plan from being applied as the plan's own problems do.
 */
export interface ImpactOutcome {
  impact: PlanImpact;
  warnings: string[];
  problems: Problem[];
}
