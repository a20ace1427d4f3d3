import { readFile, stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { confirm } from '@inquirer/prompts';
import { planProject } from '../../plan/plan-project.js';
import { renderPlanText } from '../../plan/render/text.js';
import { toJsonPlan } from '../../plan/render/json.js';
import { fingerprintPlan } from '../../plan/fingerprint.js';
import { findStaleness, parseSavedPlan, type SavedPlan } from '../../plan/saved.js';
import { secretValuesOfDefinitions } from '../../redact/index.js';
import { applyPlan } from '../../apply/run.js';
import { applyResultJson, renderApplySummary, renderProgressLine } from '../../apply/progress.js';
import { CliError } from '../errors.js';
import { failWithProblems, optionsOf, serverRequestOf, useColor, writeOut } from '../context.js';
import { writeJson } from '../json-output.js';
import { showReadProgress } from '../terminal-progress.js';

interface ApplyOptions {
  autoApprove?: boolean;
  allowDeletes?: number;
  concurrency?: number;
}

/** `apply`: loaded lazily so other commands start fast. */
export async function runApply(target: string, command: Command): Promise<void> {
  const opts = optionsOf<ApplyOptions>(command);
  const isPlanFile = (await stat(target).catch(() => undefined))?.isFile() === true;
  const saved = isPlanFile ? parseSavedPlan(await readFile(target, 'utf8')) : undefined;
  const dir = saved ? saved.definitions.dir : target;
  const ref = saved?.definitions.ref;
  const progress = showReadProgress();
  const planned = await planProject({
    dir,
    server: serverRequestOf(opts),
    reportRead: progress.report,
    ...(ref ? { ref } : {}),
    ...(opts.allowDeletes !== undefined ? { allowDeletes: opts.allowDeletes } : {}),
  }).finally(progress.stop);
  if (planned.status === 'invalid') failWithProblems(planned.problems);
  const { plan, actual, client } = planned;
  if (saved) refuseStale(saved, findStaleness(saved, actual, secretValuesOfDefinitions(planned.loaded.definitions)), fingerprintPlan(plan));
  const color = useColor(opts);
  if (!opts.json && !saved) await writeOut(renderPlanText(plan, { color, verbose: opts.verbose === true }));
  if (plan.problems.length > 0) {
    if (opts.json) await writeJson({ plan: toJsonPlan(plan) });
    throw new CliError(`the plan has ${plan.problems.length} error(s); nothing was applied`);
  }
  if (plan.changes.length === 0) {
    if (opts.json) await writeJson({ plan: toJsonPlan(plan), result: { done: [], failed: [], skipped: [] } });
    else await writeOut('Nothing to apply.\n');
    return;
  }
  // A saved plan was reviewed when it was made; otherwise a person confirms, or CI says --auto-approve.
  if (!saved && !opts.autoApprove) {
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      throw new CliError('refusing to apply without confirmation: not on a terminal; pass --auto-approve');
    }
    if (!(await confirm({ message: 'Apply these changes?', default: false }))) throw new CliError('Apply cancelled.');
  }
  // Each finished step says where the apply is: `[3/12] ✓ create alert "cpu" (42 ms)`.
  let finished = 0;
  const total = plan.changes.length;
  const result = await applyPlan(plan, actual, client, {
    concurrency: opts.concurrency ?? 8,
    onEvent: opts.json ? undefined : (event) => process.stdout.write(`${renderProgressLine(event, { n: ++finished, total })}\n`),
  });
  const line = renderApplySummary(result);
  if (opts.json) await writeJson({ plan: toJsonPlan(plan), result: applyResultJson(result) });
  else await writeOut(`${line}\n`);
  if (result.failed.length > 0 || result.skipped.length > 0) throw new CliError(opts.json ? line : 'some steps did not apply; run apply again to converge');
}


function refuseStale(saved: SavedPlan, reasons: string[], freshFingerprint: string): void {
  if (reasons.length > 0) {
    const shown = reasons.slice(0, 5).join('; ') + (reasons.length > 5 ? `; and ${reasons.length - 5} more` : '');
    throw new CliError(`plan is stale: the server changed since it was saved (${shown}); run plan again`);
  }
  if (freshFingerprint !== saved.fingerprint) {
    throw new CliError('plan is stale: the definitions or environment now give a different plan; run plan again');
  }
}
