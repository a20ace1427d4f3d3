import picomatch from 'picomatch';
import type { Definitions, Defined, ResourceKind, AlertDefinition } from '../definitions/definitions.js';
import type { Problem } from '../definitions/problems.js';
import type { PruneConfig } from '../definitions/project.js';
import { DEFAULT_MAX_DELETES } from '../definitions/project.js';
import type { AlertRead } from '../model/types.js';
import type { ActualState } from './state.js';
import { SENSITIVE } from '../redact/placeholder.js';
import { displayKey } from '../redact/plan.js';
import { NameIndex } from './references.js';
import { diffFields } from './diff.js';
import type { ActualReferences, DesiredReferences, ResourceAdapter } from './adapters/adapter.js';
import { alertAdapter } from './adapters/alert.js';
import { channelAdapter } from './adapters/channel.js';
import { scheduleAdapter } from './adapters/schedule.js';
import type { CanonicalAlert, CanonicalResource, DeleteChange, Plan, PlanChange, PlanSummary, UnmanagedResource } from './types.js';

export interface PlanOptions {
  /** alertform.yaml's prune: delete server objects matching a glob that no file defines. */
  prune?: PruneConfig | false;
  /** `--allow-deletes N`: raises max_deletes for this run. */
  allowDeletes?: number;
}

type AnyAdapter = ResourceAdapter<unknown, { id: string }, CanonicalResource, unknown>;

/** The adapter of each kind. */
export const ADAPTERS: Record<ResourceKind, AnyAdapter> = {
  schedule: scheduleAdapter as unknown as AnyAdapter,
  channel: channelAdapter as unknown as AnyAdapter,
  alert: alertAdapter as unknown as AnyAdapter,
};

/** The longest mute the API takes (a year, in minutes). */
export const MAX_MUTE_MINUTES = 525_600;

const ORDER: Record<string, number> = { schedule: 0, channel: 1, alert: 2 };

/** `notification_channels.2` is sensitive as a whole list: lists are compared and shown whole. */
function normaliseSensitive(path: string): string {
  const parts = path.split('.');
  const index = parts.findIndex((p) => /^\d+$/.test(p));
  return (index === -1 ? parts : parts.slice(0, index)).join('.');
}

/**
 * The plan: a pure function of the definitions, the server's state and the time. Both sides are put in one
 * canonical form before comparing, so a freshly applied definition plans as no-op. Problems (unresolved
 * references, unsafe deletes) are data in the plan; a plan with problems must not be applied.
 */
