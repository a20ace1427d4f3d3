import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatMarker } from '../../src/action/comment.js';
import { createProgram } from '../../src/cli/program.js';
import { ACTIONS_BOT, mockGitHub } from '../helpers/github-mock.js';
import { nockForThisFile } from '../helpers/nock-for-this-file.js';
import { runCli } from '../helpers/run-cli.js';

nockForThisFile();

// Before: `alertform comment gitlab` followed redirects with fetch, which carries PRIVATE-TOKEN to any origin (it
// drops only Authorization), and printed "Created merge request" after a 302 had turned its POST into a GET.
// `alertform comment github` updated any comment with our marker, while the Action matched the marker and its
// own author. After: no redirect is followed, every GitLab answer is judged, and one upsert (marker AND author)
// serves both the Action and `comment github`.

const TOKEN = 'glpat-secret-token-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'af-ci-hosts-'));
const planFile = join(dir, 'plan.md');
writeFileSync(planFile, `${formatMarker({ hash: 'abc123', path: '.' })}\n### alertform plan\n\n1 to create\n`);

interface Seen {
  method: string;
  url: string;
  token: string | undefined;
}
/** A plain HTTP server on 127.0.0.1 that records what it is asked and answers with `answer`. */
async function listen(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', token: req.headers['private-token'] as string | undefined });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const commentGitLab = (apiUrl: string) =>
  runCli(['comment', 'gitlab', planFile], { env: { GITLAB_TOKEN: TOKEN, CI_API_V4_URL: apiUrl, CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '7' } });

describe('alertform comment gitlab', () => {
  let elsewhere: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    // Another origin: whatever reaches it with the token has the token.
    elsewhere = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 5, body: 'not a note' }));
    });
    servers.push(elsewhere.server);
  });

  it.each([301, 302, 307, 308])('follows no %i to another origin, and says so', async (status) => {
    elsewhere.seen.length = 0;
    // The notes list answers (no note of ours yet); the POST that creates the note is redirected away.
    const gitlab = await listen((req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-next-page': '' });
        return res.end('[]');
      }
      res.writeHead(status, { location: `${elsewhere.url}${req.url}` });
      res.end();
    });
    servers.push(gitlab.server);
    const result = await commentGitLab(`${gitlab.url}/api/v4`);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('Created');
    expect(result.stderr).toContain(`GitLab answered POST /merge_requests/7/notes with a redirect (HTTP ${status} to ${elsewhere.url}): not followed, the token would go along`);
    expect(elsewhere.seen).toEqual([]);
    expect(gitlab.seen.map((s) => [s.method, s.token])).toEqual([
      ['GET', TOKEN],
      ['POST', TOKEN],
    ]);
    expect(result.stderr).not.toContain(TOKEN);
  }, 60_000);

  it('judges a 2xx: a login page or an answer without the note is not "Created"', async () => {
    const page = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Sign in</html>');
    });
    const empty = await listen((req, res) => {
      res.writeHead(req.method === 'GET' ? 200 : 201, { 'content-type': 'application/json' });
      res.end(req.method === 'GET' ? '[]' : '{}');
    });
    servers.push(page.server, empty.server);
    const html = await commentGitLab(`${page.url}/api/v4`);
    expect(html.code).toBe(1);
    expect(html.stderr).toContain('GitLab answered GET /merge_requests/7/notes with HTTP 200 and an answer that is not JSON: nothing is known to be posted');
    const noId = await commentGitLab(`${empty.url}/api/v4`);
    expect(noId.code).toBe(1);
    expect(noId.stdout).not.toContain('Created');
    expect(noId.stderr).toContain("GitLab answered POST /merge_requests/7/notes with an answer without the note's id");
  }, 60_000);
});

describe('alertform comment github', () => {
  let github: ReturnType<typeof mockGitHub>;
  const saved = { ...process.env };
  afterEach(() => {
    github?.done();
    process.env = { ...saved };
  });

  /** The CLI in this process, so that nock stands in for GitHub. */
  async function commentGitHub(...extra: string[]): Promise<void> {
    process.env.GITHUB_TOKEN = 'ghs_test_token_0123456789';
    delete process.env.GITHUB_API_URL;
    await createProgram().parseAsync(['node', 'alertform', 'comment', 'github', planFile, '--pr', '7', '--repo', 'acme/alerts', ...extra]);
  }

  it("updates only a comment with our marker and our author, as the Action does: never another user's", async () => {
    github = mockGitHub();
    const planted = github.addComment(7, `${formatMarker({ hash: 'forged', path: '.' })}\nlooks reviewed`, 'mallory');
    await commentGitHub();
    expect(github.commentsOf(7).find((c) => c.id === planted.id)!.body).toContain('looks reviewed');
    const ours = github.commentsOf(7).filter((c) => c.login === ACTIONS_BOT);
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body).toContain('1 to create');
    // The next run updates ours in place.
    await commentGitHub();
    expect(github.commentsOf(7)).toHaveLength(2);
    expect(github.requests.filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual([`/repos/acme/alerts/issues/comments/${ours[0]!.id}`]);
  });

  it('takes the author from --comment-author (a GitHub App token), else the token user', async () => {
    github = mockGitHub();
    const app = github.addComment(7, `${formatMarker({ hash: 'old', path: '.' })}\nolder plan`, 'my-app[bot]');
    await commentGitHub('--comment-author', 'my-app[bot]');
    expect(github.commentsOf(7)).toHaveLength(1);
    expect(github.commentsOf(7)[0]!.id).toBe(app.id);
    expect(github.commentsOf(7)[0]!.body).toContain('1 to create');
    github.done();
    github = mockGitHub();
    github.useTokenOf('octocat');
    github.addComment(7, `${formatMarker({ hash: 'old', path: '.' })}\nthe bot's`, ACTIONS_BOT);
    await commentGitHub();
    expect(github.commentsOf(7).map((c) => c.login)).toEqual([ACTIONS_BOT, 'octocat']);
  });
});
