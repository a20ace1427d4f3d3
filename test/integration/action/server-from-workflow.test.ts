import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMarker } from '../../../src/action/comment.js';
import { runAction } from '../../../src/action/run.js';
import { createRunnerFiles, pullRequestEvent, runInProcess, type ActionRunResult } from '../../helpers/action-run.js';
import { createGitRepo, type TempGitRepo } from '../../helpers/git-repo.js';
import { mockGitHub } from '../../helpers/github-mock.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { nockForThisFile } from '../../helpers/nock-for-this-file.js';

nockForThisFile();

// Issue 12, item 5: the Action sends the API key only to a server the workflow names (the server-url input or
// ALERTFORM_URL), never to one named by the checkout, which a pull request can edit. The "attacker" is a real HTTP
// server on 127.0.0.1:0 that records every request it gets; the PR's alertform.yaml points at it.

describe('the Action takes the server only from the workflow', () => {
  let attacker: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let server: TestServer;
  let repo: TempGitRepo;
  let base: string;
  let head: string;
  let github: ReturnType<typeof mockGitHub>;

  const outerUrl = process.env.ALERTFORM_URL;

  beforeAll(async () => {
    // Unset, not empty: an empty ALERTFORM_URL would hide the bug (it stopped the old `??` chain).
    delete process.env.ALERTFORM_URL;
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1/);
    github = mockGitHub();
    attacker = await startWebhookReceiver();
    server = await startTestServer();
    repo = await createGitRepo();
    base = await repo.commit({ 'alerts.yaml': 'alerts: []\n' }, 'base');
    // The pull request adds an alert and names the attacker's server, with and without a key of its own.
    head = await repo.commit(
      {
        'alertform.yaml': `server: ${attacker.url}\n`,
        'alerts.yaml': 'alerts:\n  - name: web-latency\n    metric: prod.web.p99\n    alert_criteria: {type: above, above_value: 250}\n',
      },
      'PR 21: point alertform.yaml elsewhere',
    );
  });

  afterAll(async () => {
    if (outerUrl !== undefined) process.env.ALERTFORM_URL = outerUrl;
    await attacker?.close();
    await server?.close();
    repo?.cleanup();
  });

  async function planPr(inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRunResult> {
    await repo.git.checkout(['-q', head]);
    const files = createRunnerFiles();
    try {
      const vars = files.env({
        eventName: 'pull_request',
        event: pullRequestEvent({ number: 21, baseSha: base, headSha: head }),
        inputs: { command: 'plan', path: '.', 'api-key': server.key, 'github-token': 'ghs_integration_token', ...inputs },
        env,
      });
      return await runInProcess(vars, files, () => runAction({ cwd: repo.dir }));
    } finally {
      files.cleanup();
    }
  }

  it('fails with a clear message, and sends nothing to the server alertform.yaml names, when the workflow names none', async () => {
    const result = await planPr({ 'server-url': '' });
    // First what the attacker saw: no request at all, so no Authorization header carrying the key.
    expect(attacker.received.map((r) => `${r.method} ${r.path} authorization=${r.headers.authorization ?? 'none'}`)).toEqual([]);
    expect(result.exitCode).toBe(1);
    expect(result.log).toMatch(/::error::no server: set the server-url input or ALERTFORM_URL in the workflow/);
    expect(result.log).toContain('never takes the server from alertform.yaml');
    const comment = github.commentsOf(21)[0]!;
    expect(parseMarker(comment.body)?.hash).toBe('error');
    expect(comment.body).toContain('no server: set the server-url input or ALERTFORM_URL');
  });

  it('plans against the server-url input and sends nothing to the one alertform.yaml names', async () => {
    const result = await planPr({ 'server-url': server.url });
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs['to-create']).toBe('1');
    expect(attacker.received).toEqual([]);
  });

  it('plans against ALERTFORM_URL from the workflow env and sends nothing to the one alertform.yaml names', async () => {
    const result = await planPr({ 'server-url': '' }, { ALERTFORM_URL: server.url });
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs['to-create']).toBe('1');
    expect(attacker.received).toEqual([]);
  });

  it('publishes names and descriptions taken from the environment as (sensitive) only', async () => {
    const tenant = 'tenant-wf-5e6f7a8b';
    const pager = 'pager-wf-1c2d3e4f';
    await repo.git.checkout(['-q', head]);
    head = await repo.commit(
      {
        'alerts.yaml':
          'channels:\n  - {description: "${PAGER}", type: email, destination: ops@example.com}\n' +
          'alerts:\n  - name: "cpu-${TENANT}"\n    metric: prod.cpu\n    alert_criteria: {type: above, above_value: 90}\n    notification_channels: ["${PAGER}"]\n',
      },
      'PR 21: secret names',
    );
    const result = await planPr({ 'server-url': server.url }, { TENANT: tenant, PAGER: pager });
    expect(result.exitCode, result.log).toBe(0);
    const comment = github.commentsOf(21)[0]!.body;
    expect(comment).toContain('+ create alert `(sensitive)`');
    for (const text of [comment, result.summary, result.planFile!, JSON.stringify(result.outputs), result.log.replace(/^::add-mask::.*$/gm, '')]) {
      expect(text).not.toContain(tenant);
      expect(text).not.toContain(pager);
    }
  });
});
