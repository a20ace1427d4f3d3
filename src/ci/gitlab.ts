import { CliError } from '../cli/errors.js';
import { maxAnswerBytes, readCappedText } from '../client/capped-answer.js';
import type { Post, Thread } from './post.js';

/** GitLab refuses notes of 1,000,000 characters or more (and issue descriptions of 1,048,576). */
export const GITLAB_NOTE_LIMIT = 1_000_000;

export interface GitLabTarget {
  /** `$CI_API_V4_URL`, e.g. https://gitlab.com/api/v4 */
  apiUrl: string;
  /** `$CI_PROJECT_ID` (or the URL-encoded path, group%2Fproject). */
  project: string;
  /** A project access token or personal token with the `api` scope (a CI job token may not write notes). */
  token: string;
}

/**
 * The few GitLab REST calls the comments need, with fetch: a paginated list (GitLab's `x-next-page` header), a
 * create and an update. Errors name the status and GitLab's message, never the token.
 *
 * No redirect is followed: fetch would carry PRIVATE-TOKEN to wherever it leads (it drops only Authorization), and
 * a 301/302 turns a POST into a GET whose 200 proves nothing. Every answer is judged: a 2xx must be JSON of the
 * expected shape (a list, or the note or issue with its id), else the command fails saying so.
 */
export class GitLabApi {
  constructor(private readonly target: GitLabTarget) {}

  private url(path: string): string {
    return `${this.target.apiUrl.replace(/\/+$/, '')}/projects/${encodeURIComponent(decodeURIComponent(this.target.project))}${path}`;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<{ data: T; nextPage: string | null }> {
    const shown = `${method} ${path.replace(/\?.*$/, '')}`;
    let response: Response;
    try {
      response = await fetch(this.url(path), {
        method,
        redirect: 'manual',
        headers: { 'PRIVATE-TOKEN': this.target.token, ...(body ? { 'content-type': 'application/json' } : {}), 'user-agent': 'alertform' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      throw new CliError(`GitLab at ${this.target.apiUrl} could not be reached: ${(error as Error).message}`, 1, { cause: error });
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      const to = originOf(response.headers.get('location'), this.target.apiUrl);
      throw new CliError(
        `GitLab answered ${shown} with a redirect (HTTP ${response.status}${to ? ` to ${to}` : ''}): not followed, the token would go along. ` +
          'Set --api-url (CI_API_V4_URL) to the API\'s own address, e.g. https://gitlab.example.com/api/v4',
      );
    }
    const text = await readCappedText(response, maxAnswerBytes(), { method, url: `GitLab ${path.replace(/\?.*$/, '')}` });
    if (!response.ok) {
      let message = text.slice(0, 300);
      try {
        const parsed = JSON.parse(text) as { message?: unknown; error?: unknown };
        message = JSON.stringify(parsed.message ?? parsed.error ?? parsed);
      } catch {
        // Not JSON: the head of the text says enough.
      }
      const hint = response.status === 401 || response.status === 403 ? ' (GITLAB_TOKEN needs the api scope and at least the Reporter role on the project)' : '';
      throw new CliError(`GitLab refused ${shown}: HTTP ${response.status} ${message}${hint}`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw notGitLab(shown, `HTTP ${response.status} and an answer that is not JSON`);
    }
    return { data: data as T, nextPage: response.headers.get('x-next-page') || null };
  }

  /** Every page of a list, stopping at the first item `match` accepts. */
  async findInList<T>(path: string, match: (item: T) => boolean): Promise<T | undefined> {
    let page: string | null = '1';
    for (let pages = 0; page && pages < 1000; pages++) {
      const separator = path.includes('?') ? '&' : '?';
      const { data, nextPage }: { data: T[]; nextPage: string | null } = await this.request<T[]>('GET', `${path}${separator}per_page=100&page=${page}`);
      if (!Array.isArray(data)) throw notGitLab(`GET ${path.replace(/\?.*$/, '')}`, 'something other than a list');
      const found = data.find(match);
      if (found) return found;
      page = nextPage;
    }
    return undefined;
  }
}

/** A merge request's notes. */
export function mergeRequestNotes(api: GitLabApi, iid: string): Thread {
  const base = `/merge_requests/${encodeURIComponent(iid)}/notes`;
  return {
    limit: GITLAB_NOTE_LIMIT,
    describe: (id) => `merge request !${iid}${id === undefined ? '' : ` (note ${id})`}`,
    async find(isOurs) {
      const note = await api.findInList<{ id: number; body: string; system?: boolean }>(`${base}?sort=asc&order_by=created_at`, (n) => !n.system && isOurs(n.body));
      return note ? { id: note.id, body: note.body } : undefined;
    },
    async create(body) {
      return idOf(await api.request<unknown>('POST', base, { body }), 'id', `POST ${base}`);
    },
    async update(id, body) {
      if (idOf(await api.request<unknown>('PUT', `${base}/${id}`, { body }), 'id', `PUT ${base}/${id}`) !== id) throw notGitLab(`PUT ${base}/${id}`, 'another note');
    },
  };
}

/** The project's open issues, for the drift check's one issue. */
export function projectIssues(api: GitLabApi, title: string, labels: string[]): Thread {
  return {
    limit: GITLAB_NOTE_LIMIT,
    describe: (id) => (id === undefined ? 'issue' : `issue #${id}`),
    async find(isOurs) {
      const issue = await api.findInList<{ iid: number; description: string | null }>('/issues?state=opened', (i) => isOurs(i.description ?? ''));
      return issue ? ({ id: issue.iid, body: issue.description ?? '' } satisfies Post) : undefined;
    },
    async create(description) {
      return idOf(await api.request<unknown>('POST', '/issues', { title, description, ...(labels.length > 0 ? { labels: labels.join(',') } : {}) }), 'iid', 'POST /issues');
    },
    async update(id, description, options) {
      const answer = await api.request<unknown>('PUT', `/issues/${id}`, { description, ...(options?.close ? { state_event: 'close' } : {}) });
      if (idOf(answer, 'iid', `PUT /issues/${id}`) !== id) throw notGitLab(`PUT /issues/${id}`, 'another issue');
    },
  };
}

/** The note's `id` or the issue's `iid` in a 2xx answer: what GitLab says it wrote, or the command fails. */
function idOf(answer: { data: unknown }, field: 'id' | 'iid', shown: string): number {
  const value = (answer.data as Record<string, unknown> | null)?.[field];
  if (typeof value !== 'number') throw notGitLab(shown, `an answer without the ${field === 'id' ? 'note' : 'issue'}'s ${field}`);
  return value;
}

/** A 2xx that is not the GitLab API's answer (a login page, a proxy, another service at --api-url). */
function notGitLab(shown: string, what: string): CliError {
  return new CliError(`GitLab answered ${shown} with ${what}: nothing is known to be posted. Is --api-url (CI_API_V4_URL) GitLab's API, e.g. https://gitlab.example.com/api/v4?`);
}

/** The origin a redirect names (never its path or query, which may carry anything), relative to `base`. */
function originOf(location: string | null, base: string): string | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, base).origin;
  } catch {
    return undefined;
  }
}
