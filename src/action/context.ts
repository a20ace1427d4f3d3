import type { EventContext } from './event.js';
import type { ActionInputs } from './inputs.js';
import type { PlanRequest, Reconciler } from './port.js';
import type { SecretRedactor } from './secrets.js';

/** Everything one run of the Action works with, built once by the entry. */
export interface ActionContext {
  inputs: ActionInputs;
  event: EventContext;
  env: NodeJS.ProcessEnv;
  /** The workspace (the runner starts the Action there). */
  cwd: string;
  /** The definitions directory, resolved. */
  dir: string;
  redactor: SecretRedactor;
  reconciler: Reconciler;
}

/** The reconciler's request for this run's inputs. */
export function planRequestOf(ctx: ActionContext): PlanRequest {
  const { inputs } = ctx;
  return {
    dir: ctx.dir,
    cwd: ctx.cwd,
    serverUrl: inputs.serverUrl,
    apiKey: inputs.apiKey,
    prune: inputs.prune,
    graphiteUrl: inputs.graphiteUrl,
    impactWindow: inputs.impactWindow,
    impact: inputs.command === 'plan',
    env: ctx.env,
  };
}
