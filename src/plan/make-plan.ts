import type { AlertformClient } from '../client/api.js';
import type { Definitions } from '../definitions/definitions.js';
import type { PruneConfig } from '../definitions/project.js';
import { computePlan } from './compute.js';
import { readActualState, type ActualState, type ServerLists } from './state.js';
import type { Plan } from './types.js';

/** The names of alerts whose definitions keep them muted until a time: only their remaining minutes are read. */
export function alertsMutedUntil(definitions: Definitions): Set<string> {
  return new Set(definitions.alerts.filter((a) => a.spec.muted && typeof a.spec.muted === 'object').map((a) => a.key));
}

/** The I/O shell around computePlan: reads the server's state (or the rest of it, given `lists`), then plans against it. */
export async function planAgainstServer(
  definitions: Definitions,
  client: AlertformClient,
  options: { prune?: PruneConfig | false; allowDeletes?: number; now?: Date; lists?: ServerLists } = {},
): Promise<{ plan: Plan; actual: ActualState }> {
  const actual = await readActualState(client, alertsMutedUntil(definitions), options.lists);
  const plan = computePlan(definitions, actual, options.now ?? new Date(), {
    prune: options.prune ?? false,
    ...(options.allowDeletes !== undefined ? { allowDeletes: options.allowDeletes } : {}),
  });
  return { plan, actual };
}
