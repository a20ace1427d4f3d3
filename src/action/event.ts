import { readFileSync } from 'node:fs';

/** The parts of the workflow run's event the Action uses. */
export type EventContext =
  | { kind: 'pull_request'; owner: string; repo: string; number: number; baseSha: string; headSha: string }
  | { kind: 'push'; owner: string; repo: string; sha: string; ref: string; defaultBranch?: string }
  | { kind: 'other'; owner?: string; repo?: string; name: string; sha?: string };

interface EventPayload {
  pull_request?: { number: number; base: { sha: string }; head: { sha: string } };
  after?: string;
  ref?: string;
  repository?: { name?: string; owner?: { login?: string; name?: string }; default_branch?: string };
}

/** Reads GITHUB_EVENT_NAME, GITHUB_EVENT_PATH and GITHUB_REPOSITORY as the runner sets them. */
export function readEventContext(env: NodeJS.ProcessEnv): EventContext {
  const name = env.GITHUB_EVENT_NAME ?? '';
  const payload: EventPayload = env.GITHUB_EVENT_PATH
    ? (JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) as EventPayload)
    : {};
  const [envOwner, envRepo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  const owner = envOwner || payload.repository?.owner?.login || payload.repository?.owner?.name || '';
  const repo = envRepo || payload.repository?.name || '';

  if ((name === 'pull_request' || name === 'pull_request_target') && payload.pull_request) {
    const pr = payload.pull_request;
    return { kind: 'pull_request', owner, repo, number: pr.number, baseSha: pr.base.sha, headSha: pr.head.sha };
  }
  if (name === 'push' && payload.after) {
    return {
      kind: 'push',
      owner,
      repo,
      sha: payload.after,
      ref: payload.ref ?? env.GITHUB_REF ?? '',
      defaultBranch: payload.repository?.default_branch,
    };
  }
  return { kind: 'other', owner, repo, name, sha: env.GITHUB_SHA };
}

/** The link to this workflow run, where the job summary is. */
export function runUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (!env.GITHUB_REPOSITORY || !env.GITHUB_RUN_ID) return undefined;
  const server = env.GITHUB_SERVER_URL ?? 'https://github.com';
  return `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
}
