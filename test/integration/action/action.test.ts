import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GITHUB_COMMENT_LIMIT, parseMarker } from '../../../src/action/comment.js';
import { runAction } from '../../../src/action/run.js';
import { createRunnerFiles, pullRequestEvent, pushEvent, runInProcess, type ActionRunResult } from '../../helpers/action-run.js';
import { createGitRepo, type TempGitRepo } from '../../helpers/git-repo.js';
import { mockGitHub } from '../../helpers/github-mock.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { nockForThisFile } from '../../helpers/nock-for-this-file.js';

nockForThisFile();

// The Action end to end as GitHub runs it: the runner's env (INPUT_*, a real event payload, GITHUB_OUTPUT,
// GITHUB_STEP_SUMMARY, RUNNER_TEMP), a real git repository, the real reconciler against the real server. GitHub's
// REST API is nock (so these runs are in-process: nock only intercepts its own process); the last tests spawn
// the committed bundle the way the runner does, with no GitHub calls.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUNDLE = `${ROOT}action/dist/index.mjs`;
const SLACK_URL = 'https://hooks.slack.com/services/T0AAAA/B0BBBB/s3cretW3bhookT0ken';

const CHANNELS = `channels:
  - description: ops-email
    type: email
    destination: ops@example.com
  - description: ops-slack
    type: slack
    destination: \${SLACK_URL}
`;

function alert(name: string, above: number, channel = 'ops-email'): string {
  return `  - name: ${name}
    metric: prod.${name}.p99
    alert_criteria:
      type: above
      above_value: ${above}
    notification_channels: [${channel}]
`;
}