export function computePlan(desired: Definitions, actual: ActualState, now: Date, options: PlanOptions = {}): Plan {
  const problems: Problem[] = [];
  const warnings: string[] = [];
  const changes: PlanChange[] = [];
  const unmanaged: UnmanagedResource[] = [];
  let noOp = 0;

  const channels = new NameIndex(
    desired.channels.map((c) => c.key),
    actual.channels.map((c) => ({ id: c.id, key: c.description })),
  );
  const schedules = new NameIndex(
    desired.schedules.map((s) => s.key),
    actual.schedules.map((s) => ({ id: s.id, key: s.name })),
  );
  // Names that came from the environment: an alert naming one of them shows that list as sensitive too.
  const secretNames = {
    channel: new Set(desired.channels.filter((c) => c.sensitivePaths.includes('description')).map((c) => c.key)),
    schedule: new Set(desired.schedules.filter((s) => s.sensitivePaths.includes('name')).map((s) => s.key)),
    alert: new Set(desired.alerts.filter((a) => a.sensitivePaths.includes('name')).map((a) => a.key)),
  };
  const actualRefs: ActualReferences = { channel: (id) => channels.nameOf(id), schedule: (id) => schedules.nameOf(id) };
  const refsFor = (item: Defined<unknown>): DesiredReferences => {
    const resolve = (index: NameIndex, what: string) => (ref: string, path: string) => {
      const name = index.resolve(ref);
      if (name !== undefined) return name;
      // A reference written as `${VAR}` is a secret: the problem says where it is, not what it is.
      const shown = item.sensitivePaths.includes(path) ? SENSITIVE : ref;
      problems.push({ location: item.locate(path), path: `${item.path}.${path}`, message: `no ${what} "${shown}" in these files or on the server` });
      return ref;
    };
    return { channel: resolve(channels, 'channel'), schedule: resolve(schedules, 'schedule') };
  };

  if (!actual.schedulesSupported && desired.schedules.length > 0) {
    const first = desired.schedules[0]!;
    problems.push({ location: first.location, path: first.path, message: 'this server has no /v2/schedules/ endpoint; schedules cannot be managed here' });
  }

  const reads: Record<ResourceKind, { id: string }[]> = { schedule: actual.schedules, channel: actual.channels, alert: actual.alerts };
  const defined: Record<ResourceKind, Defined<unknown>[]> = { schedule: desired.schedules, channel: desired.channels, alert: desired.alerts };
  /** The canonical after-state of every alert that remains, to check deletes of what they use. */
  const remainingAlerts: CanonicalAlert[] = [];
  const alertById = new Map<string, AlertRead>(actual.alerts.map((a) => [a.id, a]));

  for (const kind of ['schedule', 'channel', 'alert'] as const) {
    const adapter = ADAPTERS[kind];
    const byKey = new Map(reads[kind].map((read) => [adapter.keyOf(read), read]));
    const definedKeys = new Set(defined[kind].map((d) => d.key));
    for (const item of defined[kind]) {
      const after = adapter.canonicalDesired(item.spec, refsFor(item));
      if (kind === 'alert') remainingAlerts.push(after as CanonicalAlert);
      const read = byKey.get(item.key);
      const sensitive = [...new Set([...item.sensitivePaths.map(normaliseSensitive), ...adapter.secretPaths(after), ...secretReferences(after, secretNames)])];
      const base = { kind, key: item.key, dependsOn: [], source: item.location };
      if (!read) {
        changes.push({ ...base, id: `${kind}:${item.key}:create`, action: 'create', after, sensitive });
      } else {
        const before = adapter.canonicalActual(read, actualRefs);
        const diffs = diffFields(before, after, '', new Set(adapter.unknownFields(read)));
        if (diffs.length === 0) noOp += 1;
        else {
          const allSensitive = [...new Set([...sensitive, ...adapter.secretPaths(before), ...secretReferences(before, secretNames)])];
          changes.push({ ...base, id: `${kind}:${item.key}:update`, action: 'update', remoteId: read.id, before, after, diffs, sensitive: allSensitive });
        }
      }
      if (kind === 'alert') planMute(item as Defined<AlertDefinition>, read as AlertRead | undefined, actual, now, changes);
    }
    const matchers = options.prune ? options.prune.match.map((glob) => picomatch(glob)) : [];
    for (const read of reads[kind]) {
      const key = adapter.keyOf(read);
      if (definedKeys.has(key)) continue;
      if (matchers.some((match) => match(key))) {
        const before = adapter.canonicalActual(read, actualRefs);
        const sensitive = [...adapter.secretPaths(before), ...secretReferences(before, secretNames)];
        changes.push({ id: `${kind}:${key}:delete`, kind, key, action: 'delete', remoteId: read.id, before, dependsOn: [], sensitive });
      } else {
        unmanaged.push({ kind, key });
        if (kind === 'alert') remainingAlerts.push(adapter.canonicalActual(read, actualRefs) as CanonicalAlert);
      }
    }
  }

  refuseDeletesInUse(changes, remainingAlerts, problems, secretNames.alert);
  const deletes = changes.filter((c) => c.action === 'delete').length;
  const limit = Math.max(options.allowDeletes ?? 0, options.prune ? options.prune.max_deletes : DEFAULT_MAX_DELETES);
  if (deletes > limit) {
    problems.push({ path: 'prune.max_deletes', message: `the plan deletes ${deletes} objects, more than max_deletes (${limit}); rerun with --allow-deletes ${deletes} if that is intended` });
  }

  for (const change of changes) {
    if (change.kind !== 'alert' || change.action === 'create') continue;
    const read = 'remoteId' in change && change.remoteId ? alertById.get(change.remoteId) : undefined;
    if (read?.status === 'alerting') warnings.push(`alert "${displayKey(change)}" is alerting now; this ${change.action} touches it`);
  }

  linkDependencies(changes);
  changes.sort(compareChanges);
  return { formatVersion: 1, createdAt: now.toISOString(), changes, summary: summarise(changes, noOp, unmanaged.length), warnings, problems, unmanaged };
}

