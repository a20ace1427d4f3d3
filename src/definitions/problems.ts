/** Where something was written: a file and a 1-based line and column. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/**
 * A problem found in definitions or while planning, located when it can be. Expected problems are data, so a
 * command can print all of them at once instead of stopping at the first.
 */
export interface Problem {
  location?: SourceLocation;
  /** Dot path of the field inside its document, e.g. `alerts.0.alert_criteria.above_value`. */
  path: string;
  message: string;
}

/** `file:line:column  path  message`, the one format of every definitions error. */
export function formatProblem(problem: Problem): string {
  const where = problem.location
    ? `${problem.location.file}:${problem.location.line}:${problem.location.column}`
    : '(server)';
  return `${where}  ${problem.path || '.'}  ${problem.message}`;
}

/** Sorts problems by file, line and column so output is stable whatever order the rules ran in. */
export function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => {
    const fa = a.location?.file ?? '';
    const fb = b.location?.file ?? '';
    if (fa !== fb) return fa < fb ? -1 : 1;
    return (a.location?.line ?? 0) - (b.location?.line ?? 0) || (a.location?.column ?? 0) - (b.location?.column ?? 0);
  });
}
