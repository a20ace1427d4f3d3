import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeNote {
  id: number;
  body: string;
  system: boolean;
}

export interface FakeIssue {
  iid: number;
  title: string;
  description: string;
  labels: string[];
  state: 'opened' | 'closed';
}

export interface FakeGitLab {
  /** http://127.0.0.1:PORT/api/v4, as $CI_API_V4_URL */
  apiUrl: string;
  /** Notes of merge request `iid` of the project. */
  notes(iid: string): FakeNote[];
  issues: FakeIssue[];
  /** Every request, as `METHOD /path?query` with the PRIVATE-TOKEN it carried. */
  requests: Array<{ method: string; url: string; token: string | undefined }>;
  close(): Promise<void>;
}

/**
 * A stand-in for the few GitLab REST endpoints the CI examples use (merge request notes, project issues), on
 * 127.0.0.1 port 0: the job's script runs curl-free through `alertform comment gitlab`, in a child process nock
 * cannot reach. Lists page by `per_page`/`page` with `x-next-page`, as GitLab does; one project id, one token.
 */
export async function startFakeGitLab(options: { project: string; token: string; perPageMax?: number }): Promise<FakeGitLab> {
  const notes = new Map<string, FakeNote[]>();
  const issues: FakeIssue[] = [];
  const requests: FakeGitLab['requests'] = [];
  let nextId = 1000;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const page = <T>(res: ServerResponse, url: URL, items: T[]) => {
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 20), options.perPageMax ?? 100);
    const number = Number(url.searchParams.get('page') ?? 1);
    const slice = items.slice((number - 1) * perPage, number * perPage);
    send(res, 200, slice, { 'x-next-page': number * perPage < items.length ? String(number + 1) : '' });
  };
  const readBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const token = req.headers['private-token'] as string | undefined;
      requests.push({ method: req.method ?? '', url: `${url.pathname}${url.search}`, token });
      if (token !== options.token) return send(res, 401, { message: '401 Unauthorized' });
      const prefix = `/api/v4/projects/${encodeURIComponent(options.project)}`;
      if (!url.pathname.startsWith(prefix)) return send(res, 404, { message: '404 Project Not Found' });
      const path = url.pathname.slice(prefix.length);
      let match: RegExpExecArray | null;
      if ((match = /^\/merge_requests\/(\d+)\/notes(?:\/(\d+))?$/.exec(path))) {
        const list = notes.get(match[1]!) ?? [];
        notes.set(match[1]!, list);
        if (req.method === 'GET' && !match[2]) return page(res, url, list);
        if (req.method === 'POST' && !match[2]) {
          const note = { id: nextId++, body: String((await readBody(req)).body ?? ''), system: false };
          if (!note.body) return send(res, 400, { message: { body: ["can't be blank"] } });
          list.push(note);
          return send(res, 201, note);
        }
        if (req.method === 'PUT' && match[2]) {
          const note = list.find((n) => n.id === Number(match![2]));
          if (!note) return send(res, 404, { message: '404 Not found' });
          note.body = String((await readBody(req)).body ?? '');
          return send(res, 200, note);
        }
      }
      if ((match = /^\/issues(?:\/(\d+))?$/.exec(path))) {
        if (req.method === 'GET' && !match[1]) {
          const state = url.searchParams.get('state');
          return page(res, url, issues.filter((i) => !state || state === 'all' || i.state === state));
        }
        if (req.method === 'POST' && !match[1]) {
          const body = await readBody(req);
          if (!body.title) return send(res, 400, { message: { title: ["can't be blank"] } });
          const labels = typeof body.labels === 'string' && body.labels ? body.labels.split(',') : [];
          const issue: FakeIssue = { iid: issues.length + 1, title: String(body.title), description: String(body.description ?? ''), labels, state: 'opened' };
          issues.push(issue);
          return send(res, 201, issue);
        }
        if (req.method === 'PUT' && match[1]) {
          const issue = issues.find((i) => i.iid === Number(match![1]));
          if (!issue) return send(res, 404, { message: '404 Not found' });
          const body = await readBody(req);
          if (typeof body.description === 'string') issue.description = body.description;
          if (body.state_event === 'close') issue.state = 'closed';
          if (body.state_event === 'reopen') issue.state = 'opened';
          return send(res, 200, issue);
        }
      }
      send(res, 404, { message: '404 Not Found' });
    })().catch((error: unknown) => send(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/v4`,
    notes: (iid) => notes.get(iid) ?? [],
    issues,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
