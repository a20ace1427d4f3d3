import { durationMs } from './duration.js';
import type { FieldProblem } from './schemas.js';

/**
 * Noise control (an alertform extension of the /v2 API): a channel's throttle and an alert's flap guard,
 * in their API form (whole minutes) and their definitions form (`window:` in the duration grammar, e.g. `1h`).
 */

/** A channel's throttle: at most `max_notifications` per window of `window_minutes`; the rest go in one summary. */
export interface ChannelThrottle {
  max_notifications: number;
  window_minutes: number;
}

/** An alert's flap guard: more than `max_changes` state changes within `window_minutes` is flapping. */
export interface FlapGuard {
  max_changes: number;
  window_minutes: number;
}

/**
 * One parent of an alert (`depends_on`): `alert` an id or name (a read gives the id); `nodes`/`parent_nodes` map the
 * child's path nodes to the parent's (src/evaluation/dependencies.ts decides with them).
 */
export interface DependsOnItem {
  alert: string;
  nodes?: number[];
  parent_nodes?: number[];
}

/** A depends_on item as written in definitions: a bare name is short for `{alert: name}`. */
export type DependsOnDefinition = string | DependsOnItem;

/** A channel's grouping by path nodes (src/evaluation/grouping.ts makes the key). */
export interface ChannelGroupBy {
  nodes: number[];
  wait_seconds?: number;
  interval_seconds?: number;
}

/** The defaults of group_by's timing, which its canonical form fills in. */
export const GROUP_BY_DEFAULTS = { waitSeconds: 5, intervalSeconds: 60 } as const;

/** The rule a schema cannot say of depends_on: `parent_nodes` names as many nodes as `nodes`. */
export function checkDependsOnNodes(items: readonly DependsOnDefinition[] | null | undefined, path = 'depends_on'): FieldProblem[] {
  const problems: FieldProblem[] = [];
  (items ?? []).forEach((item, i) => {
    if (typeof item === 'string' || !item.parent_nodes || !item.nodes) return;
    if (item.parent_nodes.length !== item.nodes.length) {
      problems.push({ path: `${path}.${i}.parent_nodes`, message: `must name as many nodes as nodes (${item.nodes.length}, got ${item.parent_nodes.length})` });
    }
  });
  return problems;
}

/** The definitions form of a throttle: `{max_notifications: 5, window: 1h}`. */
export interface ThrottleDefinition {
  max_notifications: number;
  /** The duration grammar; a bare number is seconds. */
  window: string | number;
}

/** The definitions form of a flap guard: `{max_changes: 4, window: 30m}`. */
export interface FlapGuardDefinition {
  max_changes: number;
  /** The duration grammar; a bare number is seconds. */
  window: string | number;
}

/** Bounds the API and the schemas share. */
export const NOISE_LIMITS = { maxNotifications: 1000, maxChanges: 100, windowMinutes: 10_080 } as const;

/** Whole minutes of a definitions `window:`, or undefined when it is not a duration of whole minutes. */
export function windowMinutes(text: string | number): number | undefined {
  const ms = durationMs(String(text));
  if (ms === undefined || ms % 60_000 !== 0) return undefined;
  return ms / 60_000;
}

/** Minutes in the shortest exact unit of the duration grammar: `90m`, `1h`, `1d`, `2w`. */
export function formatWindow(minutes: number): string {
  if (minutes % 10_080 === 0) return `${minutes / 10_080}w`;
  if (minutes % 1_440 === 0) return `${minutes / 1_440}d`;
  if (minutes % 60 === 0) return `${minutes / 60}h`;
  return `${minutes}m`;
}

/** The API form of a definitions throttle (null stays null); an unreadable window gives NaN (the rules report it). */
export function throttleFromDefinition(value: ThrottleDefinition | null | undefined): ChannelThrottle | null {
  if (!value) return null;
  return { max_notifications: value.max_notifications, window_minutes: windowMinutes(value.window) ?? Number.NaN };
}

export function flapGuardFromDefinition(value: FlapGuardDefinition | null | undefined): FlapGuard | null {
  if (!value) return null;
  return { max_changes: value.max_changes, window_minutes: windowMinutes(value.window) ?? Number.NaN };
}

export function throttleToDefinition(value: ChannelThrottle): ThrottleDefinition {
  return { max_notifications: value.max_notifications, window: formatWindow(value.window_minutes) };
}

export function flapGuardToDefinition(value: FlapGuard): FlapGuardDefinition {
  return { max_changes: value.max_changes, window: formatWindow(value.window_minutes) };
}

/** The rule a schema cannot say of a definitions `window:`: whole minutes, at most a week. */
export function checkWindow(window: string | number | undefined, path: string): FieldProblem[] {
  if (window === undefined) return [];
  const minutes = windowMinutes(window);
  if (minutes === undefined) return [{ path, message: `must be a whole number of minutes such as 10m, 1h or 1d (got ${JSON.stringify(window)}; a bare number is seconds)` }];
  if (minutes > NOISE_LIMITS.windowMinutes) return [{ path, message: `must be at most 1w (got ${window})` }];
  return [];
}
