import { writeFile } from 'node:fs/promises';
import { simpleGit } from 'simple-git';
import { formatMarker } from '../../action/comment.js';
import { composeErrorComment, composeInvalidComment, composePlanComment, renderChangedFiles } from '../../action/compose.js';
import { listChangedFiles } from '../../action/changed-files.js';
import { runRuleTestsForAction, type RuleTestsOutcome } from '../../action/run-rule-tests.js';
import type { Problem } from '../../definitions/problems.js';
import { fingerprintPlan } from '../../plan/fingerprint.js';
import type { Plan } from '../../plan/types.js';
import type { ImpactOutcome } from '../../impact/types.js';
import type { Redactor } from '../../redact/index.js';

/**
 * The comment the Action posts, for any other CI: the same composition (src/action/compose.ts), the same hidden
 * marker (so `alertform comment` finds and updates it), the rule tests and, with a base revision, the changed-files
 * table. Never cut here: the poster cuts to its own host's limit.
 */
export async function composeCliPlanComment(options: {
  dir: string;
  plan: Plan;
  /** The backtest, carried beside the plan. */
  impact?: ImpactOutcome;
  changedSince?: string;
  tests?: RuleTestsOutcome;
}): Promise<string> {
  const cwd = process.cwd();
  const hash = fingerprintPlan(options.plan);
  let changedFiles: string | undefined;
  if (options.changedSince) {
    const changed = await listChangedFiles(cwd, options.changedSince, 'HEAD');
    changedFiles = renderChangedFiles(changed, options.plan.changes, cwd);
  }
  const sha = await commitOf(cwd);
  return composePlanComment({
    marker: formatMarker({ hash, path: options.dir }),
    path: options.dir,
    plan: options.plan,
    ...(options.impact ? { impact: options.impact } : {}),
    hash,
    ...(changedFiles ? { changedFiles } : {}),
    ...(options.tests ? { ruleTests: options.tests.markdown } : {}),
    ...(sha ? { sha } : {}),
  });
}

/** The commit the footer names, as the Action's does: the checkout's HEAD, when there is one. */
async function commitOf(cwd: string): Promise<string | undefined> {
  try {
    return (await simpleGit({ baseDir: cwd }).revparse(['HEAD'])).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The rule tests as the Action runs them with every plan (undefined when the directory has none). */
export function runRuleTestsForComment(dir: string): Promise<RuleTestsOutcome | undefined> {
  return runRuleTestsForAction(dir, process.cwd(), process.env);
}

export function composeCliInvalidComment(dir: string, problems: readonly Problem[]): string {
  return composeInvalidComment({ marker: formatMarker({ hash: 'invalid', path: dir }), path: dir, problems });
}

export function composeCliErrorComment(dir: string, message: string): string {
  return composeErrorComment({ marker: formatMarker({ hash: 'error', path: dir }), path: dir, message });
}

/** Writes a comment to a file, masked; `-` is stdout's business, not this function's. */
export async function writeComment(file: string, body: string, redactor: Redactor): Promise<void> {
  await writeFile(file, `${redactor.redact(body)}\n`);
}
