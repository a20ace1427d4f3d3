import nock from 'nock';

/** A comment in the mocked GitHub. */
export interface MockComment {
  id: number;
  body: string;
  /** Who wrote it (the Action's GITHUB_TOKEN writes as github-actions[bot]). */
  login: string;
}

/** The login comments made with a workflow's GITHUB_TOKEN carry. */
export const ACTIONS_BOT = 'github-actions[bot]';

/** A request the mocked GitHub received. */
export interface MockRequest {
  method: string;
  path: string;
  body?: unknown;
  authorization?: string;
}

/**
 * GitHub's REST API for one repository, mocked with nock and stateful: the issue comments endpoints keep real
 * comments (list, create, update), and listPullRequestsAssociatedWithCommit answers from `mergedPulls`.
 */
export function mockGitHub(options: { apiUrl?: string; owner?: string; repo?: string } = {}) {
  const apiUrl = options.apiUrl ?? 'https://api.github.com';
  const { origin, pathname } = new URL(apiUrl);
  const prefix = `${pathname.replace(/\/$/, '')}/repos/${options.owner ?? 'acme'}/${options.repo ?? 'alerts'}`;
  const comments = new Map<number, MockComment[]>();
  const mergedPulls = new Map<string, { number: number; merge_commit_sha: string; merged_at: string | null }[]>();
  const requests: MockRequest[] = [];
  let nextId = 1000;
  let tokenLogin: string | undefined;

  const scope = nock(origin).persist();
  /**
   * Records a request and answers its path with query and its JSON body (nock calls a reply function with the
   * request, a fetch Request).
   */
  const record = async (method: string, request: Request): Promise<{ uri: string; body: unknown }> => {
    const url = new URL(request.url);
    const uri = `${url.pathname}${url.search}`;
    const text = method === 'GET' ? '' : await request.text();
    const body = text === '' ? undefined : (JSON.parse(text) as unknown);
    requests.push({ method, path: uri, body, authorization: request.headers.get('authorization') ?? undefined });
    return { uri, body };
  };

  scope
    .get(new RegExp(`^${prefix}/issues/(\\d+)/comments`))
    .reply(async (request: Request) => {
      const { uri } = await record('GET', request);
      const url = new URL(uri, origin);
      const issue = Number(/issues\/(\d+)/.exec(url.pathname)![1]);
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const all = comments.get(issue) ?? [];
      const slice = all.slice((page - 1) * perPage, page * perPage).map((c) => ({ id: c.id, body: c.body, user: { login: c.login } }));
      const headers: Record<string, string> = {};
      if (page * perPage < all.length) {
        headers.link = `<${origin}${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next"`;
      }
      return [200, slice, headers];
    })
    .post(new RegExp(`^${prefix}/issues/(\\d+)/comments$`))
    .reply(async (request: Request) => {
      const { uri, body } = await record('POST', request);
      const issue = Number(/issues\/(\d+)/.exec(uri)![1]);
      const comment = { id: nextId++, body: (body as { body: string }).body, login: tokenLogin ?? ACTIONS_BOT };
      comments.set(issue, [...(comments.get(issue) ?? []), comment]);
      return [201, { id: comment.id, body: comment.body, user: { login: comment.login } }];
    })
    .patch(new RegExp(`^${prefix}/issues/comments/(\\d+)$`))
    .reply(async (request: Request) => {
      const { uri, body } = await record('PATCH', request);
      const id = Number(/comments\/(\d+)$/.exec(uri)![1]);
      for (const list of comments.values()) {
        const comment = list.find((c) => c.id === id);
        if (comment) {
          comment.body = (body as { body: string }).body;
          return [200, comment];
        }
      }
      return [404, { message: 'Not Found' }];
    })
    // Who the token is: a workflow's GITHUB_TOKEN may not ask (GitHub answers 403), a personal token may.
    .get(`${pathname.replace(/\/$/, '')}/user`)
    .reply(async (request: Request) => {
      await record('GET', request);
      return tokenLogin ? [200, { login: tokenLogin }] : [403, { message: 'Resource not accessible by integration' }];
    })
    .get(new RegExp(`^${prefix}/commits/([0-9a-f]+)/pulls`))
    .reply(async (request: Request) => {
      const { uri } = await record('GET', request);
      const sha = /commits\/([0-9a-f]+)\/pulls/.exec(uri)![1]!;
      return [200, (mergedPulls.get(sha) ?? []).map((pr) => ({ ...pr, state: 'closed' }))];
    });

  return {
    requests,
    /** Comments of an issue, oldest first. */
    commentsOf(issue: number): MockComment[] {
      return comments.get(issue) ?? [];
    },
    /** Puts a comment there, as an earlier run (the default) or another user (`login`) would have. */
    addComment(issue: number, body: string, login = ACTIONS_BOT): MockComment {
      const comment = { id: nextId++, body, login };
      comments.set(issue, [...(comments.get(issue) ?? []), comment]);
      return comment;
    },
    /** Makes the token a personal one, of `login` (GET /user answers it; new comments are written as it). */
    useTokenOf(login: string): void {
      tokenLogin = login;
    },
    /** Declares that commit `sha` is the merge commit of PR `number`. */
    mergePull(number: number, sha: string): void {
      mergedPulls.set(sha, [{ number, merge_commit_sha: sha, merged_at: '2026-11-21T20:00:00Z' }]);
    },
    done(): void {
      scope.persist(false);
      nock.cleanAll();
    },
  };
}
