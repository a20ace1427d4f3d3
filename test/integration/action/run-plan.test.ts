import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatMarker, GITHUB_COMMENT_LIMIT, parseMarker } from '../../../src/action/comment.js';
import type { InvalidRun, PlannedRun, Reconciler } from '../../../src/action/port.js';
import { fakeRun, type ChangeSpec } from '../../unit/action/fake-plan.js';
import { runAction } from '../../../src/action/run.js';
import { createRunnerFiles, pullRequestEvent, runInProcess } from '../../helpers/action-run.js';
import { createGitRepo, type TempGitRepo } from '../../helpers/git-repo.js';
import { mockGitHub } from '../../helpers/github-mock.js';
import { nockForThisFile } from '../../helpers/nock-for-this-file.js';

nockForThisFile();

// The GitHub side of `plan` with a stand-in reconciler: comment upsert, cut, outputs, summary, changed files.
// The end-to-end runs against the real reconciler and server are in test/integration/action.

const API_KEY = 'af_key_4f9c1d2e8b7a6c5d';

const fakePlan = (changes: ChangeSpec[], hash = 'h1'): PlannedRun => fakeRun(changes, hash);

function reconcilerOf(result: () => PlannedRun | InvalidRun): Reconciler {
  return { plan: async () => result() };
}

