import type { Octokit } from '@octokit/rest';
import { GITHUB_COMMENT_LIMIT } from '../action/comment.js';
import type { Thread } from './post.js';

export interface GitHubRepo {
  owner: string;
  repo: string;
}

/**
 * A pull request's comments, where ours are those written by `author` (the Action's and `alertform comment github`'s
 * one thread). Anyone can paste our marker into a comment: updating theirs would publish our plan under their name,
 * and on merge their "reviewed" hash would be trusted. See resolveCommentAuthor for who `author` is.
 */
export function pullRequestComments(octokit: Octokit, repo: GitHubRepo, number: number, author: string): Thread {
  return {
    limit: GITHUB_COMMENT_LIMIT,
    describe: (id) => `pull request #${number}${id === undefined ? '' : ` (comment ${id})`}`,
    async find(isOurs) {
      const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, { ...repo, issue_number: number, per_page: 100 });
      for await (const page of pages) {
        const found = page.data.find((c) => c.user?.login === author && isOurs(c.body ?? ''));
        if (found) return { id: found.id, body: found.body ?? '' };
      }
      return undefined;
    },
    async create(body) {
      return (await octokit.rest.issues.createComment({ ...repo, issue_number: number, body })).data.id;
    },
    async update(id, body) {
      await octokit.rest.issues.updateComment({ ...repo, comment_id: id, body });
    },
  };
}

/** The repository's open issues, for the drift check's one issue (pull requests, which the API lists too, skipped). */
export function repositoryIssues(octokit: Octokit, repo: GitHubRepo, title: string, labels: string[]): Thread {
  return {
    limit: GITHUB_COMMENT_LIMIT,
    describe: (id) => (id === undefined ? 'issue' : `issue #${id}`),
    async find(isOurs) {
      const pages = octokit.paginate.iterator(octokit.rest.issues.listForRepo, { ...repo, state: 'open', per_page: 100 });
      for await (const page of pages) {
        const found = page.data.find((i) => !i.pull_request && isOurs(i.body ?? ''));
        if (found) return { id: found.number, body: found.body ?? '' };
      }
      return undefined;
    },
    async create(body) {
      return (await octokit.rest.issues.create({ ...repo, title, body, ...(labels.length > 0 ? { labels } : {}) })).data.number;
    },
    async update(id, body, options) {
      await octokit.rest.issues.update({ ...repo, issue_number: id, body, ...(options?.close ? { state: 'closed' as const } : {}) });
    },
  };
}
