import { unsupportedExtensionProblems } from './extension-support.js';
import picomatch from 'picomatch';
import { RESOURCE_KINDS, type Definitions, type Defined, type ResourceKind, type AlertDefinition } from '../definitions/definitions.js';
import type { Problem } from '../definitions/problems.js';
import type { PruneConfig } from '../definitions/project.js';
import { DEFAULT_MAX_DELETES } from '../definitions/project.js';
import { DEFAULT_CHANNEL, MAX_MUTE_MINUTES } from '../model/defaults.js';
import type { AlertRead } from '../model/types.js';
import { describeOccurrence, windowOccurrence } from '../model/window-occurrence.js';
import { windowMatches } from '../model/maintenance-window.js';
import type { CanonicalMaintenanceWindow } from '../model/canonical.js';
import type { ActualState } from './state.js';
import { SENSITIVE } from '../redact/placeholder.js';
import { displayKey } from '../redact/plan.js';
import { NameIndex } from './references.js';
import { deepEqual, diffFields } from './diff.js';
import { previewMessages } from './preview.js';
import type { ActualReferences, DesiredReferences, References } from './adapters/adapter.js';
import { adapterFor, readsOf } from './adapters/registry.js';
import type { AdapterOf } from './adapters/adapter.js';
import type { CanonicalResource, KindTypes, Plan, PlanAction, PlanChange, PlanSummary, ResourceChange, UnmanagedResource } from './types.js';

export interface PlanOptions {
  /** alertform.yaml's prune: delete server objects matching a glob that no file defines. */
  prune?: PruneConfig | false;
  /** `--allow-deletes N`: raises max_deletes for this run. */
  allowDeletes?: number;
}

/**
 * An object that stays on the server after the plan (defined, or unmanaged), in canonical form: what it refers to is
 * asked only when the plan deletes something (a no-change plan of thousands of objects never needs it).
 */
interface Remaining {
  kind: ResourceKind;
  key: string;
  canonical: CanonicalResource;
}

/** What planning one kind gives: its changes, what remains, and what each change's objects refer to. */
interface KindPlan<K extends ResourceKind> {
  changes: ResourceChange<K>[];
  unmanaged: UnmanagedResource[];
  remaining: Remaining[];
  /** Step id -> references of the object it writes (create, update) and of the one it replaces (update, delete). */
  uses: Map<string, { after?: References; before?: References }>;
  noOp: number;
}

/** What every kind's planning shares: the reference resolvers, prune's matchers, the problems list. */
interface PlanContext {
  refsFor(item: Defined<unknown>): DesiredReferences;
  actualRefs: ActualReferences;
  /** Per kind, the names that came from the environment. */
  secretNames: Record<ResourceKind, ReadonlySet<string>>;
  pruneMatchers: ((key: string) => boolean)[];
}

