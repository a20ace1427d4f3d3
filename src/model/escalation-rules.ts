import type { FieldProblem } from './schemas.js';

/** The most steps an alert's escalation may have (the JSON Schemas say it too: maxItems). */
export const MAX_ESCALATION_STEPS = 10;
/** The latest a step may come: a week of alerting (schemas: maximum). */
export const MAX_ESCALATION_MINUTES = 10_080;

/**
 * Escalation steps must come strictly later one after another: a step names its place in the chain by its `after`,
 * so two at the same minute, or one earlier than the step before, is a mistake in the chain, never an intent.
 * `afters` are minutes; `path` is the list's path (problems point at the step's `after_minutes`, or `pathOf`).
 */
export function checkEscalationOrder(
  afters: readonly number[],
  path: string,
  pathOf: (index: number) => string = (index) => `${path}.${index}.after_minutes`,
  show: (minutes: number) => string = (minutes) => `${minutes} minutes`,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  afters.forEach((after, index) => {
    const before = afters[index - 1];
    if (index > 0 && before !== undefined && after <= before) {
      problems.push({ path: pathOf(index), message: `steps must come strictly later one after another: ${show(after)} is not after the previous step's ${show(before)}` });
    }
  });
  return problems;
}