/** Declarative mutes: `false` keeps unmuted, `{until}` keeps muted until then, absent leaves hands-on mutes alone. */
function planMute(item: Defined<AlertDefinition>, read: AlertRead | undefined, actual: ActualState, now: Date, changes: PlanChange[]): void {
  const muted = item.spec.muted;
  if (muted === undefined) return;
  const remaining = muted === false ? 0 : Math.ceil((Date.parse(muted.until) - now.getTime()) / 60_000);
  // A mute has no fields; `name` in its sensitive paths says that its key came from the environment.
  const base = { kind: 'alert' as const, key: item.key, sensitive: item.sensitivePaths.includes('name') ? ['name'] : [], source: item.location };
  if (remaining <= 0) {
    if (read?.muted) changes.push({ ...base, id: `alert:${item.key}:unmute`, action: 'unmute', remoteId: read.id, dependsOn: [] });
    return;
  }
  const minutes = Math.min(remaining, MAX_MUTE_MINUTES);
  const status = read ? actual.muteStatus[read.id] : undefined;
  // The server counts whole minutes rounded up; a difference of a minute is the clock, not a change.
  if (read?.muted && (status === undefined || Math.abs(status.duration - minutes) <= 1)) return;
  changes.push({
    ...base,
    id: `alert:${item.key}:mute`,
    action: 'mute',
    ...(read ? { remoteId: read.id } : {}),
    minutes,
    until: new Date(Date.parse(muted === false ? '' : muted.until)).toISOString(),
    ...(status ? { remainingBefore: status.duration } : {}),
    dependsOn: [],
  });
}

/** The reference lists of an alert that name a channel or schedule whose name is a secret. */
function secretReferences(canonical: CanonicalResource, secretNames: { channel: ReadonlySet<string>; schedule: ReadonlySet<string> }): string[] {
  if (!('notification_channels' in canonical)) return [];
  const paths: string[] = [];
  if (canonical.notification_channels.some((name) => secretNames.channel.has(name))) paths.push('notification_channels');
  if (canonical.scheduled_mutes.some((name) => secretNames.schedule.has(name))) paths.push('scheduled_mutes');
  return paths;
}

/** Drops deletes of channels and schedules that a remaining alert still uses, with a problem saying which. */
function refuseDeletesInUse(changes: PlanChange[], remaining: CanonicalAlert[], problems: Problem[], secretAlertNames: ReadonlySet<string>): void {
  for (let i = changes.length - 1; i >= 0; i -= 1) {
    const change = changes[i]!;
    if (change.action !== 'delete' || change.kind === 'alert') continue;
    const users = remaining.filter((a) => (change.kind === 'channel' ? a.notification_channels : a.scheduled_mutes).includes(change.key));
    if (users.length === 0) continue;
    const names = users.slice(0, 3).map((a) => `"${secretAlertNames.has(a.name) ? SENSITIVE : a.name}"`).join(', ') + (users.length > 3 ? ` and ${users.length - 3} more` : '');
    problems.push({ path: `${change.kind}s[${change.key}]`, message: `refusing to delete ${change.kind} "${change.key}": still used by alert ${names}` });
    changes.splice(i, 1);
  }
}

/** Creates of what an alert references come first; alert deletes and updates come before deleting what they used. */
function linkDependencies(changes: PlanChange[]): void {
  const byId = new Map(changes.map((c) => [c.id, c]));
  for (const change of changes) {
    if (change.kind !== 'alert') continue;
    if (change.action === 'create' || change.action === 'update') {
      const after = change.after as CanonicalAlert;
      for (const name of after.notification_channels) if (byId.has(`channel:${name}:create`)) change.dependsOn.push(`channel:${name}:create`);
      for (const name of after.scheduled_mutes) if (byId.has(`schedule:${name}:create`)) change.dependsOn.push(`schedule:${name}:create`);
    }
    if (change.action === 'mute' || change.action === 'unmute') {
      if (byId.has(`alert:${change.key}:create`)) change.dependsOn.push(`alert:${change.key}:create`);
    }
    if (change.action === 'delete' || change.action === 'update') {
      const before = change.before as CanonicalAlert;
      for (const name of before.notification_channels) byId.get(`channel:${name}:delete`)?.dependsOn.push(change.id);
      for (const name of before.scheduled_mutes) byId.get(`schedule:${name}:delete`)?.dependsOn.push(change.id);
    }
  }
}

/** Creates and updates (schedules, channels, alerts), then mutes, then deletes (alerts, channels, schedules). */
function compareChanges(a: PlanChange, b: PlanChange): number {
  const phase = (c: PlanChange) => (c.action === 'delete' ? 2 : c.action === 'mute' || c.action === 'unmute' ? 1 : 0);
  const kindRank = (c: PlanChange) => (c.action === 'delete' ? -ORDER[c.kind]! : ORDER[c.kind]!);
  return phase(a) - phase(b) || kindRank(a) - kindRank(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || (a.action < b.action ? -1 : 1);
}

function summarise(changes: PlanChange[], noOp: number, unmanaged: number): PlanSummary {
  const count = (action: PlanChange['action']) => changes.filter((c) => c.action === action).length;
  return { create: count('create'), update: count('update'), mute: count('mute'), unmute: count('unmute'), delete: count('delete'), noOp, unmanaged };
}

export type { DeleteChange };