/** The step id of an action on one object, e.g. `alert:CPU high:update`: what `dependsOn` refers to. */
function stepId(kind: ResourceKind, key: string, action: PlanAction): string {
  return `${kind}:${key}:${action}`;
}

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

  const nameIndex = (kind: 'channel' | 'schedule' | 'alert', defined: readonly Defined<unknown>[]) => {
    const adapter = adapterFor(kind);
    return new NameIndex(
      defined.map((d) => d.key),
      readsOf(actual, kind).map((read) => ({ id: adapter.idOf(read), key: adapter.keyOf(read) })),
    );
  };
  const channels = nameIndex('channel', desired.channels);
  const schedules = nameIndex('schedule', desired.schedules);
  const alerts = nameIndex('alert', desired.alerts);
  const windows = desired.maintenanceWindows ?? [];
  // Names that came from the environment: a reference to one of them makes that list sensitive too.
  const secretNames: Record<ResourceKind, ReadonlySet<string>> = {
    channel: new Set(desired.channels.filter((c) => c.sensitivePaths.includes('description')).map((c) => c.key)),
    schedule: new Set(desired.schedules.filter((s) => s.sensitivePaths.includes('name')).map((s) => s.key)),
    alert: new Set(desired.alerts.filter((a) => a.sensitivePaths.includes('name')).map((a) => a.key)),
    'maintenance window': new Set(windows.filter((w) => w.sensitivePaths.includes('name')).map((w) => w.key)),
  };
  const context: PlanContext = {
    secretNames,
    actualRefs: { channel: (id) => channels.nameOf(id), schedule: (id) => schedules.nameOf(id), alert: (id) => alerts.nameOf(id) },
    refsFor: (item) => new ItemReferences(item, channels, schedules, alerts, problems),
    pruneMatchers: options.prune ? options.prune.match.map((glob) => picomatch(glob)) : [],
  };

  problems.push(...unsupportedExtensionProblems(desired, actual));
  if (!actual.schedulesSupported && desired.schedules.length > 0) {
    const first = desired.schedules[0]!;
    problems.push({ location: first.location, path: first.path, message: 'this server has no /v2/schedules/ endpoint; schedules cannot be managed here' });
  }

  if (actual.maintenanceWindowsSupported === false && windows.length > 0) {
    const first = windows[0]!;
    problems.push({ location: first.location, path: first.path, message: 'this server has no /v2/maintenance_windows/ endpoint (an alertform server extension); maintenance windows cannot be managed here' });
  }

  const kinds = [
    planKind('schedule', desired.schedules, actual, context),
    planKind('channel', desired.channels, actual, context),
    planKind('alert', desired.alerts, actual, context),
    planKind('maintenance window', windows, actual, context),
  ];
  const changes = kinds.flatMap<PlanChange>((k) => k.changes);
  const uses = new Map(kinds.flatMap((k) => [...k.uses]));
  const unmanaged = kinds.flatMap((k) => k.unmanaged);
  const noOp = kinds.reduce((sum, k) => sum + k.noOp, 0);

  // Only alerts whose definitions say `muted:` are looked up (a large plan has few or none).
  let alertByKey: Map<string, AlertRead> | undefined;
  for (const item of desired.alerts) {
    if (item.spec.muted === undefined) continue;
    alertByKey ??= new Map(actual.alerts.map((read) => [adapterFor('alert').keyOf(read), read]));
    planMute(item, alertByKey.get(item.key), actual, now, changes);
  }

  refuseDeletesInUse(changes, kinds.flatMap((k) => k.remaining), problems, secretNames);
  const deletes = changes.filter((c) => c.action === 'delete').length;
  const limit = Math.max(options.allowDeletes ?? 0, options.prune ? options.prune.max_deletes : DEFAULT_MAX_DELETES);
  if (deletes > limit) {
    problems.push({ path: 'prune.max_deletes', message: `the plan deletes ${deletes} objects, more than max_deletes (${limit}); rerun with --allow-deletes ${deletes} if that is intended` });
  }

  let alertById: Map<string, AlertRead> | undefined;
  for (const change of changes) {
    if (change.kind !== 'alert' || change.action === 'create') continue;
    alertById ??= new Map<string, AlertRead>(actual.alerts.map((a) => [a.id, a]));
    const read = change.remoteId ? alertById.get(change.remoteId) : undefined;
    if (read?.status === 'alerting') warnings.push(`alert "${displayKey(change)}" is alerting now; this ${change.action} touches it`);
  }

  warnings.push(...unaddressedAlertWarnings(changes, desired, actual));

  linkDependencies(changes, uses);
  noteWindowReach(changes, desired, channels, now);
  changes.sort(compareChanges);
  const previews = previewMessages(changes, desired, actual, now);
  return {
    formatVersion: 1,
    createdAt: now.toISOString(),
    changes,
    summary: summarise(changes, noOp, unmanaged.length),
    warnings,
    problems,
    unmanaged,
    ...(previews.length > 0 ? { previews } : {}),
  };
}

