import type { Command } from 'commander';
import { collect } from '../parse.js';

/**
 * `alertform comment gitlab|github FILE`: posts the comment `plan --out-comment FILE` wrote, as one merge-request
 * note or pull-request comment updated in place (the Action's behaviour, for any CI), or as the drift check's one
 * issue. Tokens come only from the environment: a flag would show in the process list and the CI log.
 */
export function registerCommentCommand(program: Command): void {
  const comment = program
    .command('comment')
    .description('post a plan comment (from `plan --out-comment FILE`) to GitLab or GitHub, updating ours in place');
  const shared = (command: Command) =>
    command
      .argument('<file>', 'the comment `alertform plan --out-comment FILE` wrote')
      .option('--issue <title>', 'the drift check: open one issue with this title, update it while the drift lasts, close it once the server matches git')
      .option('--label <name>', 'a label for a new drift issue (repeatable)', collect, [])
      .option('--changes-only', 'post no new note for a plan without changes (an existing one is still updated, so it never goes stale)')
      .option('--api-url <url>', 'the host API URL (env CI_API_V4_URL on GitLab, GITHUB_API_URL on GitHub)');

  shared(comment.command('gitlab'))
    .description('a merge-request note (or, with --issue, one issue) through the GitLab API; token in env GITLAB_TOKEN')
    .option('--project <id>', 'project id or path (env CI_PROJECT_ID)')
    .option('--merge-request <iid>', 'merge request iid (env CI_MERGE_REQUEST_IID)')
    .addHelpText(
      'after',
      `
GITLAB_TOKEN: a project access token with the api scope and the Reporter role (CI_JOB_TOKEN cannot write notes);
keep it in a masked CI/CD variable.

Examples:
  $ alertform plan . --out-comment plan.md; alertform comment gitlab plan.md
  $ alertform comment gitlab plan.md --changes-only
  $ alertform plan . --detailed-exitcode --out-comment drift.md; alertform comment gitlab drift.md --issue "alertform drift"
See examples/ci/gitlab-ci.yml.`,
    )
    .action(async (file: string, _opts: unknown, command: Command) => {
      const { runComment } = await import('../actions/comment.js');
      await runComment('gitlab', file, command);
    });

  shared(comment.command('github'))
    .description('a pull-request comment (or, with --issue, one issue) through the GitHub API; token in env GITHUB_TOKEN')
    .option('--repo <owner/name>', 'the repository (env GITHUB_REPOSITORY)')
    .option('--pr <number>', 'the pull request number')
    .option('--comment-author <login>', "who our comment is written as, for a GitHub App's token (`my-app[bot]`); default: the token's user, else github-actions[bot]. Only a comment with our marker and this author is updated")
    .addHelpText(
      'after',
      `
Examples:
  $ alertform comment github plan.md --pr 42 --repo acme/alerts          # from Jenkins, Buildkite...
  $ alertform comment github drift.md --issue "alertform drift"          # a scheduled workflow (GITHUB_REPOSITORY set)
See examples/workflows/alertform-drift.yml.`,
    )
    .action(async (file: string, _opts: unknown, command: Command) => {
      const { runComment } = await import('../actions/comment.js');
      await runComment('github', file, command);
    });
}
