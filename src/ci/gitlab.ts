import { CliError } from '../cli/errors.js';
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
 */
export class GitLabApi {
  constructor(private readonly target: GitLabTarget) {}

  private url(path: string): string {
    return `${this.target.apiUrl.replace(/\/+$/, '')}/projects/${encodeURIComponent(decodeURIComponent(this.target.project))}${path}`;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<{ data: T; nextPage: string | null }> {
    let response: Response;
    try {
      response = await fetch(this.url(path), {
        method,
        headers: { 'PRIVATE-TOKEN': this.target.token, ...(body ? { 'content-type': 'application/json' } : {}), 'user-agent': 'alertform' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      throw new CliError(`GitLab at ${this.target.apiUrl} could not be reached: ${(error as Error).message}`, 1, { cause: error });
    }
    const text = await response.text();
    if (!response.ok) {
      let message = text.slice(0, 300);
      try {
        const parsed = JSON.parse(text) as { message?: unknown; error?: unknown };
        message = JSON.stringify(parsed.message ?? parsed.error ?? parsed);
      } catch {
        // Not JSON: the head of the text says enough.
      }
      const hint = response.status === 401 || response.status === 403 ? ' (GITLAB_TOKEN needs the api scope and at least the Reporter role on the project)' : '';
      throw new CliError(`GitLab refused ${method} ${path.replace(/\?.*$/, '')}: HTTP ${response.status} ${message}${hint}`);
    }
    return { data: (text ? JSON.parse(text) : undefined) as T, nextPage: response.headers.get('x-next-page') || null };
  }

  /** Every page of a list, stopping at the first item `match` accepts. */
  async findInList<T>(path: string, match: (item: T) => boolean): Promise<T | undefined> {
    let page: string | null = '1';
    for (let pages = 0; page && pages < 1000; pages++) {
      const separator = path.includes('?') ? '&' : '?';
      const { data, nextPage }: { data: T[]; nextPage: string | null } = await this.request<T[]>('GET', `${path}${separator}per_page=100&page=${page}`);
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
      return (await api.request<{ id: number }>('POST', base, { body })).data.id;
    },
    async update(id, body) {
      await api.request('PUT', `${base}/${id}`, { body });
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
      return (await api.request<{ iid: number }>('POST', '/issues', { title, description, ...(labels.length > 0 ? { labels: labels.join(',') } : {}) })).data.iid;
    },
    async update(id, description, options) {
      await api.request('PUT', `/issues/${id}`, { description, ...(options?.close ? { state_event: 'close' } : {}) });
    },
  };
}
