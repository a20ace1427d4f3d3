import type { Definitions, ResourceKind } from '../definitions/definitions.js';
import type { Plan, PlanChange } from '../plan/types.js';
import { SENSITIVE } from './placeholder.js';
import { valuesAtSensitivePaths } from './paths.js';
import { Redactor } from './redactor.js';

/** The field that holds each kind's identity (the plan's `key`). */
export const KEY_FIELDS: Readonly<Record<ResourceKind, string>> = { alert: 'name', schedule: 'name', channel: 'description', 'maintenance window': 'name' };

/** True when the change's identity came from the environment (`name: ${VAR}`): it is never printed. */
export function isKeySensitive(change: Pick<PlanChange, 'kind' | 'sensitive'>): boolean {
  return change.sensitive.includes(KEY_FIELDS[change.kind]);
}

/** The change's identity as it may be printed: change headers, JSON keys and ids, saved plans, apply progress. */
export function displayKey(change: Pick<PlanChange, 'kind' | 'key' | 'sensitive'>): string {
  return isKeySensitive(change) ? SENSITIVE : change.key;
}

/** The step id as it may be printed: `alert:(sensitive):create` when the name is a secret. */
export function displayStepId(change: Pick<PlanChange, 'id' | 'kind' | 'key' | 'sensitive' | 'action'>): string {
  return isKeySensitive(change) ? `${change.kind}:${SENSITIVE}:${change.action}` : change.id;
}

/** The secret values a change carries: its sensitive fields, before and after, and its key when that is secret. */
export function secretValuesOfChange(change: PlanChange): string[] {
  const values = isKeySensitive(change) ? [change.key] : [];
  if ('after' in change) values.push(...valuesAtSensitivePaths(change, change.after));
  if ('before' in change) values.push(...valuesAtSensitivePaths(change, change.before));
  return values;
}

/** A redactor for one change's secrets (an apply error names only its own change's values). */
export function redactorForChange(change: PlanChange): Redactor {
  return new Redactor(secretValuesOfChange(change));
}

/** Redactors already built, per plan: the Action renders one plan several times (comment, summary, JSON). */
const PLAN_REDACTORS = new WeakMap<Plan, { changes: number; redactor: Redactor }>();

/** A redactor for every secret value a plan carries: the net under the renderers' structural masking. */
export function redactorForPlan(plan: Plan): Redactor {
  const cached = PLAN_REDACTORS.get(plan);
  if (cached && cached.changes === plan.changes.length) return cached.redactor;
  const redactor = new Redactor(plan.changes.flatMap(secretValuesOfChange));
  PLAN_REDACTORS.set(plan, { changes: plan.changes.length, redactor });
  return redactor;
}

/**
 * Every value the definitions took from the environment, no-ops included: what a saved plan's list of server
 * objects must not show either (an alert whose name is a secret and that did not change is still listed there).
 */
export function secretValuesOfDefinitions(definitions: Definitions): string[] {
  return [...definitions.schedules, ...definitions.channels, ...definitions.alerts].flatMap((item) =>
    valuesAtSensitivePaths({ sensitive: item.sensitivePaths }, item.spec),
  );
}
