import type { AlertDefinition, ChannelDefinition, MaintenanceWindowDefinition, ResourceKind, ScheduleDefinition } from '../definitions/definitions.js';
import type { Problem, SourceLocation } from '../definitions/problems.js';
import type { CanonicalAlert, CanonicalChannel, CanonicalMaintenanceWindow, CanonicalSchedule } from '../model/canonical.js';
import type { AlertBody, AlertRead, ChannelBody, ChannelRead, ChannelType, MaintenanceWindowBody, MaintenanceWindowRead, ScheduleBody, ScheduleRead } from '../model/types.js';

export type { CanonicalAlert, CanonicalChannel, CanonicalCriteria, CanonicalMaintenanceWindow, CanonicalResource, CanonicalSchedule } from '../model/canonical.js';

/** One changed field: `before` absent means added, `after` absent means removed. */
export interface FieldDiff {
  path: string;
  before?: unknown;
  after?: unknown;
}

export type PlanAction = 'create' | 'update' | 'delete' | 'mute' | 'unmute' | 'no-op';

/** The types of each kind of resource, so that adapters and changes of one kind speak one set of types. */
export interface KindTypes {
  schedule: { spec: ScheduleDefinition; read: ScheduleRead; canonical: CanonicalSchedule; body: ScheduleBody };
  channel: { spec: ChannelDefinition; read: ChannelRead; canonical: CanonicalChannel; body: ChannelBody };
  alert: { spec: AlertDefinition; read: AlertRead; canonical: CanonicalAlert; body: AlertBody };
  'maintenance window': { spec: MaintenanceWindowDefinition; read: MaintenanceWindowRead; canonical: CanonicalMaintenanceWindow; body: MaintenanceWindowBody };
}

/** The canonical form of kind K (an alert's is CanonicalAlert). */
export type CanonicalOf<K extends ResourceKind> = KindTypes[K]['canonical'];

interface ChangeBase<K extends ResourceKind> {
  /** Stable step id, e.g. `alert:CPU high:update`; what `dependsOn` refers to. */
  id: string;
  kind: K;
  /** The resource's identity (alert/schedule name, channel description). */
  key: string;
  /** Steps that must succeed first (a created channel before the alert using it; alert deletes before channel). */
  dependsOn: string[];
  /** Dot paths (in `before`/`after`) whose values are secret and shown as `(sensitive)`. */
  sensitive: string[];
  /** Where the definition was written, when there is one. */
  source?: SourceLocation;
  /** A maintenance window's create or update: the desired alerts it would mute (the first 10 names of `count`). */
  wouldMute?: { count: number; alerts: string[] };
  /** A maintenance window's create or update: when it mutes next (or now), in words (model/window-occurrence.ts). */
  nextOccurrence?: string;
}

/** create: `after` is the full desired object; there is no `before`. */
export interface CreateOf<K extends ResourceKind> extends ChangeBase<K> {
  action: 'create';
  after: CanonicalOf<K>;
}

/** update: `before` is the server's object, `after` the desired one, `diffs` only the fields that differ. */
export interface UpdateOf<K extends ResourceKind> extends ChangeBase<K> {
  action: 'update';
  remoteId: string;
  before: CanonicalOf<K>;
  after: CanonicalOf<K>;
  diffs: FieldDiff[];
}

/** delete: `before` is the server's object about to go; there is no `after`. */
export interface DeleteOf<K extends ResourceKind> extends ChangeBase<K> {
  action: 'delete';
  remoteId: string;
  before: CanonicalOf<K>;
}

/** A create, update or delete of kind K; without K, of any kind, discriminated by `kind`. */
export type ResourceChange<K extends ResourceKind = ResourceKind> = { [P in K]: CreateOf<P> | UpdateOf<P> | DeleteOf<P> }[K];
export type CreateChange<K extends ResourceKind = ResourceKind> = { [P in K]: CreateOf<P> }[K];
export type UpdateChange<K extends ResourceKind = ResourceKind> = { [P in K]: UpdateOf<P> }[K];
export type DeleteChange<K extends ResourceKind = ResourceKind> = { [P in K]: DeleteOf<P> }[K];

/** mute: mute an alert for `minutes` (until `until`); `remainingBefore` is the server's remaining minutes, if any. */
export interface MuteChange extends ChangeBase<'alert'> {
  action: 'mute';
  remoteId?: string;
  minutes: number;
  until: string;
  remainingBefore?: number;
}

/** unmute: the definition says `muted: false` (or an `until` in the past) and the server has it muted. */
export interface UnmuteChange extends ChangeBase<'alert'> {
  action: 'unmute';
  remoteId: string;
}

/** no-op: defined and equal on the server (kept only as a count in a Plan, to keep plans small). */
export interface NoOpChange extends ChangeBase<ResourceKind> {
  action: 'no-op';
  remoteId: string;
}

export type PlanChange = ResourceChange | MuteChange | UnmuteChange;

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
 * What apply would do, computed purely from (definitions, server state, now). Renderers read only this, and the
 * backtest (`ImpactOutcome` of src/impact/types.ts) when one was run: it is carried beside the plan, never in it.
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
  /** What templated channels will say for the changes (src/plan/preview.ts); absent when none has a template. */
  previews?: MessagePreview[];
}

/** True when applying the plan would change something. */
export function planHasChanges(plan: Plan): boolean {
  return plan.changes.length > 0;
}

/**
 * "This is what the page will say": a templated message rendered for a change in the plan. A channel whose
 * template is created or changed gets one with a sample alert; an alert created or changed gets one per channel
 * of it that has a template, with the alert's own fields and a value past its threshold.
 */
export interface MessagePreview {
  /** The step id of the change it belongs to (`channel:ops:update`, `alert:CPU:create`). */
  changeId: string;
  channel: string;
  type: ChannelType;
  /** Whose fields fill the template: a made-up sample alert, or the alert of the change. */
  subject: 'sample' | 'alert';
  alert: string;
  title: string;
  body: string;
}
