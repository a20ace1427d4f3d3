import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as core from '@actions/core';
import type { Problem } from '../definitions/problems.js';
import { renderPlanJson } from '../plan/render/json.js';
import type { PlannedRun } from './port.js';
import type { SecretRedactor } from './secrets.js';

/** The file name of the JSON plan in RUNNER_TEMP (the example workflow uploads it as an artifact). */
export const PLAN_FILE_NAME = 'alertform-plan.json';

/** Sets the plan's outputs and writes its JSON into RUNNER_TEMP; returns the file's path. */
export function publishPlanOutputs(run: PlannedRun, redactor: SecretRedactor, env: NodeJS.ProcessEnv): string {
  const dir = env.RUNNER_TEMP || process.cwd();
  const file = join(dir, PLAN_FILE_NAME);
  writeFileSync(file, redactor.redact(renderPlanJson(run.plan, run.impact)));
  const counts = run.plan.summary;
  core.setOutput('has-changes', String(run.plan.changes.length > 0));
  core.setOutput('to-create', String(counts.create));
  core.setOutput('to-update', String(counts.update));
  core.setOutput('to-delete', String(counts.delete));
  core.setOutput('to-mute', String(counts.mute));
  core.setOutput('to-unmute', String(counts.unmute));
  core.setOutput('plan-hash', run.hash);
  core.setOutput('plan-file', file);
  return file;
}

/**
 * Appends markdown to the job summary when the runner provides one ($GITHUB_STEP_SUMMARY). Written directly rather
 * than through core.summary, which remembers the first file it saw for the life of the process.
 */
export async function appendJobSummary(markdown: string, redactor: SecretRedactor, env: NodeJS.ProcessEnv): Promise<void> {
  if (!env.GITHUB_STEP_SUMMARY) return;
  appendFileSync(env.GITHUB_STEP_SUMMARY, `${redactor.redact(markdown)}\n`);
}

/**
 * Each located problem as an error annotation, so GitHub shows it on the line in the PR's "Files changed" (it
 * shows only the first few per step, hence the cap).
 */
export function annotateProblems(problems: readonly Problem[], redactor: SecretRedactor): void {
  for (const problem of problems.slice(0, 50)) {
    if (!problem.location) continue;
    core.error(redactor.redact([problem.path, problem.message].filter(Boolean).join('  ')), {
      title: 'alertform',
      file: problem.location.file,
      startLine: problem.location.line,
      startColumn: problem.location.column,
    });
  }
}
