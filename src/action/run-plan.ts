import * as core from '@actions/core';
import { listChangedFiles } from './changed-files.js';
import { describeWherePlanIs, fitMarkdown, formatMarker } from './comment.js';
import { composeErrorComment, composeInvalidComment, composePlanComment, renderChangedFiles } from './compose.js';
import { formatProblem } from '../definitions/problems.js';
import { renderSummaryLine } from '../plan/render/summary.js';
import { runUrl } from './event.js';
import { runRuleTestsForAction } from './run-rule-tests.js';
import { createGitHubClient, resolveCommentAuthor, upsertPlanComment } from './github.js';
import { annotateProblems, appendJobSummary, PLAN_FILE_NAME, publishPlanOutputs } from './publish.js';
import { planRequestOf, type ActionContext } from './context.js';
import type { InvalidRun, PlannedRun } from './port.js';

/** The artifact name the example workflow gives the uploaded plan file. */
export const PLAN_ARTIFACT = 'alertform-plan';

/**
 * pull_request: plan, publish outputs, the job summary and the one PR comment. Invalid definitions fail the job
 * after the comment shows them, so the author sees them where they review.
 */
export async function runPlanCommand(ctx: ActionContext): Promise<void> {
  const { inputs, event, redactor, env } = ctx;
  let run: PlannedRun | InvalidRun;
  try {
    run = await ctx.reconciler.plan(planRequestOf(ctx));
  } catch (error) {
    const message = redactor.redact(error instanceof Error ? error.message : String(error));
    await appendJobSummary(`### alertform plan\n\n**The plan could not be computed:** ${message}`, redactor, env);
    await postComment(ctx, composeErrorComment({ marker: formatMarker({ hash: 'error', path: inputs.path }), path: inputs.path, message }));
    throw error;
  }

  if (run.status === 'invalid') {
    const body = composeInvalidComment({ marker: formatMarker({ hash: 'invalid', path: inputs.path }), path: inputs.path, problems: run.problems });
    await appendJobSummary(stripMarker(body), redactor, env);
    core.setOutput('has-changes', 'false');
    await postComment(ctx, body);
    annotateProblems(run.problems, redactor);
    core.setFailed(redactor.redact(`the definitions do not validate:\n${run.problems.map(formatProblem).join('\n')}`));
    return;
  }

  core.info(redactor.redact(renderSummaryLine(run.plan)));
  const planFile = publishPlanOutputs(run, redactor, env);
  core.info(`plan written to ${planFile}`);

  let changedFiles: string | undefined;
  if (event.kind === 'pull_request') {
    const changed = await listChangedFiles(ctx.cwd, event.baseSha, event.headSha);
    if (!changed.ok) core.warning(changed.reason);
    changedFiles = renderChangedFiles(changed, run.plan.changes, ctx.cwd);
  }
  // The rule tests (*.test.yaml) run with every plan; a failing test fails the job after the comment shows it.
  const tests = await runRuleTestsForAction(ctx.dir, ctx.cwd, env);
  if (tests) core.info(tests.summary);
  const sha = event.kind === 'pull_request' ? event.headSha : event.sha;
  const body = composePlanComment({
    marker: formatMarker({ hash: run.hash, path: inputs.path }),
    path: inputs.path,
    plan: run.plan,
    ...(run.impact ? { impact: run.impact } : {}),
    hash: run.hash,
    ...(changedFiles ? { changedFiles } : {}),
    ...(tests ? { ruleTests: tests.markdown } : {}),
    sha,
  });
  await appendJobSummary(stripMarker(body), redactor, env);
  await postComment(ctx, body);
  if (tests?.failed) core.setFailed(redactor.redact(`${tests.summary}: see the job summary`));
}

/** Posts (or updates) the PR comment, cut to GitHub's limit; a no-op outside pull requests or with comment: false. */
async function postComment(ctx: ActionContext, fullBody: string): Promise<void> {
  const { inputs, event, redactor, env } = ctx;
  if (event.kind !== 'pull_request') {
    core.info('not a pull_request event: no PR comment');
    return;
  }
  if (!inputs.comment) {
    core.info('comment: false: no PR comment');
    return;
  }
  if (!inputs.githubToken) {
    core.warning('no github-token: the plan is not commented on the pull request');
    return;
  }
  const note = describeWherePlanIs({ runUrl: runUrl(env), artifactName: PLAN_ARTIFACT });
  const { text, cut } = fitMarkdown(redactor.redact(fullBody), note);
  if (cut) core.info(`the comment was cut to ${text.length} characters; the whole plan is in the job summary and ${PLAN_FILE_NAME}`);
  const octokit = createGitHubClient(inputs.githubToken, env);
  let result: { id: number; created: boolean };
  try {
    const author = await resolveCommentAuthor(octokit, inputs.commentAuthor);
    result = await upsertPlanComment(octokit, { owner: event.owner, repo: event.repo, issueNumber: event.number }, inputs.path, text, author);
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 403 || status === 404) {
      // The usual cause: a workflow without `pull-requests: write`, or a PR from a fork (read-only token).
      throw new Error(
        `GitHub refused the plan comment on #${event.number} (HTTP ${status}): give the job \`permissions: pull-requests: write\` ` +
          '(pull requests from forks get a read-only token: set comment: false there); the plan is in the job summary',
        { cause: error },
      );
    }
    throw error;
  }
  core.setOutput('comment-id', String(result.id));
  core.info(`${result.created ? 'created' : 'updated'} the plan comment ${result.id} on #${event.number}`);
}

function stripMarker(body: string): string {
  return body.replace(/^<!-- alertform-plan [^\n]*-->\n/, '');
}