describe('the Action against a real server and a real git repository', () => {
  let server: TestServer;
  let repo: TempGitRepo;
  let base: string;
  const published: string[] = [];
  let github: ReturnType<typeof mockGitHub>;

  /** One run of the Action at commit `sha` (checked out), as the runner would start it. */
  async function run(options: { sha: string; eventName: string; event: unknown; inputs?: Record<string, string>; env?: Record<string, string> }): Promise<ActionRunResult> {
    await repo.git.checkout(['-q', options.sha]);
    const files = createRunnerFiles();
    try {
      const vars = files.env({
        eventName: options.eventName,
        event: options.event,
        inputs: { path: '.', 'server-url': server.url, 'api-key': server.key, 'github-token': 'ghs_integration_token', ...options.inputs },
        env: { SLACK_URL, ...options.env },
      });
      const result = await runInProcess(vars, files, () => runAction({ cwd: repo.dir }));
      published.push(result.summary, result.log.replace(/^::add-mask::.*$/gm, ''), JSON.stringify(result.outputs), result.planFile ?? '');
      return result;
    } finally {
      files.cleanup();
    }
  }

  const planPr = (number: number, head: string, inputs: Record<string, string> = {}) =>
    run({ sha: head, eventName: 'pull_request', event: pullRequestEvent({ number, baseSha: base, headSha: head }), inputs: { command: 'plan', ...inputs } });
  const applyPush = (sha: string, inputs: Record<string, string> = {}) =>
    run({ sha, eventName: 'push', event: pushEvent({ before: base, after: sha }), inputs: { command: 'apply', ...inputs } });

  const comments = (issue: number) => {
    const list = github.commentsOf(issue);
    published.push(...list.map((c) => c.body));
    return list;
  };

  beforeAll(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1/);
    github = mockGitHub();
    server = await startTestServer();
    repo = await createGitRepo();
    base = await repo.commit({ 'channels.yaml': CHANNELS, 'alerts/web.yaml': `alerts:\n${alert('web-latency', 250)}`, 'README.md': 'alerts\n' }, 'base');
    // Bring the server to the base state: a push with no reviewed plan, allowed explicitly.
    const seeded = await applyPush(base, { 'github-token': '', 'allow-plan-change': 'true' });
    expect(seeded.exitCode, seeded.log).toBe(0);
  });

  afterAll(async () => {
    github.done();
    await server?.close();
    repo?.cleanup();
  });

  let pr7Head: string;
  let pr8Head: string;

  it('creates one PR comment on the first run and updates it on the second, naming which file made which change', async () => {
    await repo.git.checkout(['-q', base]);
    pr7Head = await repo.commit(
      {
        'alerts/web.yaml': `alerts:\n${alert('web-latency', 300)}${alert('web-errors', 5, 'ops-slack')}`,
        'alerts/db.yaml': `alerts:\n${alert('db-replication-lag', 30)}`,
        'README.md': 'alerts, now with db\n',
      },
      'PR 7',
    );
    const first = await planPr(7, pr7Head);
    expect(first.exitCode, first.log).toBe(0);
    expect(comments(7)).toHaveLength(1);
    const second = await planPr(7, pr7Head);
    expect(second.exitCode, second.log).toBe(0);
    const [comment] = comments(7);
    expect(comments(7)).toHaveLength(1);
    expect(github.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expect(comment!.body).toContain('**Plan: 2 to create, 1 to update, 0 to mute, 0 to delete.**');
    expect(comment!.body).toMatch(/\| `alerts\/web\.yaml` \| (?=.*\+ alert `web-errors`)(?=.*~ alert `web-latency`).* \|/);
    expect(comment!.body).toContain('| `alerts/db.yaml` | + alert `db-replication-lag` |');
    // Sources are named as in the repository, never by the runner's absolute path.
    expect(comment!.body).toContain('alerts/db.yaml:2');
    expect(comment!.body).not.toContain(repo.dir);
    expect(parseMarker(comment!.body)?.hash).toBe(second.outputs['plan-hash']);
    expect(second.outputs).toMatchObject({ 'has-changes': 'true', 'to-create': '2', 'to-update': '1', 'to-delete': '0', 'to-mute': '0' });
    expect(JSON.parse(second.planFile!).formatVersion).toBe(1);
    expect(second.summary).toContain('**Plan: 2 to create, 1 to update, 0 to mute, 0 to delete.**');
  });

  it('applies the merged PR when the fresh plan is the reviewed one, and the next plan is empty', async () => {
    github.mergePull(7, pr7Head);
    const applied = await applyPush(pr7Head);
    expect(applied.exitCode, applied.log).toBe(0);
    expect(applied.outputs['plan-changed']).toBe('false');
    expect(applied.summary).toContain('3 done, 0 failed, 0 skipped');
    const alerts = await server.request('GET', '/v2/alerts/');
    const names = (alerts.body.alerts as { name: string }[]).map((a) => a.name).sort();
    expect(names).toEqual(['db-replication-lag', 'web-errors', 'web-latency']);
    expect(comments(7)[0]!.body).toContain(`✅ Applied from commit ${pr7Head.slice(0, 12)}`);
    const again = await applyPush(pr7Head);
    expect(again.outputs['has-changes']).toBe('false');
  });

  it('refuses to apply a plan that changed since the review, then applies it when allowed', async () => {
    await repo.git.checkout(['-q', pr7Head]);
    const head = await repo.commit({ 'alerts/db.yaml': `alerts:\n${alert('db-replication-lag', 60)}` }, 'PR 8');
    pr8Head = head;
    const planned = await planPr(8, head);
    expect(planned.exitCode, planned.log).toBe(0);
    github.mergePull(8, head);
    // Someone edits the alert by hand between the review and the merge.
    const list = await server.request('GET', '/v2/alerts/');
    const lag = (list.body.alerts as { id: string; name: string }[]).find((a) => a.name === 'db-replication-lag')!;
    const edited = await server.request('PUT', `/v2/alerts/${lag.id}`, { info: 'edited by hand' });
    expect(edited.status).toBeLessThan(300);

    const refused = await applyPush(head);
    expect(refused.exitCode).toBe(1);
    expect(refused.outputs['plan-changed']).toBe('true');
    expect(refused.log).toMatch(/::error::refusing to apply: the plan differs from the one reviewed on #8/);
    const unchanged = await server.request('GET', `/v2/alerts/${lag.id}`);
    expect(unchanged.body.alert_criteria.above_value).toBe(30);

    const allowed = await applyPush(head, { 'allow-plan-change': 'true' });
    expect(allowed.exitCode, allowed.log).toBe(0);
    const after = await server.request('GET', `/v2/alerts/${lag.id}`);
    expect(after.body.alert_criteria.above_value).toBe(60);
    expect(comments(8)[0]!.body).toContain('✅ Applied (a fresh plan, not the one above: allow-plan-change)');
  });

  it('prunes what alertform.yaml owns and no file defines, unless the prune input says false', async () => {
    await repo.git.checkout(['-q', pr8Head]);
    const head = await repo.commit({ 'alertform.yaml': 'prune:\n  match: ["web-*"]\n' }, 'PR 12');
    const orphan = await server.request('POST', '/v2/alerts/', { name: 'web-orphan', metric: 'prod.orphan', alert_criteria: { type: 'above', above_value: 1 } });
    expect(orphan.status).toBe(201);
    const pruning = await planPr(12, head);
    expect(pruning.exitCode, pruning.log).toBe(0);
    expect(pruning.outputs['to-delete']).toBe('1');
    expect(comments(12)[0]!.body).toMatch(/Not from a file this pull request changed.*- alert `web-orphan`/);
    const notPruning = await planPr(12, head, { prune: 'false' });
    expect(notPruning.outputs['to-delete']).toBe('0');
    await server.request('DELETE', `/v2/alerts/${orphan.body.id}`);
  });

  it('fails the job on invalid definitions and shows the errors with file:line in the comment', async () => {
    await repo.git.checkout(['-q', base]);
    const head = await repo.commit({ 'alerts/bad.yaml': 'alerts:\n  - name: broken\n    metric: x\n    alert_criteria:\n      type: sideways\n' }, 'PR 9');
    const result = await planPr(9, head);
    expect(result.exitCode).toBe(1);
    const [comment] = comments(9);
    expect(parseMarker(comment!.body)?.hash).toBe('invalid');
    expect(comment!.body).toMatch(/alerts\/bad\.yaml:\d+:\d+ /);
    expect(result.log).toMatch(/::error::the definitions do not validate/);
  });

  it('cuts the comment of a 3,000-alert plan under 65,536 characters and keeps the whole plan in the summary', async () => {
    await repo.git.checkout(['-q', base]);
    const many = Array.from({ length: 3000 }, (_, i) => alert(`bulk-service-${String(i).padStart(4, '0')}-latency`, 100 + i)).join('');
    const head = await repo.commit({ 'alerts/bulk.yaml': `alerts:\n${many}` }, 'PR 10');
    const result = await planPr(10, head);
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs['to-create']).toBe('3000');
    const [comment] = comments(10);
    expect(comment!.body.length).toBeLessThan(GITHUB_COMMENT_LIMIT);
    expect(comment!.body).toContain('Plan: 3000 to create');
    expect(comment!.body).toContain('too long for one GitHub comment');
    expect(result.summary).toContain('bulk-service-2999-latency');
  });

  it('runs from the committed bundle as the runner does: node action/dist/index.mjs', async () => {
    expect(existsSync(BUNDLE)).toBe(true);
    // PR 8's head is what the server holds now: a plan without changes.
    await repo.git.checkout(['-q', pr8Head]);
    const files = createRunnerFiles();
    try {
      const env = {
        ...process.env,
        ...files.env({
          eventName: 'pull_request',
          event: pullRequestEvent({ number: 11, baseSha: base, headSha: pr8Head }),
          inputs: { command: 'plan', path: '.', 'server-url': server.authUrl, comment: 'false' },
          env: { SLACK_URL },
        }),
      };
      const { code, log } = await new Promise<{ code: number; log: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [BUNDLE], { cwd: repo.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('error', reject);
        child.on('close', (exit) => resolve({ code: exit ?? -1, log: out }));
      });
      const { outputs, summary, planFile } = files.read();
      published.push(log.replace(/^::add-mask::.*$/gm, ''), summary, JSON.stringify(outputs), planFile ?? '');
      expect(code, log).toBe(0);
      expect(outputs['has-changes']).toBe('false');
      expect(summary).toContain('Plan: 0 to create, 0 to update, 0 to mute, 0 to delete.');
      expect(log).toContain('comment: false');
    } finally {
      files.cleanup();
    }
  });

  it('never publishes the API key or an interpolated secret: comments, outputs, summaries, plan files, logs', () => {
    for (const issue of [7, 8, 9, 10]) comments(issue);
    expect(published.length).toBeGreaterThan(20);
    for (const text of published) {
      expect(text).not.toContain(server.key);
      expect(text).not.toContain(SLACK_URL);
    }
  });
});