/** Creates, updates and prune's deletes of one kind, through that kind's adapter. */
function planKind<K extends ResourceKind>(
  kind: K,
  defined: readonly Defined<KindTypes[K]['spec']>[],
  actual: ActualState,
  context: PlanContext,
): KindPlan<K> {
  const adapter = adapterFor(kind);
  const reads = readsOf(actual, kind);
  const result: KindPlan<K> = { changes: [], unmanaged: [], remaining: [], uses: new Map(), noOp: 0 };
  // Each read by key (the last of a name wins), as its index: a defined key marks that read, so that the reads left
  // over are told by an array rather than by a second set of 10,000 keys. When names repeat on the server, another
  // read of a defined name is not marked: then the set of defined keys decides, as it always did.
  const byKey = new Map<string, number>();
  let repeatedNames = false;
  for (let i = 0; i < reads.length; i += 1) {
    const key = adapter.keyOf(reads[i]!);
    if (!repeatedNames && byKey.has(key)) repeatedNames = true;
    byKey.set(key, i);
  }
  const matched = new Uint8Array(reads.length);
  // What remains is read only to refuse deletes, and only prune deletes: without prune, the canonical forms of a
  // no-change plan are left to die young instead of being kept (and copied by the GC) until the plan is made.
  const keepRemaining = context.pruneMatchers.length > 0;

  for (const item of defined) {
    const after = adapter.canonicalDesired(item.spec, context.refsFor(item));
    if (keepRemaining) result.remaining.push({ kind, key: item.key, canonical: after });
    const index = byKey.get(item.key);
    const read = index === undefined ? undefined : reads[index]!;
    if (index !== undefined) matched[index] = 1;
    if (!read) {
      const id = stepId(kind, item.key, 'create');
      result.changes.push({ kind, key: item.key, dependsOn: [], source: item.location, id, action: 'create', after, sensitive: sensitiveOf(item, adapter, after, context) });
      result.uses.set(id, { after: adapter.references(after) });
      continue;
    }
    const before = adapter.canonicalActual(read, context.actualRefs);
    // Equal as a whole settles most objects of a large plan; only a difference needs the field-by-field walk.
    const diffs = deepEqual(before, after) ? [] : diffFields(before, after, '', new Set(adapter.unknownFields(read)));
    if (diffs.length === 0) {
      result.noOp += 1;
      continue;
    }
    const base = { kind, key: item.key, dependsOn: [], source: item.location };
    const sensitive = sensitiveOf(item, adapter, after, context);
    const id = stepId(kind, item.key, 'update');
    const allSensitive = [...new Set([...sensitive, ...adapter.secretPaths(before), ...secretReferences(adapter.references(before), context.secretNames)])];
    result.changes.push({ ...base, id, action: 'update', remoteId: adapter.idOf(read), before, after, diffs, sensitive: allSensitive });
    result.uses.set(id, { after: adapter.references(after), before: adapter.references(before) });
  }

  const definedKeys = repeatedNames ? new Set(defined.map((d) => d.key)) : undefined;
  for (let i = 0; i < reads.length; i += 1) {
    if (matched[i] === 1) continue;
    const read = reads[i]!;
    const key = adapter.keyOf(read);
    if (definedKeys?.has(key)) continue;
    if (keepRemaining && context.pruneMatchers.some((match) => match(key))) {
      const before = adapter.canonicalActual(read, context.actualRefs);
      const id = stepId(kind, key, 'delete');
      result.changes.push({ id, kind, key, action: 'delete', remoteId: adapter.idOf(read), before, dependsOn: [], sensitive: [...adapter.secretPaths(before), ...secretReferences(adapter.references(before), context.secretNames)] });
      result.uses.set(id, { before: adapter.references(before) });
      continue;
    }
    // Every account is made with `Email me`: it is the server's, not something another team manages, so a fresh
    // plan does not report it as an unmanaged object (it stays, and alerts may still refer to it).
    if (!(kind === 'channel' && key === DEFAULT_CHANNEL)) result.unmanaged.push({ kind, key });
    if (keepRemaining) result.remaining.push({ kind, key, canonical: adapter.canonicalActual(read, context.actualRefs) });
  }
  return result;
}

/** The sensitive paths of a desired object; worked out only for a change (a no-op has no use for them). */
function sensitiveOf<K extends ResourceKind>(item: Defined<unknown>, adapter: AdapterOf<K>, after: KindTypes[K]['canonical'], context: PlanContext): string[] {
  return [...new Set([...item.sensitivePaths.map(normaliseSensitive), ...adapter.secretPaths(after), ...secretReferences(adapter.references(after), context.secretNames)])];
}

/**
 * A desired object's references resolved to names; one that resolves to nothing is a problem at its path. A class,
 * not closures made per object: a plan of thousands of objects makes one of these for each.
 */
class ItemReferences implements DesiredReferences {
  constructor(
    private readonly item: Defined<unknown>,
    private readonly channels: NameIndex,
    private readonly schedules: NameIndex,
    private readonly alerts: NameIndex,
    private readonly problems: Problem[],
  ) {}

  channel(ref: string, path: string): string {
    return this.resolve(this.channels, 'channel', ref, path);
  }