describe('plan on a pull_request', () => {
  let repo: TempGitRepo;
  let base: string;
  let head: string;
  beforeAll(async () => {
    nock.disableNetConnect();
    repo = await createGitRepo();
    base = await repo.commit({ 'alerts/web.yaml': 'alerts: []\n', 'README.md': 'x\n' }, 'base');
    head = await repo.commit({ 'alerts/web.yaml': 'alerts: [{name: a}]\n', 'alerts/db.yaml': 'alerts: []\n', 'README.md': 'y\n' }, 'head');
  });
  afterAll(() => {
    repo.cleanup();
    nock.enableNetConnect();
  });
  afterEach(() => nock.cleanAll());

  const run = async (reconciler: Reconciler, inputs: Record<string, string> = {}, env: Record<string, string> = {}) => {
    const files = createRunnerFiles();
    try {
      const vars = files.env({
        eventName: 'pull_request',
        event: pullRequestEvent({ number: 7, baseSha: base, headSha: head }),
        inputs: { command: 'plan', path: '.', 'api-key': API_KEY, 'github-token': 'ghs_token123456', comment: 'true', ...inputs },
        env,
      });
      return await runInProcess(vars, files, () => runAction({ cwd: repo.dir, reconciler }));
    } finally {
      files.cleanup();
    }
  };

  it('creates the comment on the first run and updates that same comment on the second', async () => {
    const github = mockGitHub();
    github.addComment(7, 'Looks good to me');
    const changes: ChangeSpec[] = [{ action: 'create', kind: 'alert', name: 'a', file: 'alerts/web.yaml' }];
    const first = await run(reconcilerOf(() => fakePlan(changes, 'hash1')));
    expect(first.exitCode).toBe(0);
    expect(github.commentsOf(7)).toHaveLength(2);
    const second = await run(reconcilerOf(() => fakePlan([...changes, { action: 'update', kind: 'alert', name: 'b', file: 'alerts/web.yaml' }], 'hash2')));
    expect(second.exitCode).toBe(0);
    const comments = github.commentsOf(7);
    expect(comments).toHaveLength(2);
    expect(comments[0]!.body).toBe('Looks good to me');
    expect(parseMarker(comments[1]!.body)).toEqual({ hash: 'hash2', path: '.' });
    expect(comments[1]!.body).toContain('**Plan: 1 to create, 1 to update, 0 to mute, 0 to delete.**');
    expect(github.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(github.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expect(second.outputs['comment-id']).toBe(first.outputs['comment-id']);
    expect(github.requests.every((r) => r.authorization === 'token ghs_token123456')).toBe(true);
    github.done();
  });

  it('names which changed file produced which change, and files with no effect', async () => {
    const github = mockGitHub();
    const result = await run(
      reconcilerOf(() =>
        fakePlan([
          { action: 'create', kind: 'alert', name: 'a', file: `${repo.dir}/alerts/web.yaml` },
          { action: 'delete', kind: 'alert', name: 'gone' },
        ]),
      ),
    );
    expect(result.exitCode).toBe(0);
    const body = github.commentsOf(7)[0]!.body;
    expect(body).toContain('| `alerts/web.yaml` | + alert `a` |');
    expect(body).toContain('| `alerts/db.yaml` | no change to the plan |');
    expect(body).not.toContain('README.md');
    expect(body).toMatch(/Not from a file this pull request changed.*- alert `gone`/);
    // The summary line first, then the file table, then the collapsed details.
    expect(body.indexOf('**Plan: 1 to create')).toBeLessThan(body.indexOf('#### Changed files'));
    expect(body.indexOf('#### Changed files')).toBeLessThan(body.indexOf('<details>'));
    github.done();
  });

  it('sets the outputs, writes the plan file in RUNNER_TEMP and the uncut plan to the job summary', async () => {
    const github = mockGitHub();
    const changes: ChangeSpec[] = [
      { action: 'create', kind: 'alert', name: 'a', file: 'alerts/web.yaml' },
      { action: 'mute', kind: 'alert', name: 'm', file: 'alerts/web.yaml' },
      { action: 'delete', kind: 'channel', name: 'old' },
    ];
    const result = await run(reconcilerOf(() => fakePlan(changes, 'abc')));
    expect(result.outputs).toMatchObject({ 'has-changes': 'true', 'to-create': '1', 'to-update': '0', 'to-delete': '1', 'to-mute': '1', 'plan-hash': 'abc' });
    expect(result.outputs['plan-file']).toMatch(/alertform-runner-.*\/alertform-plan\.json$/);
    expect(result.summary).toContain('**Plan: 1 to create, 0 to update, 1 to mute, 1 to delete.**');
    expect(result.summary).not.toContain('<!-- alertform-plan');
    github.done();
  });

  it('cuts a 3,000-change comment under the limit while the job summary keeps all of it', async () => {
    const github = mockGitHub();
    const changes: ChangeSpec[] = Array.from({ length: 3000 }, (_, i) => ({ action: 'create' as const, kind: 'alert', name: `service-${i}-latency`, file: 'alerts/web.yaml' }));
    const result = await run(reconcilerOf(() => fakePlan(changes)));
    expect(result.exitCode).toBe(0);
    const body = github.commentsOf(7)[0]!.body;
    expect(body.length).toBeLessThan(GITHUB_COMMENT_LIMIT);
    expect(body).toContain('and 2980 more');
    expect(body).toContain('https://github.com/acme/alerts/actions/runs/4242');
    expect(result.summary).toContain('service-2999-latency');
    expect(result.summary.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
    github.done();
  });

  it('fails the job on invalid definitions and shows every problem with file:line in the comment', async () => {
    const github = mockGitHub();
    const result = await run(
      reconcilerOf(() => ({
        status: 'invalid',
        problems: [
          { location: { file: 'alerts/web.yaml', line: 3, column: 5 }, path: 'alerts.0.metric', message: 'is required' },
          { location: { file: 'alerts/db.yaml', line: 9, column: 1 }, path: '', message: 'unknown top-level key "alert"' },
        ],
      })),
    );
    expect(result.exitCode).toBe(1);
    const body = github.commentsOf(7)[0]!.body;
    expect(parseMarker(body)?.hash).toBe('invalid');
    expect(body).toContain('alerts/web.yaml:3:5  alerts.0.metric  is required');
    expect(body).toContain('alerts/db.yaml:9:1  .  unknown top-level key "alert"');
    expect(result.log).toContain('::error::the definitions do not validate');
    // Annotations put each problem on its line in the PR's diff.
    expect(result.log).toContain('::error title=alertform,file=alerts/web.yaml,line=3,col=5::alerts.0.metric  is required');
    github.done();
  });

  it('talks to GitHub Enterprise at GITHUB_API_URL', async () => {
    const github = mockGitHub({ apiUrl: 'https://ghe.example.com/api/v3' });
    const result = await run(reconcilerOf(() => fakePlan([])), {}, { GITHUB_API_URL: 'https://ghe.example.com/api/v3' });
    expect(result.exitCode).toBe(0);
    expect(github.commentsOf(7)[0]!.body).toContain('No changes');
    expect(github.requests.map((r) => r.path).every((path) => path.startsWith('/api/v3/'))).toBe(true);
    expect(github.requests.find((r) => r.path.includes('/comments'))!.path).toMatch(/^\/api\/v3\/repos\/acme\/alerts\/issues\/7\/comments/);
    github.done();
  });

  it('finds its comment on a later page among many others', async () => {
    const github = mockGitHub();
    for (let i = 0; i < 130; i++) github.addComment(7, `comment ${i}`);
    github.addComment(7, `${formatMarker({ hash: 'old', path: '.' })}\nold plan`);
    await run(reconcilerOf(() => fakePlan([], 'new')));
    const ours = github.commentsOf(7).filter((c) => parseMarker(c.body));
    expect(ours).toHaveLength(1);
    expect(parseMarker(ours[0]!.body)?.hash).toBe('new');
    github.done();
  });

  it('masks the API key and interpolated secrets in the comment, outputs, summary and log', async () => {
    const github = mockGitHub();
    const slack = 'https://hooks.slack.com/services/T000/B000/XXXXSECRET';
    await repo.commit({ 'channels.yaml': 'channels:\n  - {description: ops, type: slack, destination: "${SLACK_URL}"}\n' }, 'slack');
    const leaky = fakePlan([{ action: 'create', kind: 'channel', name: 'ops', file: 'channels.yaml' }]);
    // A planner bug that left secrets in fields it does not mark sensitive must still not reach GitHub.
    const change = leaky.plan.changes[0]!;
    if (change.action === 'create') change.after = { description: `ops key ${API_KEY}`, type: 'email', destination: slack, auto_resolve: false, template: null };
    const result = await run(reconcilerOf(() => leaky), { 'server-url': `https://user:${API_KEY}@alerts.example.com` }, { SLACK_URL: slack });
    const body = github.commentsOf(7)[0]!.body;
    expect(result.planFile).toBeDefined();
    for (const text of [body, result.summary, result.planFile!, JSON.stringify(result.outputs), result.log.replace(/^::add-mask::.*$/gm, '')]) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(slack);
    }
    expect(body).toContain('+ destination: "(sensitive)"');
    expect(body).toContain('+ description: "ops key (sensitive)"');
    expect(result.log).toContain(`::add-mask::${API_KEY}`);
    github.done();
  });
});

describe('plan when GitHub refuses the comment', () => {
  it('fails with the permission to add, and still writes the job summary', async () => {
    nock.disableNetConnect();
    const repo = await createGitRepo();
    const sha = await repo.commit({ 'a.yaml': 'alerts: []\n' });
    const scope = nock('https://api.github.com')
      .get(/\/repos\/acme\/alerts\/issues\/3\/comments/)
      .reply(403, { message: 'Resource not accessible by integration' });
    const files = createRunnerFiles();
    try {
      const vars = files.env({
        eventName: 'pull_request',
        event: pullRequestEvent({ number: 3, baseSha: sha, headSha: sha }),
        inputs: { command: 'plan', 'github-token': 'ghs_readonly_token' },
      });
      const result = await runInProcess(vars, files, () => runAction({ cwd: repo.dir, reconciler: reconcilerOf(() => fakePlan([])) }));
      expect(result.exitCode).toBe(1);
      expect(result.log).toContain('GitHub refused the plan comment on #3 (HTTP 403)');
      expect(result.log).toContain('pull-requests: write');
      expect(result.summary).toContain('Plan: 0 to create');
      expect(scope.isDone()).toBe(true);
    } finally {
      files.cleanup();
      repo.cleanup();
      nock.cleanAll();
      nock.enableNetConnect();
    }
  });
});

describe('plan when the plan cannot be computed', () => {
  it('fails, and the comment says why without the key from alertform.yaml or the inputs', async () => {
    nock.disableNetConnect();
    const repo = await createGitRepo();
    const fileKey = 'yamlkey_9f8e7d6c5b4a';
    const sha = await repo.commit({ 'alertform.yaml': `server: https://${fileKey}@alerts.example.com\n`, 'a.yaml': 'alerts: []\n' });
    const github = mockGitHub();
    const files = createRunnerFiles();
    try {
      const vars = files.env({
        eventName: 'pull_request',
        event: pullRequestEvent({ number: 5, baseSha: sha, headSha: sha }),
        inputs: { command: 'plan', 'api-key': API_KEY, 'github-token': 'ghs_token123456' },
      });
      const failing: Reconciler = {
        plan: async () => {
          throw new Error(`cannot reach https://${fileKey}@alerts.example.com (key ${API_KEY}): ECONNREFUSED`);
        },
      };
      const result = await runInProcess(vars, files, () => runAction({ cwd: repo.dir, reconciler: failing }));
      expect(result.exitCode).toBe(1);
      const body = github.commentsOf(5)[0]!.body;
      expect(parseMarker(body)?.hash).toBe('error');
      expect(body).toContain('The plan could not be computed');
      expect(body).toContain('ECONNREFUSED');
      for (const text of [body, result.log.replace(/^::add-mask::.*$/gm, '')]) {
        expect(text).not.toContain(fileKey);
        expect(text).not.toContain(API_KEY);
      }
    } finally {
      files.cleanup();
      repo.cleanup();
      github.done();
      nock.enableNetConnect();
    }
  });
});
