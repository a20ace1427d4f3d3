import * as core from '@actions/core';
import { GITHUB_COMMENT_LIMIT, parseMarker } from './comment.js';
import { planTitle } from './compose.js';
import { formatProblem } from '../definitions/problems.js';
import { renderPlanMarkdown } from '../plan/render/markdown.js';
import { renderSummaryLine } from '../plan/render/summary.js';
import { planRequestOf, type ActionContext } from './context.js';
import { runUrl } from './event.js';
import { createGitHubClient, findMergedPullRequest, findPlanComment, resolveCommentAuthor } from './github.js';
import type { ApplyOutcome } from './port.js';
import { annotateProblems, appendJobSummary, publishPlanOutputs } from './publish.js';

/** The plan that was reviewed: its hash from the merged PR's comment, or why there is none. */
type Reviewed = { found: true; pr: number; hash: string; commentId: number; body: string } | { found: false; reason: string };

/**
 * push to the default branch: compute a fresh plan and apply it only when it is the plan reviewed on the merged PR
 * (same hash as the PR comment's marker), unless allow-plan-change is set.
 */
export async function runApplyCommand(ctx: ActionContext): Promise<void> {
  const { inputs, redactor, env } = ctx;
  const run = await ctx.reconciler.plan(planRequestOf(ctx));
  if (run.status === 'invalid') {
    annotateProblems(run.problems, redactor);
    core.setFailed(redactor.redact(`the definitions do not validate:\n${run.problems.map(formatProblem).join('\n')}`));
    return;
  }
  const summaryLine = renderSummaryLine(run.plan);
  core.info(redactor.redact(summaryLine));
  publishPlanOutputs(run, redactor, env);

  const reviewed = await findReviewedPlan(ctx);
  const changed = !reviewed.found || reviewed.hash !== run.hash;
  core.setOutput('plan-changed', String(changed));
  if (changed) {
    const why = reviewed.found
      ? `the plan differs from the one reviewed on #${reviewed.pr} (reviewed hash ${reviewed.hash}, now ${run.hash}): ` +
        'the server or the default branch changed since the review'
      : `no reviewed plan to compare with: ${reviewed.reason}`;
    if (!inputs.allowPlanChange) {
      await appendJobSummary(`### alertform apply refused\n\n${why}.\n\n${renderPlanMarkdown(run.plan, { title: planTitle(inputs.path) })}`, redactor, env);
      core.setFailed(
        redactor.redact(
          `refusing to apply: ${why}. Re-run the plan on a pull request and merge it, or set allow-plan-change: true to apply the fresh plan.`,
        ),
      );
      return;
    }
    core.warning(redactor.redact(`applying anyway (allow-plan-change): ${why}`));
  } else {
    core.info(`the plan is the one reviewed on #${reviewed.pr} (hash ${run.hash})`);
  }

  if (run.plan.changes.length === 0) {
    core.info('nothing to apply');
    await appendJobSummary(`### alertform apply\n\n**${summaryLine}**\n\nNothing to apply.`, redactor, env);
    return;
  }
  const outcome = await run.apply();
  core.info(redactor.redact(outcome.report));
  await appendJobSummary(
    `### alertform apply\n\n**${summaryLine}**\n\n${outcome.done} done, ${outcome.failed} failed, ${outcome.skipped} skipped.\n\n\`\`\`text\n${outcome.report}\n\`\`\``,
    redactor,
    env,
  );
  if (reviewed.found) await recordApplyOnComment(ctx, reviewed, outcome, changed);
  if (!outcome.ok) core.setFailed(`apply finished with ${outcome.failed} failed and ${outcome.skipped} skipped steps; running it again converges`);
}

async function findReviewedPlan(ctx: ActionContext): Promise<Reviewed> {
  const { event, inputs, env } = ctx;
  if (event.kind !== 'push') return { found: false, reason: `the event is ${event.kind === 'other' ? event.name || 'unknown' : event.kind}, not a push of a merged pull request` };
  if (!inputs.githubToken) return { found: false, reason: 'no github-token to read the merged pull request' };
  const octokit = createGitHubClient(inputs.githubToken, env);
  const pr = await findMergedPullRequest(octokit, event, event.sha);
  if (pr === undefined) return { found: false, reason: `no merged pull request brought commit ${event.sha.slice(0, 12)}` };
  const author = await resolveCommentAuthor(octokit, inputs.commentAuthor);
  const comment = await findPlanComment(octokit, { owner: event.owner, repo: event.repo, issueNumber: pr }, inputs.path, author);
  const marker = parseMarker(comment?.body);
  if (!marker) return { found: false, reason: `#${pr} has no alertform plan comment for ${inputs.path} by ${author}` };
  return { found: true, pr, hash: marker.hash, commentId: comment!.id, body: comment!.body };
}

/**
 * Appends the apply's outcome to the reviewed plan's comment, so the PR shows that (and when) its plan was
 * applied. Best effort: the apply already happened, so a refusal here is only a warning.
 */
async function recordApplyOnComment(
  ctx: ActionContext,
  reviewed: Extract<Reviewed, { found: true }>,
  outcome: ApplyOutcome,
  planChanged: boolean,
): Promise<void> {
  const { event, inputs, env } = ctx;
  if (event.kind !== 'push' || !inputs.githubToken) return;
  const url = runUrl(env);
  const icon = (outcome.ok ? '✅ Applied' : '❌ Apply failed') + (planChanged ? ' (a fresh plan, not the one above: allow-plan-change)' : '');
  const line = `${icon} from commit ${event.sha.slice(0, 12)}${url ? ` ([run](${url}))` : ''}: ${outcome.done} done, ${outcome.failed} failed, ${outcome.skipped} skipped.`;
  if (reviewed.body.includes(line)) return;
  const body = `${reviewed.body}\n\n${line}`;
  if (body.length >= GITHUB_COMMENT_LIMIT) return;
  try {
    const octokit = createGitHubClient(inputs.githubToken, env);
    await octokit.rest.issues.updateComment({ owner: event.owner, repo: event.repo, comment_id: reviewed.commentId, body });
  } catch (error) {
    core.warning(`could not record the apply on #${reviewed.pr}'s comment: ${error instanceof Error ? error.message : String(error)}`);
  }
}
