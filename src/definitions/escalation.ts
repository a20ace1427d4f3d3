import { durationMs } from '../model/duration.js';
import { MAX_ESCALATION_MINUTES, checkEscalationOrder } from '../model/escalation-rules.js';
import type { AlertDefinition, Defined, DefinedPolicy, Definitions, EscalationStepDefinition } from './definitions.js';
import type { Problem } from './problems.js';

/**
 * Escalation in definitions: each step's `after` in whole minutes and the steps strictly ascending (checked once
 * where they were written: inline on the alert, or on the policy), then every alert that names a policy gets that
 * policy's steps in place of the name, and points its problems (an unknown channel at plan time) into the policy.
 * An unknown policy name is a problem on the alert's `escalation`. Duplicate policy names are reported with the
 * other duplicates (rules.ts).
 */
export function expandEscalationPolicies(definitions: Definitions): Problem[] {
  const problems: Problem[] = [];
  const policies = new Map<string, DefinedPolicy>();
  for (const policy of definitions.escalationPolicies ?? []) {
    if (!policies.has(policy.key)) policies.set(policy.key, policy);
    problems.push(...checkSteps(policy, policy.spec.steps, 'steps'));
  }
  for (const alert of definitions.alerts) {
    const escalation = alert.spec.escalation;
    if (escalation === undefined) continue;
    if (typeof escalation !== 'string') {
      problems.push(...checkSteps(alert, escalation, 'escalation'));
      continue;
    }
    const policy = policies.get(escalation);
    if (!policy) {
      const known = [...policies.keys()];
      const hint = known.length > 0 ? ` (policies: ${known.join(', ')})` : ' (escalation_policies: defines none)';
      problems.push({ location: alert.locate('escalation'), path: `${alert.path}.escalation`, message: `no escalation policy named "${escalation}"${hint}` });
      alert.spec.escalation = [];
      continue;
    }
    expandInto(alert, policy);
  }
  return problems;
}

/** Replaces the alert's policy name by the policy's steps; a problem inside them points into the policy. */
function expandInto(alert: Defined<AlertDefinition>, policy: DefinedPolicy): void {
  alert.spec.escalation = policy.spec.steps.map((step) => ({ after: step.after, notify: [...step.notify] }));
  // Bound: the loader's items locate through a method of their class.
  const locateInAlert = alert.locate.bind(alert);
  alert.locate = (path: string) => {
    const match = /^escalation\.(\d+)(.*)$/.exec(path);
    return match ? policy.locate(`steps.${match[1]}${match[2]}`) : locateInAlert(path);
  };
}

/** Whole minutes of a step's `after`, or undefined when it is not a duration of whole minutes. */
export function stepMinutes(after: string | number): number | undefined {
  const ms = durationMs(String(after));
  if (ms === undefined || ms % 60_000 !== 0) return undefined;
  return ms / 60_000;
}

function checkSteps(item: Pick<Defined<unknown>, 'path' | 'locate'>, steps: EscalationStepDefinition[], path: string): Problem[] {
  const problems: Problem[] = [];
  const at = (where: string, message: string) => problems.push({ location: item.locate(where), path: `${item.path}.${where}`, message });
  const minutes: number[] = [];
  steps.forEach((step, index) => {
    const value = stepMinutes(step.after);
    if (value === undefined || value > MAX_ESCALATION_MINUTES) {
      const bare = typeof step.after === 'number' || /^\s*\d+(\.\d+)?\s*$/.test(step.after) ? ' (a bare number is seconds)' : '';
      at(`${path}.${index}.after`, `must be a duration of whole minutes from 1m to 7d (e.g. 15m, 1h), not ${JSON.stringify(step.after)}${bare}`);
    } else {
      minutes.push(value);
    }
  });
  if (minutes.length !== steps.length) return problems;
  for (const problem of checkEscalationOrder(minutes, path, (index) => `${path}.${index}.after`, (m) => `${m}m`)) at(problem.path, problem.message);
  return problems;
}
