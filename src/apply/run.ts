import type { AlertformClient } from '../client/api.js';
import { RESOURCE_KINDS, type ResourceKind } from '../definitions/definitions.js';
import { MAX_MUTE_MINUTES } from '../model/defaults.js';
import { adapterFor, readsOf } from '../plan/adapters/registry.js';
import { IdRegistry } from '../plan/references.js';
import type { ActualState } from '../plan/state.js';
import type { CreateOf, Plan, PlanChange, UpdateOf } from '../plan/types.js';
import { AlertformError } from '../model/errors.js';
import { displayStepId } from '../redact/index.js';

/** What happened to one step, as it happens. */
export type ApplyEvent =
  | { type: 'done'; change: PlanChange; ms: number }
  | { type: 'failed'; change: PlanChange; error: Error }
  | { type: 'skipped'; change: PlanChange; reason: string };

export interface ApplyOptions {
  /** Steps in flight at once (default 8). */
  concurrency?: number;
  onEvent?: (event: ApplyEvent) => void;
}

/** The outcome of a run: every step is in exactly one of the three lists. */
export interface ApplyResult {
  done: PlanChange[];
  failed: { change: PlanChange; error: Error }[];
  skipped: { change: PlanChange; reason: string }[];
}

/** Ids of what the server has, so that names in the plan become ids in request bodies. */
export function registryFromState(actual: ActualState): IdRegistry {
  const ids = new IdRegistry();
  const register = <K extends ResourceKind>(kind: K) => {
    const adapter = adapterFor(kind);
    for (const read of readsOf(actual, kind)) ids.set(kind, adapter.keyOf(read), adapter.idOf(read));
  };
  RESOURCE_KINDS.forEach(register);
  return ids;
}

/**
 * Runs a plan's steps in its order with bounded concurrency. A step starts once every step it depends on is done;
 * when one of those failed or was skipped, it is skipped. A failure never stops independent steps, and running
 * apply again converges (creates check by name, deletes of what is gone count as done).
 */
export async function applyPlan(plan: Plan, actual: ActualState, client: AlertformClient, options: ApplyOptions = {}): Promise<ApplyResult> {
  if (plan.problems.length > 0) throw new AlertformError('plan_has_problems', 'a plan with errors cannot be applied');
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const ids = registryFromState(actual);
  const result: ApplyResult = { done: [], failed: [], skipped: [] };
  const state = new Map<string, 'pending' | 'running' | 'done' | 'failed' | 'skipped'>(plan.changes.map((c) => [c.id, 'pending']));
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  const emit = (event: ApplyEvent) => options.onEvent?.(event);

  return new Promise<ApplyResult>((resolve) => {
    let running = 0;
    const pump = () => {
      for (const change of plan.changes) {
        if (running >= concurrency) break;
        if (state.get(change.id) !== 'pending') continue;
        const deps = change.dependsOn.map((id) => [id, state.get(id)] as const);
        const blocked = deps.find(([, s]) => s === 'failed' || s === 'skipped');
        if (blocked) {
          state.set(change.id, 'skipped');
          // The reason is printed: it names the step by its printable id (a secret name stays hidden).
          const blocker = byId.get(blocked[0]);
          const reason = `${blocker ? displayStepId(blocker) : blocked[0]} ${blocked[1] === 'failed' ? 'failed' : 'was skipped'}`;
          result.skipped.push({ change, reason });
          emit({ type: 'skipped', change, reason });
          continue;
        }
        if (deps.some(([, s]) => s !== 'done' && s !== undefined)) continue;
        state.set(change.id, 'running');
        running += 1;
        const started = Date.now();
        runStep(change, ids, client).then(
          () => {
            state.set(change.id, 'done');
            result.done.push(change);
            emit({ type: 'done', change, ms: Date.now() - started });
          },
          (error: unknown) => {
            state.set(change.id, 'failed');
            const err = error instanceof Error ? error : new Error(String(error));
            result.failed.push({ change, error: err });
            emit({ type: 'failed', change, error: err });
          },
        ).finally(() => {
          running -= 1;
          pump();
        });
      }
      if (running > 0) return;
      // Nothing runs and nothing can start: whatever still waits has a dependency cycle; skip it rather than hang.
      for (const change of plan.changes) {
        if (state.get(change.id) !== 'pending') continue;
        state.set(change.id, 'skipped');
        result.skipped.push({ change, reason: 'waits on a step that never ran' });
        emit({ type: 'skipped', change, reason: 'waits on a step that never ran' });
      }
      resolve(result);
    };
    pump();
  });
}

/** One step: the adapter's call for a create, update or delete; the mute endpoints for mutes. */
async function runStep(change: PlanChange, ids: IdRegistry, client: AlertformClient): Promise<void> {
  switch (change.action) {
    case 'create':
      return createResource(change, ids, client);
    case 'update':
      return updateResource(change, ids, client);
    case 'delete':
      return adapterFor(change.kind).remove(client, change.remoteId);
    case 'mute': {
      // Minutes from now, not from when the plan was made: a saved plan may be applied later.
      const minutes = Math.max(1, Math.ceil((Date.parse(change.until) - Date.now()) / 60_000));
      await client.muteAlert(change.remoteId ?? ids.require('alert', change.key), Math.min(minutes, MAX_MUTE_MINUTES));
      return;
    }
    case 'unmute':
      await client.unmuteAlert(change.remoteId);
  }
}

async function createResource<K extends ResourceKind>(change: CreateOf<K>, ids: IdRegistry, client: AlertformClient): Promise<void> {
  const adapter = adapterFor(change.kind);
  const id = await adapter.create(client, adapter.createBody(change.after, ids));
  ids.set(change.kind, change.key, id);
}

/** Sends only the top-level fields that differ. */
async function updateResource<K extends ResourceKind>(change: UpdateOf<K>, ids: IdRegistry, client: AlertformClient): Promise<void> {
  const adapter = adapterFor(change.kind);
  const fields = [...new Set(change.diffs.map((d) => d.path.split('.')[0]!))];
  await adapter.update(client, change.remoteId, adapter.updateBody(change.after, ids, fields));
}