  schedule(ref: string, path: string): string {
    return this.resolve(this.schedules, 'schedule', ref, path);
  }

  alert(ref: string, path: string): string {
    return this.resolve(this.alerts, 'alert', ref, path);
  }

  private resolve(index: NameIndex, what: string, ref: string, path: string): string {
    const name = index.resolve(ref);
    if (name !== undefined) return name;
    // A reference written as `${VAR}` is a secret: the problem says where it is, not what it is.
    const shown = this.item.sensitivePaths.includes(path) ? SENSITIVE : ref;
    this.problems.push({ location: this.item.locate(path), path: `${this.item.path}.${path}`, message: `no ${what} "${shown}" in these files or on the server` });
    return ref;
  }
}

/** Names a window's reach shows before "…". */
const REACH_NAMES = 10;

/**
 * "would mute N alerts: a, b, c…" for each window created or changed: counted over the DESIRED alerts (what the
 * server will have after apply), with the matcher the server uses. An alert's channels are its
 * notification_channels by name (`Email me` when it names none).
 */
function noteWindowReach(changes: PlanChange[], desired: Definitions, channels: NameIndex, now: Date): void {
  const windows = changes.filter((c): c is ResourceChange<'maintenance window'> & { after: CanonicalMaintenanceWindow } => c.kind === 'maintenance window' && c.action !== 'delete');
  if (windows.length === 0) return;
  const alerts = desired.alerts.map((item) => ({
    item,
    channels: item.spec.notification_channels?.length ? item.spec.notification_channels.map((ref) => channels.resolve(ref) ?? ref) : [DEFAULT_CHANNEL],
  }));
  for (const change of windows) {
    const matched = alerts.filter(({ item, channels: names }) => windowMatches(change.after, { ...item.spec, notification_channels: names })).map(({ item }) => item.key);
    matched.sort();
    change.wouldMute = { count: matched.length, alerts: matched.slice(0, REACH_NAMES) };
    // A weekly window's rhythm is easy to misread (which Sunday, which clock): its next occurrence, spelled out.
    if (Number.isFinite(change.after.duration)) change.nextOccurrence = describeOccurrence(change.after, windowOccurrence(change.after, now.getTime()));
  }
}

/**
 * Alerts created without channels go to the account's `Email me`; while that channel has no address (an account
 * made without an email), every notification of theirs is dead-lettered at once. Said before it happens.
 */
function unaddressedAlertWarnings(changes: readonly PlanChange[], desired: Definitions, actual: ActualState): string[] {
  if (desired.channels.some((channel) => channel.key === DEFAULT_CHANNEL)) return [];
  const emailMe = actual.channels.find((channel) => channel.description === DEFAULT_CHANNEL);
  if (!emailMe || emailMe.destination.trim() !== '') return [];
  const bare = new Set(desired.alerts.filter((alert) => !alert.spec.notification_channels?.length).map((alert) => alert.key));
  return changes
    .filter((change) => change.kind === 'alert' && change.action === 'create' && bare.has(change.key))
    .map((change) => `alert "${displayKey(change)}" names no channel: the server sends it to "${DEFAULT_CHANNEL}", which has no address, so its notifications will be dead-lettered; add notification_channels`);
}

/** Declarative mutes: `false` keeps unmuted, `{until}` keeps muted until then, absent leaves hands-on mutes alone. */
function planMute(item: Defined<AlertDefinition>, read: AlertRead | undefined, actual: ActualState, now: Date, changes: PlanChange[]): void {
  const muted = item.spec.muted;
  if (muted === undefined) return;
  const remaining = muted === false ? 0 : Math.ceil((Date.parse(muted.until) - now.getTime()) / 60_000);
  // A mute has no fields; `name` in its sensitive paths says that its key came from the environment.
  const base = { kind: 'alert' as const, key: item.key, sensitive: item.sensitivePaths.includes('name') ? ['name'] : [], source: item.location };
  if (remaining <= 0) {
    if (read?.muted) changes.push({ ...base, id: stepId('alert', item.key, 'unmute'), action: 'unmute', remoteId: read.id, dependsOn: [] });
    return;
  }
  const minutes = Math.min(remaining, MAX_MUTE_MINUTES);
  const status = read ? actual.muteStatus[read.id] : undefined;
  // The server counts whole minutes rounded up; a difference of a minute is the clock, not a change.
  if (read?.muted && (status === undefined || Math.abs(status.duration - minutes) <= 1)) return;
  changes.push({
    ...base,
    id: stepId('alert', item.key, 'mute'),
    action: 'mute',
    ...(read ? { remoteId: read.id } : {}),
    minutes,
    until: new Date(Date.parse(muted === false ? '' : muted.until)).toISOString(),
    ...(status ? { remainingBefore: status.duration } : {}),
    dependsOn: [],
  });
}

