import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { planProject } from '../../plan/plan-project.js';
import { renderPlanText } from '../../plan/render/text.js';
import { renderPlanJson } from '../../plan/render/json.js';
import { createSavedPlan } from '../../plan/saved.js';
import { secretValuesOfDefinitions } from '../../redact/index.js';
import { CliError } from '../errors.js';
import { backtestPlan, DEFAULT_IMPACT_WINDOW, resolveGraphiteUrl } from '../../impact/backtest-plan.js';
import { parseDurationSeconds } from '../../impact/duration.js';
import { failWithProblems, optionsOf, serverRequestOf, useColor, writeOut } from '../context.js';
import type { GlobalOptions } from '../program.js';
import { writeJsonText } from '../json-output.js';
import { showReadProgress } from '../terminal-progress.js';
import type { ReadReporter } from '../../progress/reads.js';
import { Redactor, secretsInUrl } from '../../redact/index.js';

interface PlanOptions {
  out?: string;
  detailedExitcode?: boolean;
  ref?: string;
  allowDeletes?: number;
  graphiteUrl?: string;
  impact?: boolean;
  impactWindow?: string;
  maxSeries?: number;
  format?: string;
  outComment?: string;
  changedSince?: string;
}

const FORMATS = ['text', 'json', 'markdown'] as const;

/** `plan`: loaded lazily so other commands start fast. */
export async function runPlan(dir: string, command: Command): Promise<void> {
  const opts = optionsOf<PlanOptions>(command);
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  if (!(FORMATS as readonly string[]).includes(format)) throw new CliError(`--format must be one of ${FORMATS.join(', ')}, not "${format}"`);
  const wantsComment = format === 'markdown' || opts.outComment !== undefined;
  // What the comment may never show, whatever went wrong: the key, URL credentials, interpolated values.
  const redactor = new Redactor([opts.apiKey, process.env.ALERTFORM_API_KEY, ...secretsInUrl(opts.server), ...secretsInUrl(process.env.ALERTFORM_URL)]);
  // The comment's modules (the Action's composition, git, the rule tests) load only when a comment is asked for.
  const comments = wantsComment ? await import('./plan-comment.js') : undefined;
  // The comment of a failed plan is written too: a CI job posts it, so the author reads why where they review.
  const emitComment = async (body: string) => {
    const { writeComment } = comments!;
    if (opts.outComment) await writeComment(opts.outComment, body, redactor);
    if (format === 'markdown') await writeOut(`${redactor.redact(body)}\n`);
  };
  // A status line on stderr while the server and Graphite are read, on a terminal only.
  const progress = showReadProgress();
  let result;
  try {
    result = await planWith(dir, opts, progress.report);
  } catch (error) {
    progress.stop();
    if (comments && !(error instanceof CliError)) await emitComment(comments.composeCliErrorComment(dir, redactor.redact((error as Error).message ?? String(error))));
    throw error;
  }
  if (result.status === 'invalid') {
    progress.stop();
    if (comments) await emitComment(comments.composeCliInvalidComment(dir, result.problems));
    failWithProblems(result.problems);
  }
  const { plan, actual, graphiteUrl } = result;
  // The backtest travels beside the plan; its problems (a query Graphite rejects) stop the plan as the plan's own do.
  let impact;
  if (graphiteUrl) {
    impact = await backtestPlan(plan, {
      graphiteUrl,
      window: opts.impactWindow ?? DEFAULT_IMPACT_WINDOW,
      definitions: result.loaded.definitions,
      actual,
      ...(opts.maxSeries !== undefined ? { maxSeries: opts.maxSeries } : {}),
      reportRead: progress.report,
    }).finally(progress.stop);
  }
  progress.stop();
  for (const secret of secretValuesOfDefinitions(result.loaded.definitions)) redactor.add(secret);
  const problems = [...plan.problems, ...(impact?.problems ?? [])];
  if (comments) {
    const tests = problems.length > 0 ? undefined : await comments.runRuleTestsForComment(dir);
    const body =
      problems.length > 0
        ? comments.composeCliInvalidComment(dir, problems)
        : await comments.composeCliPlanComment({
            dir,
            plan,
            ...(impact ? { impact } : {}),
            ...(opts.changedSince ? { changedSince: opts.changedSince } : {}),
            ...(tests ? { tests } : {}),
          });
    await emitComment(body);
  }
  if (format === 'json') await writeJsonText(renderPlanJson(plan, impact));
  else if (format === 'text') await writeOut(renderPlanText(plan, { color: useColor(opts), verbose: opts.verbose === true, ...(impact ? { impact } : {}) }));
  if (problems.length > 0) throw new CliError(`the plan has ${problems.length} error(s) and cannot be applied`);
  if (opts.out) {
    const saved = createSavedPlan(
      plan,
      actual,
      {
        dir: resolve(dir),
        ...(opts.ref ? { ref: opts.ref } : {}),
        server: result.server,
        secrets: secretValuesOfDefinitions(result.loaded.definitions),
      },
      impact,
    );
    await writeFile(opts.out, `${JSON.stringify(saved, null, 2)}\n`);
    if (format === 'text') process.stderr.write(`Saved the plan to ${opts.out}; apply it with: alertform apply ${opts.out}\n`);
  }
  if (opts.outComment && format === 'text') process.stderr.write(`Wrote the plan comment to ${opts.outComment}\n`);
  if (opts.detailedExitcode && plan.changes.length > 0) throw new CliError('', 2);
}

/** Plans the project; the flags are checked once the definitions loaded, before the server is asked anything. */
async function planWith(dir: string, opts: PlanOptions & GlobalOptions, reportRead: ReadReporter) {
  let graphiteUrl: string | undefined;
  const result = await planProject({
    dir,
    server: serverRequestOf(opts),
    reportRead,
    ...(opts.ref ? { ref: opts.ref } : {}),
    ...(opts.allowDeletes !== undefined ? { allowDeletes: opts.allowDeletes } : {}),
    beforeRead: (loaded) => {
      graphiteUrl = resolveGraphiteUrl(opts.graphiteUrl, loaded.config, process.env);
      if (opts.impact && !graphiteUrl) throw new CliError('--impact needs a Graphite: pass --graphite-url URL, set ALERTFORM_GRAPHITE_URL, or write `graphite:` in alertform.yaml');
      try {
        parseDurationSeconds(opts.impactWindow ?? DEFAULT_IMPACT_WINDOW);
      } catch (error) {
        throw new CliError(`--impact-window: ${(error as Error).message}`);
      }
    },
  });
  return result.status === 'invalid' ? result : { ...result, graphiteUrl };
}
