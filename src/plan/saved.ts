import { RESOURCE_KINDS, type ResourceKind } from '../definitions/definitions.js';
import { adapterFor, readsOf } from './adapters/registry.js';
import type { ActualState } from './state.js';
import type { Plan } from './types.js';
import { fingerprintPlan, sha256, stableStringify } from './fingerprint.js';
import { toJsonPlan, type JsonPlan } from './render/json.js';
import type { ImpactOutcome } from '../impact/types.js';
import { Redactor, secretValuesOfChange } from '../redact/index.js';
import { AlertformError } from '../model/errors.js';

/** A fingerprint of one object the plan read from the server. */
export interface RemoteFingerprint {
  kind: ResourceKind;
  id: string;
  key: string;
  fingerprint: string;
}

/**
 * A plan saved by `plan --out`: the masked plan to show, its fingerprint, where the definitions came from, and a
 * fingerprint of every server object read. Secrets are never written: apply recomputes the plan from the same
 * definitions and applies it only when its fingerprint matches and no server object changed.
 */
export interface SavedPlan {
  kind: 'alertform-plan';
  formatVersion: 1;
  fingerprint: string;
  definitions: { dir: string; ref?: string };
  server: string;
  plan: JsonPlan;
  remote: RemoteFingerprint[];
}

/** Fields that move by themselves (evaluation, delivery, other objects' changes) and say nothing about staleness. */
const VOLATILE = new Set(['status', 'currently_triggered_metrics', 'acknowledgement', 'last_error', 'pending_deliveries', 'oldest_pending_seconds', 'alerts']);

function fingerprintObject(read: object): string {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(read)) if (!VOLATILE.has(k)) rest[k] = v;
  return sha256(stableStringify(rest));
}

/** Fingerprints of every object in a server state. */
export function fingerprintState(actual: ActualState): RemoteFingerprint[] {
  return RESOURCE_KINDS.flatMap((kind) => fingerprintKind(kind, actual));
}

function fingerprintKind<K extends ResourceKind>(kind: K, actual: ActualState): RemoteFingerprint[] {
  const adapter = adapterFor(kind);
  return readsOf(actual, kind).map((read) => ({ kind, id: adapter.idOf(read), key: adapter.keyOf(read), fingerprint: fingerprintObject(read) }));
}

/**
 * The saved form of a plan. `source.secrets` are the values the definitions took from the environment
 * (secretValuesOfDefinitions): the names of the server objects read are listed with those replaced, so a name that
 * is a secret is not written even when its object did not change.
 */
export function createSavedPlan(
  plan: Plan,
  actual: ActualState,
  source: { dir: string; ref?: string; server: string; secrets?: Iterable<string> },
  impact?: ImpactOutcome,
): SavedPlan {
  const redactor = new Redactor(source.secrets ?? []);
  for (const value of plan.changes.flatMap(secretValuesOfChange)) redactor.add(value);
  return {
    kind: 'alertform-plan',
    formatVersion: 1,
    fingerprint: fingerprintPlan(plan),
    definitions: { dir: source.dir, ...(source.ref ? { ref: source.ref } : {}) },
    server: source.server,
    plan: toJsonPlan(plan, impact),
    remote: fingerprintState(actual).map((r) => ({ ...r, key: redactor.redact(r.key) })),
  };
}

/**
 * Why a saved plan no longer applies: server objects changed, appeared or went since it was saved. Empty = fresh.
 * `secrets` (secretValuesOfDefinitions) keep a secret name of an object that appeared out of the reasons.
 */
export function findStaleness(saved: SavedPlan, actual: ActualState, secrets: Iterable<string> = []): string[] {
  const redactor = new Redactor(secrets);
  const reasons: string[] = [];
  const now = new Map(fingerprintState(actual).map((r) => [`${r.kind}:${r.id}`, r]));
  for (const before of saved.remote) {
    const current = now.get(`${before.kind}:${before.id}`);
    if (!current) reasons.push(`${before.kind} "${before.key}" was deleted`);
    else if (current.fingerprint !== before.fingerprint) reasons.push(`${before.kind} "${before.key}" changed`);
    now.delete(`${before.kind}:${before.id}`);
  }
  for (const added of now.values()) reasons.push(`${added.kind} "${redactor.redact(added.key)}" appeared`);
  return reasons;
}

/** Reads and checks the shape of a saved plan file's JSON. */
export function parseSavedPlan(text: string): SavedPlan {
  const value: unknown = JSON.parse(text);
  if (!isSavedPlan(value)) throw new AlertformError('invalid_plan_file', 'not an alertform plan file (write one with `alertform plan --out FILE`)');
  return value;
}

/** The shape checks of a saved plan: its kind, format version, fingerprint and list of server objects. */
function isSavedPlan(value: unknown): value is SavedPlan {
  if (typeof value !== 'object' || value === null) return false;
  const plan: Partial<Record<keyof SavedPlan, unknown>> = value;
  return plan.kind === 'alertform-plan' && plan.formatVersion === 1 && typeof plan.fingerprint === 'string' && Array.isArray(plan.remote);
}
