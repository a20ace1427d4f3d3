import { Octokit } from '@octokit/rest';
import { pullRequestComments } from '../ci/github.js';
import { upsertOurPost } from '../ci/post.js';
import { isOurComment } from './comment.js';

/** An Octokit for github.com, or for GitHub Enterprise when the runner sets GITHUB_API_URL. */
export function createGitHubClient(token: string, env: NodeJS.ProcessEnv): Octokit {
  return new Octokit({
    auth: token,
    baseUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    userAgent: 'alertform-action',
    // Octokit logs request failures through console by default; our entry reports them once, masked.
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
}

export interface IssueRef {
  owner: string;
  repo: string;
  issueNumber: number;
}

/** The login a workflow's GITHUB_TOKEN writes comments as. */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

/**
 * Who the token writes comments as: the `comment-author` input when given (a GitHub App's `<slug>[bot]`), else the
 * token's own user (a personal token may ask GET /user), else github-actions[bot] (a workflow's GITHUB_TOKEN may
 * not ask: GitHub answers 403).
 */
export async function resolveCommentAuthor(octokit: Octokit, configured?: string): Promise<string> {
  if (configured) return configured;
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    return data.login;
  } catch {
    return ACTIONS_BOT_LOGIN;
  }
}

/** Our comment on a PR for this definitions path: the hidden marker AND written by `author` (pullRequestComments). */
export async function findPlanComment(
  octokit: Octokit,
  issue: IssueRef,
  path: string,
  author: string,
): Promise<{ id: number; body: string } | undefined> {
  return pullRequestComments(octokit, repoOf(issue), issue.issueNumber, author).find((body) => isOurComment(body, path));
}

/** Updates our comment in place, or creates it on the first run: never a second one, never someone else's. */
export async function upsertPlanComment(
  octokit: Octokit,
  issue: IssueRef,
  path: string,
  body: string,
  author: string,
): Promise<{ id: number; created: boolean }> {
  const outcome = (await upsertOurPost(pullRequestComments(octokit, repoOf(issue), issue.issueNumber, author), body, path))!;
  return { id: outcome.id, created: outcome.action === 'created' };
}

/** The repository of an issue (Octokit would send any other field as a query parameter). */
function repoOf(issue: IssueRef): { owner: string; repo: string } {
  return { owner: issue.owner, repo: issue.repo };
}

/**
 * The merged PR that brought a pushed commit: the one whose merge commit it is, else any merged PR GitHub
 * associates with it (rebase merges).
 */
export async function findMergedPullRequest(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  sha: string,
): Promise<number | undefined> {
  const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
    owner: repo.owner,
    repo: repo.repo,
    commit_sha: sha,
    per_page: 100,
  });
  const merged = data.filter((pr) => pr.merged_at);
  return (merged.find((pr) => pr.merge_commit_sha === sha) ?? merged[0])?.number;
}
