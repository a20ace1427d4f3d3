import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadProject } from '../../spec/source.js';
import { planAgainstServer } from '../../plan/make-plan.js';
import { renderPlanText } from '../../plan/render/text.js';
import { renderPlanJson } from '../../plan/render/json.js';
import { createSavedPlan } from '../../plan/saved.js';
import { CliError } from '../errors.js';
import { createClient, failOnProblems, optionsOf, parseCount, printableServer, useColor, writeOut } from '../context.js';

interface PlanOptions {
  out?: string;
  detailedExitcode?: boolean;
  ref?: string;
  allowDeletes?: number;
}

/** `alertform plan [DIR]`: what apply would change, read from one paginated list per kind. */
export function registerPlanCommand(program: Command): void {
  program
    .command('plan')
    .description('show what apply would create, change, mute and delete on the server')
    .argument('[dir]', 'definitions directory', '.')
    .option('--out <file>', 'save the plan (with fingerprints of the server objects read) for `apply FILE`')
    .option('--detailed-exitcode', 'exit 2 when there are changes (0 none, 1 error)')
    .option('--ref <gitref>', 'plan the definitions as they are at a git revision (work tree untouched)')
    .option('--allow-deletes <n>', 'allow up to N deletions (over prune.max_deletes)', parseCount)
    .addHelpText(
      'after',
      `
Examples:
  $ alertform plan examples/ --server http://KEY@127.0.0.1:8080
  $ ALERTFORM_URL=https://api.example.com ALERTFORM_API_KEY=... alertform plan . --out plan.json
  $ alertform plan . --json --detailed-exitcode       # exit 2 when something would change
  $ alertform plan . --ref origin/main                # the definitions at a git revision`,
    )
    .action(async (dir: string, _opts: unknown, command: Command) => {
      const opts = optionsOf<PlanOptions>(command);
      const loaded = await loadProject(dir, opts.ref ? { ref: opts.ref } : {});
      failOnProblems(loaded.problems);
      const client = createClient(opts, loaded.config);
      const { plan, actual } = await planAgainstServer(loaded.definitions, client, {
        prune: loaded.config.prune,
        ...(opts.allowDeletes !== undefined ? { allowDeletes: opts.allowDeletes } : {}),
      });
      await writeOut(opts.json ? renderPlanJson(plan) : renderPlanText(plan, { color: useColor(opts), verbose: opts.verbose === true }));
      if (plan.problems.length > 0) throw new CliError(`the plan has ${plan.problems.length} error(s) and cannot be applied`);
      if (opts.out) {
        const saved = createSavedPlan(plan, actual, { dir: resolve(dir), ...(opts.ref ? { ref: opts.ref } : {}), server: printableServer(opts, loaded.config) });
        await writeFile(opts.out, `${JSON.stringify(saved, null, 2)}\n`);
        if (!opts.json) process.stderr.write(`Saved the plan to ${opts.out}; apply it with: alertform apply ${opts.out}\n`);
      }
      if (opts.detailedExitcode && plan.changes.length > 0) throw new CliError('', 2);
    });
}
