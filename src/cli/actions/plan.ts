import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { planProject } from '../../plan/plan-project.js';
import { renderPlanText } from '../../plan/render/text.js';
import { renderPlanJson } from '../../plan/render/json.js';
import { createSavedPlan } from '../../plan/saved.js';
import { secretValuesOfDefinitions } from '../../redact/index.js';
import { CliError } from '../errors.js';
import { failOnProblems, optionsOf, serverRequestOf, useColor, writeOut } from '../context.js';
import { writeJsonText } from '../json-output.js';

interface PlanOptions {
  out?: string;
  detailedExitcode?: boolean;
  ref?: string;
  allowDeletes?: number;
}

/** `plan`: loaded lazily so other commands start fast. */
export async function runPlan(dir: string, command: Command): Promise<void> {
  const opts = optionsOf<PlanOptions>(command);
  const result = await planProject({
    dir,
    server: serverRequestOf(opts),
    ...(opts.ref ? { ref: opts.ref } : {}),
    ...(opts.allowDeletes !== undefined ? { allowDeletes: opts.allowDeletes } : {}),
  });
  if (result.status === 'invalid') failOnProblems(result.problems);
  const { plan, actual } = result;
  if (opts.json) await writeJsonText(renderPlanJson(plan));
  else await writeOut(renderPlanText(plan, { color: useColor(opts), verbose: opts.verbose === true }));
  if (plan.problems.length > 0) throw new CliError(`the plan has ${plan.problems.length} error(s) and cannot be applied`);
  if (opts.out) {
    const saved = createSavedPlan(plan, actual, {
      dir: resolve(dir),
      ...(opts.ref ? { ref: opts.ref } : {}),
      server: result.server,
      secrets: secretValuesOfDefinitions(result.loaded.definitions),
    });
    await writeFile(opts.out, `${JSON.stringify(saved, null, 2)}\n`);
    if (!opts.json) process.stderr.write(`Saved the plan to ${opts.out}; apply it with: alertform apply ${opts.out}\n`);
  }
  if (opts.detailedExitcode && plan.changes.length > 0) throw new CliError('', 2);
}
