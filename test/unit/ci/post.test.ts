import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { formatMarker } from '../../../src/action/comment.js';
import { createGitHubClient } from '../../../src/action/github.js';
import { repositoryIssues } from '../../../src/ci/github.js';
import { NO_CHANGE_HASH, upsertDriftIssue, upsertReviewNote, type Thread } from '../../../src/ci/post.js';
import { fingerprintPlan } from '../../../src/plan/fingerprint.js';
import type { Plan } from '../../../src/plan/types.js';

const clean = `${formatMarker({ hash: NO_CHANGE_HASH, path: '.' })}\n### alertform plan\n\nNo changes.`;
const changed = `${formatMarker({ hash: 'a'.repeat(64), path: '.' })}\n### alertform plan\n\n1 to create`;
const where = 'The whole plan is in the job log.';

/** A thread kept in memory, as a host would keep it. */
function memoryThread(limit = 1000): Thread & { posts: Array<{ id: number; body: string; closed: boolean }> } {
  const posts: Array<{ id: number; body: string; closed: boolean }> = [];
  return {
    posts,
    limit,
    describe: (id) => `thread ${id}`,
    find: async (isOurs) => posts.find((p) => !p.closed && isOurs(p.body)),
    create: async (body) => {
      posts.push({ id: posts.length + 1, body, closed: false });
      return posts.length;
    },
    update: async (id, body, options) => {
      const post = posts.find((p) => p.id === id)!;
      post.body = body;
      if (options?.close) post.closed = true;
    },
  };
}

describe('posting a plan comment', () => {
  afterEach(() => nock.cleanAll());

  it('knows a plan without changes by its hash', () => {
    expect(NO_CHANGE_HASH).toBe(fingerprintPlan({ changes: [] } as unknown as Plan));
  });

  it('with --changes-only posts no new note for a clean plan, but still updates an existing one', async () => {
    const thread = memoryThread();
    expect(await upsertReviewNote(thread, clean, { path: '.', changesOnly: true, whereWhole: where })).toEqual({ action: 'skipped', reason: 'the plan changes nothing' });
    expect(thread.posts).toHaveLength(0);
    expect(await upsertReviewNote(thread, changed, { path: '.', changesOnly: true, whereWhole: where })).toEqual({ action: 'created', id: 1 });
    expect(await upsertReviewNote(thread, clean, { path: '.', changesOnly: true, whereWhole: where })).toEqual({ action: 'updated', id: 1 });
    expect(thread.posts).toEqual([{ id: 1, body: clean, closed: false }]);
  });

  it('keeps one note per definitions path', async () => {
    const thread = memoryThread();
    await upsertReviewNote(thread, changed, { path: '.', whereWhole: where });
    const other = changed.replace('path=.', 'path=prod');
    await upsertReviewNote(thread, other, { path: 'prod', whereWhole: where });
    await upsertReviewNote(thread, clean, { path: '.', whereWhole: where });
    expect(thread.posts.map((p) => p.body)).toEqual([clean, other]);
  });

  it("cuts a body over the host's limit and says where the whole plan is", async () => {
    const thread = memoryThread(500);
    await upsertReviewNote(thread, `${changed}\n${'+ line\n'.repeat(200)}`, { path: '.', whereWhole: where });
    expect(thread.posts[0]!.body.length).toBeLessThan(500);
    expect(thread.posts[0]!.body.endsWith(where)).toBe(true);
  });

  it('opens one GitHub drift issue, updates it while drifting, closes it once clean', async () => {
    const octokit = createGitHubClient('ghs_test_token_123', {});
    const thread = repositoryIssues(octokit, { owner: 'acme', repo: 'alerts' }, 'alertform drift', ['drift']);
    const issues: Array<{ number: number; body: string; state: string; pull_request?: object; title?: string; labels?: string[] }> = [
      // A pull request carrying our marker (the issues API lists PRs too) is never taken for the issue.
      { number: 1, body: changed, state: 'open', pull_request: {} },
    ];
    const api = nock('https://api.github.com').persist();
    api.get('/repos/acme/alerts/issues').query(true).reply(() => [200, issues.filter((i) => i.state === 'open')]);
    // nock calls a reply function with the request (a fetch Request).
    api.post('/repos/acme/alerts/issues').reply(async (request: Request) => {
      const { title, body: text, labels } = (await request.json()) as { title: string; body: string; labels: string[] };
      issues.push({ number: issues.length + 1, title, body: text, labels, state: 'open' });
      return [201, issues.at(-1)];
    });
    api.patch(/\/repos\/acme\/alerts\/issues\/\d+/).reply(async (request: Request) => {
      const issue = issues.find((i) => i.number === Number(new URL(request.url).pathname.split('/').pop()))!;
      Object.assign(issue, (await request.json()) as object);
      return [200, issue];
    });

    expect(await upsertDriftIssue(thread, clean, { path: '.', whereWhole: where })).toMatchObject({ action: 'skipped' });
    expect(await upsertDriftIssue(thread, changed, { path: '.', whereWhole: where })).toEqual({ action: 'created', id: 2 });
    expect(issues[1]).toMatchObject({ title: 'alertform drift', labels: ['drift'], body: changed });
    expect(await upsertDriftIssue(thread, `${changed}\nmore`, { path: '.', whereWhole: where })).toEqual({ action: 'updated', id: 2 });
    expect(await upsertDriftIssue(thread, clean, { path: '.', whereWhole: where })).toEqual({ action: 'closed', id: 2 });
    expect(issues[1]).toMatchObject({ state: 'closed', body: clean });
    expect(issues).toHaveLength(2);
  });
});
