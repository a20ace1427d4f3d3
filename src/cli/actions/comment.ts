import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { createGitHubClient, resolveCommentAuthor } from '../../action/github.js';
import { GitLabApi, mergeRequestNotes, projectIssues } from '../../ci/gitlab.js';
import { repositoryIssues, pullRequestComments } from '../../ci/github.js';
import { markerPathOf, upsertDriftIssue, upsertReviewNote, type PostOutcome, type Thread } from '../../ci/post.js';
import { Redactor } from '../../redact/index.js';
import { CliError } from '../errors.js';
import { optionsOf, writeOut } from '../context.js';
import { writeJson } from '../json-output.js';

interface CommentOptions {
  issue?: string;
  label: string[];
  changesOnly?: boolean;
  apiUrl?: string;
  project?: string;
  mergeRequest?: string;
  repo?: string;
  pr?: string;
  commentAuthor?: string;
}

const WHERE_WHOLE = 'The whole plan is in the job log and in the comment file the job keeps as an artifact.';

/** `comment gitlab|github FILE`: loaded lazily so other commands start fast. */
export async function runComment(host: 'gitlab' | 'github', file: string, command: Command): Promise<void> {
  const opts = optionsOf<CommentOptions>(command);
  const env = process.env;
  const body = (await readFile(file, 'utf8')).trimEnd();
  const path = markerPathOf(body, file);
  const { thread, token } = host === 'gitlab' ? gitlabThread(opts, env) : await githubThread(opts, env);
  const redactor = new Redactor([token]);
  let outcome: PostOutcome;
  try {
    outcome = opts.issue
      ? await upsertDriftIssue(thread, body, { path, whereWhole: WHERE_WHOLE })
      : await upsertReviewNote(thread, body, { path, whereWhole: WHERE_WHOLE, ...(opts.changesOnly ? { changesOnly: true } : {}) });
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status !== undefined) throw new CliError(redactor.redact(`GitHub refused the comment: HTTP ${status} ${(error as Error).message}`), 1, { cause: error });
    throw error;
  }
  if (opts.json) {
    await writeJson({ host, ...outcome });
    return;
  }
  await writeOut(outcome.action === 'skipped' ? `Posted nothing: ${outcome.reason}\n` : `${capitalize(outcome.action)} ${thread.describe(outcome.id)}\n`);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function need(value: string | undefined, what: string): string {
  if (!value) throw new CliError(`${what} is not set`);
  return value;
}

function gitlabThread(opts: CommentOptions, env: NodeJS.ProcessEnv): { thread: Thread; token: string } {
  const token = need(env.GITLAB_TOKEN, 'GITLAB_TOKEN (a project access token with the api scope, in a masked CI/CD variable)');
  const api = new GitLabApi({
    apiUrl: need(opts.apiUrl ?? env.CI_API_V4_URL, '--api-url (or CI_API_V4_URL)'),
    project: need(opts.project ?? env.CI_PROJECT_ID, '--project (or CI_PROJECT_ID)'),
    token,
  });
  if (opts.issue) return { thread: projectIssues(api, opts.issue, opts.label), token };
  const iid = opts.mergeRequest ?? env.CI_MERGE_REQUEST_IID;
  if (!iid) throw new CliError('no merge request: run in a merge request pipeline (CI_MERGE_REQUEST_IID), pass --merge-request IID, or --issue TITLE');
  return { thread: mergeRequestNotes(api, iid), token };
}

async function githubThread(opts: CommentOptions, env: NodeJS.ProcessEnv): Promise<{ thread: Thread; token: string }> {
  const token = need(env.GITHUB_TOKEN ?? env.GH_TOKEN, 'GITHUB_TOKEN');
  const full = need(opts.repo ?? env.GITHUB_REPOSITORY, '--repo (or GITHUB_REPOSITORY)');
  const [owner, repo, ...rest] = full.split('/');
  if (!owner || !repo || rest.length > 0) throw new CliError(`--repo must be owner/name, not "${full}"`);
  const octokit = createGitHubClient(token, opts.apiUrl ? { ...env, GITHUB_API_URL: opts.apiUrl } : env);
  if (opts.issue) return { thread: repositoryIssues(octokit, { owner, repo }, opts.issue, opts.label), token };
  if (!opts.pr || !/^\d+$/.test(opts.pr)) throw new CliError('pass --pr NUMBER (the pull request), or --issue TITLE for the drift issue');
  // The Action's thread: ours has the marker and our author (the token's login, or --comment-author for an App).
  const author = await resolveCommentAuthor(octokit, opts.commentAuthor);
  return { thread: pullRequestComments(octokit, { owner, repo }, Number(opts.pr), author), token };
}
