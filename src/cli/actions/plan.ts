import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { planProject } from '../../plan/plan-project.js';
import { renderPlanText } from '../../plan/render/text.js';
import { renderPlanJson } from '../../plan/render/json.js';
import { createSavedPlan } from '../../plan/saved.js';
import { secretValuesOfDefinitions } from '../../redact/index.js';
import { CliError } from '../errors.js';
import { attachImpact, DEFAULT_IMPACT_WINDOW, resolveGraphiteUrl } from '../../impact/attach-impact.js';
import { parseDuration } from '../../impact/duration.js';
import { failWithProblems, optionsOf, serverRequestOf, useColor, writeOut } from '../context.js';
import { writeJsonText } from '../json-output.js';

interface PlanOptions {
  out?: string;
  detailedExitcode?: boolean;
  ref?: string;
  allowDeletes?: number;
  graphiteUrl?: string;
  impact?: boolean;
  impactWindow?: string;
  maxSeries?: number;
}

/** `plan`: loaded lazily so other commands start fast. */
export async function runPlan(dir: string, command: Command): Promise<void> {
  const opts = optionsOf<PlanOptions>(command);
  let graphiteUrl: string | undefined;
  const result = await planProject({
    dir,
    server: serverRequestOf(opts),
    ...(opts.ref ? { ref: opts.ref } : {}),
    ...(opts.allowDeletes !== undefined ? { allowDeletes: opts.allowDeletes } : {}),
    // Flag mistakes are told before the server is asked anything.
    beforeRead: (loaded) => {
      graphiteUrl = resolveGraphiteUrl(opts.graphiteUrl, loaded.config, process.env);
      if (opts.impact && !graphiteUrl) throw new CliError('--impact needs a Graphite: pass --graphite-url URL, set ALERTFORM_GRAPHITE_URL, or write `graphite:` in alertform.yaml');
      try {
        parseDuration(opts.impactWindow ?? DEFAULT_IMPACT_WINDOW);
      } catch (error) {
        throw new CliError(`--impact-window: ${(error as Error).message}`);
      }
    },
  });
  if (result.status === 'invalid') failWithProblems(result.problems);
  const { plan, actual } = result;
  if (graphiteUrl) {
    await attachImpact(plan, {
      graphiteUrl,
      window: opts.impactWindow ?? DEFAULT_IMPACT_WINDOW,
      definitions: result.loaded.definitions,
      actual,
      ...(opts.maxSeries !== undefined ? { maxSeries: opts.maxSeries } : {}),
    });
  }
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
