import type { AlertformClient } from '../client/api.js';
import type { Definitions } from '../definitions/definitions.js';
import type { PruneConfig } from '../definitions/project.js';
import { computePlan } from './compute.js';
import { readActualState, type ActualState } from './state.js';
import type { Plan } from './types.js';

/** The names of alerts whose definitions keep them muted until a time: only their remaining minutes are read. */
export function alertsMutedUntil(definitions: Definitions): Set<string> {
  return new Set(definitions.alerts.filter((a) => a.spec.muted && typeof a.spec.muted === 'object').map((a) => a.key));
}

/** The I/O shell around computePlan: reads the server's state, then plans against it. */
export async function planAgainstServer(
  definitions: Definitions,
  client: AlertformClient,
  options: { prune?: PruneConfig | false; allowDeletes?: number; now?: Date } = {},
): Promise<{ plan: Plan; actual: ActualState }> {
  const actual = await readActualState(client, alertsMutedUntil(definitions));
  const plan = computePlan(definitions, actual, options.now ?? new Date(), {
    prune: options.prune ?? false,
    ...(options.allowDeletes !== undefined ? { allowDeletes: options.allowDeletes } : {}),
  });
  return { plan, actual };
}