/** The reference fields (e.g. notification_channels) that name an object whose name is a secret. */
function secretReferences(references: References, secretNames: PlanContext['secretNames']): string[] {
  return references.filter((ref) => ref.names.some((name) => secretNames[ref.kind].has(name))).map((ref) => ref.path);
}

function referencesOf(remaining: Remaining): References {
  return (adapterFor(remaining.kind) as AdapterOf<ResourceKind>).references(remaining.canonical as never);
}

/** Drops deletes of objects that something remaining still refers to, with a problem saying which. */
function refuseDeletesInUse(changes: PlanChange[], stays: readonly Remaining[], problems: Problem[], secretNames: PlanContext['secretNames']): void {
  if (!changes.some((c) => c.action === 'delete')) return;
  const remaining = stays.map((r) => ({ kind: r.kind, key: r.key, references: referencesOf(r) }));
  for (let i = changes.length - 1; i >= 0; i -= 1) {
    const change = changes[i]!;
    if (change.action !== 'delete') continue;
    const users = remaining.filter((r) => r.references.some((ref) => ref.kind === change.kind && ref.names.includes(change.key)));
    if (users.length === 0) continue;
    const names = users.slice(0, 3).map((r) => `"${secretNames[r.kind].has(r.key) ? SENSITIVE : r.key}"`).join(', ') + (users.length > 3 ? ` and ${users.length - 3} more` : '');
    problems.push({ path: `${change.kind}s[${change.key}]`, message: `refusing to delete ${change.kind} "${change.key}": still used by ${users[0]!.kind} ${names}` });
    changes.splice(i, 1);
  }
}

/**
 * Creates of what an object refers to come first; deletes of what an object referred to come after that object's
 * update or delete. A mute waits for its alert's create.
 */
function linkDependencies(changes: PlanChange[], uses: ReadonlyMap<string, { after?: References; before?: References }>): void {
  const byId = new Map(changes.map((c) => [c.id, c]));
  for (const change of changes) {
    const used = uses.get(change.id);
    forEachReference(used?.after, (kind, name) => {
      if (byId.has(stepId(kind, name, 'create'))) change.dependsOn.push(stepId(kind, name, 'create'));
    });
    forEachReference(used?.before, (kind, name) => byId.get(stepId(kind, name, 'delete'))?.dependsOn.push(change.id));
    if (change.action === 'mute' || change.action === 'unmute') {
      if (byId.has(stepId('alert', change.key, 'create'))) change.dependsOn.push(stepId('alert', change.key, 'create'));
    }
  }
}

/** Visits referenced names in the order the adapter lists them (that order is kept in `dependsOn`). */
function forEachReference(references: References | undefined, visit: (kind: ResourceKind, name: string) => void): void {
  for (const { kind, names } of references ?? []) for (const name of names) visit(kind, name);
}

/** Creates and updates (schedules, channels, alerts), then mutes, then deletes (alerts, channels, schedules). */
function compareChanges(a: PlanChange, b: PlanChange): number {
  const phase = (c: PlanChange) => (c.action === 'delete' ? 2 : c.action === 'mute' || c.action === 'unmute' ? 1 : 0);
  const order = (c: PlanChange) => RESOURCE_KINDS.indexOf(c.kind);
  const kindRank = (c: PlanChange) => (c.action === 'delete' ? -order(c) : order(c));
  return phase(a) - phase(b) || kindRank(a) - kindRank(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || (a.action < b.action ? -1 : 1);
}

function summarise(changes: PlanChange[], noOp: number, unmanaged: number): PlanSummary {
  const count = (action: PlanChange['action']) => changes.filter((c) => c.action === action).length;
  return { create: count('create'), update: count('update'), mute: count('mute'), unmute: count('unmute'), delete: count('delete'), noOp, unmanaged };
}
