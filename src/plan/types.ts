import type { ResourceKind } from '../definitions/definitions.js';
import type { Problem, SourceLocation } from '../definitions/problems.js';
import type { PlanImpact } from '../impact/types.js';
import type { NotificationType, OnQueryFailure, CriteriaType, ChannelType, Weekday } from '../model/types.js';

/** Criteria in canonical form: only the values that are set; time_period absent when instantaneous. */
export interface CanonicalCriteria {
  type: CriteriaType;
  above_value?: number;
  below_value?: number;
  time_period?: number;
}

/**
 * An alert in the one form both sides are compared in: defaults filled, references by name (sorted), letters lower
 * case, expression canonical, notification_type in list form.
 */
export interface CanonicalAlert {
  name: string;
  metric: string;
  alert_criteria: CanonicalCriteria;
  additional_criteria: Record<string, CanonicalCriteria & { metric: string }>;
  expression: string;
  notification_channels: string[];
  notification_type: NotificationType;
  scheduled_mutes: string[];
  info: string;
  on_query_failure: OnQueryFailure;
}

export interface CanonicalChannel {
  description: string;
  type: ChannelType;
  destination: string;
  auto_resolve: boolean;
}

export interface CanonicalSchedule {
  name: string;
  start_time: string;
  duration: number;
  timezone: string;
  repeat: Weekday[];
}

export type CanonicalResource = CanonicalAlert | CanonicalChannel | CanonicalSchedule;

/** One changed field: `before` absent means added, `after` absent means removed. */
export interface FieldDiff {
  path: string;
  before?: unknown;
  after?: unknown;
}

export type PlanAction = 'create' | 'update' | 'delete' | 'mute' | 'unmute' | 'no-op';

interface ChangeBase {
  /** Stable step id, e.g. `alert:CPU high:update`; what `dependsOn` refers to. */
  id: string;
  kind: ResourceKind;
  /** The resource's identity (alert/schedule name, channel description). */
  key: string;
  /** Steps that must succeed first (a created channel before the alert using it; alert deletes before channel). */
  dependsOn: string[];
  /** Dot paths (in `before`/`after`) whose values are secret and shown as `(sensitive)`. */
  sensitive: string[];
  /** Where the definition was written, when there is one. */
  source?: SourceLocation;
}

/** create: `after` is the full desired object; there is no `before`. */
export interface CreateChange extends ChangeBase {
  action: 'create';
  after: CanonicalResource;
}

/** update: `before` is the server's object, `after` the desired one, `diffs` only the fields that differ. */
export interface UpdateChange extends ChangeBase {
  action: 'update';
  remoteId: string;
  before: CanonicalResource;
  after: CanonicalResource;
  diffs: FieldDiff[];
}

/** delete: `before` is the server's object about to go; there is no `after`. */
export interface DeleteChange extends ChangeBase {
  action: 'delete';
  remoteId: string;
  before: CanonicalResource;
}

/** mute: mute an alert for `minutes` (until `until`); `remainingBefore` is the server's remaining minutes, if any. */
export interface MuteChange extends ChangeBase {
  kind: 'alert';
  action: 'mute';
  remoteId?: string;
  minutes: number;
  until: string;
  remainingBefore?: number;
}

/** unmute: the definition says `muted: false` (or an `until` in the past) and the server has it muted. */
export interface UnmuteChange extends ChangeBase {
  kind: 'alert';
  action: 'unmute';
  remoteId: string;
}

/** no-op: defined and equal on the server (kept only as a count in a Plan, to keep plans small). */
export interface NoOpChange extends ChangeBase {
  action: 'no-op';
  remoteId: string;
}

export type PlanChange = CreateChange | UpdateChange | DeleteChange | MuteChange | UnmuteChange;

export interface PlanSummary {
  create: number;
  update: number;
  mute: number;
  unmute: number;
  delete: number;
  noOp: number;
  /** Objects on the server that no file defines and that prune does not cover. */
  unmanaged: number;
}

/** A resource on the server that these definitions do not manage. */
export interface UnmanagedResource {
  kind: ResourceKind;
  key: string;
}

/**
 * What apply would do, computed purely from (definitions, server state, now). Renderers read only this.
 * `problems` non-empty means the plan must not be applied (unresolved references, too many deletes...).
 */
export interface Plan {
  formatVersion: 1;
  createdAt: string;
  changes: PlanChange[];
  summary: PlanSummary;
  warnings: string[];
  problems: Problem[];
  unmanaged: UnmanagedResource[];
  /** The backtest of the created and updated alerts (`plan --impact`), when one was run. */
  impact?: PlanImpact;
}

/** True when applying the plan would change something. */
export function planHasChanges(plan: Plan): boolean {
  return plan.changes.length > 0;
}
