import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseMarker } from '../../../src/action/comment.js';
import { NO_CHANGE_HASH } from '../../../src/ci/post.js';
import { startFakeGitLab, type FakeGitLab } from '../../helpers/fake-gitlab.js';
import { createGitRepo, type TempGitRepo } from '../../helpers/git-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { writeDefinitionsDir } from '../../helpers/definitions-dir.js';
import { cliScript } from '../../helpers/source-entry.js';

// examples/ci/gitlab-ci.yml is what GitLab users copy: its jobs' scripts run here as GitLab's runner would (one
// shell, every line checked), with `alertform` on PATH, against our real server and a fake GitLab API.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const pipeline = parse(readFileSync(join(ROOT, 'examples/ci/gitlab-ci.yml'), 'utf8'));
const TOKEN = 'glpat-test-token-0123456789';
const PROJECT = '42';

/** A job's script as the runner runs it: `sh -e`, every entry in one shell. */
function runJob(job: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  const script = (pipeline[job].script as string[]).join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-e', '-c', script], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

describe('the GitLab CI example', { timeout: 180_000 }, () => {
  let server: TestServer;
  let gitlab: FakeGitLab;
  let repo: TempGitRepo;
  let env: NodeJS.ProcessEnv;
  let base: string;

  beforeAll(async () => {
    server = await startTestServer();
    // perPageMax 1: our note is found even when it is not on the first page.
    gitlab = await startFakeGitLab({ project: PROJECT, token: TOKEN, perPageMax: 1 });
    repo = await createGitRepo();
    base = await repo.commit({ 'README.md': 'alerts\n' }, 'start');
    writeDefinitionsDir(repo.dir, { alerts: 2, channels: 1, schedules: 0 });
    // Copied as users copy it: a CI file beside the definitions is not read as one.
    await repo.commit({ '.gitlab-ci.yml': readFileSync(join(ROOT, 'examples/ci/gitlab-ci.yml'), 'utf8') }, 'alerts');
    // `alertform` on PATH, run from the sources.
    const bin = join(repo.dir, '.bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'alertform'), cliScript());
    chmodSync(join(bin, 'alertform'), 0o755);
    writeFileSync(join(repo.dir, '.gitignore'), '.bin/\n*.md\nalertform-plan.json\n');
    env = {
      PATH: `${bin}:${process.env.PATH}`,
      ALERTFORM_URL: server.url,
      ALERTFORM_API_KEY: server.key,
      CI_API_V4_URL: gitlab.apiUrl,
      CI_PROJECT_ID: PROJECT,
      GITLAB_TOKEN: TOKEN,
    };
  });
  afterAll(async () => {
    await server?.close();
    await gitlab?.close();
    repo?.cleanup();
  });

  it('plans in merge request pipelines, applies the saved plan by hand there, checks drift on a schedule', () => {
    expect(pipeline['alertform-plan'].rules[0].if).toContain('merge_request_event');
    expect(pipeline['alertform-plan'].artifacts.paths).toContain('alertform-plan.json');
    // The reviewed plan or nothing: the plan job's artifact, by hand, and a merge waits for it.
    expect(pipeline['alertform-apply'].rules[0]).toMatchObject({ if: expect.stringContaining('merge_request_event'), when: 'manual', allow_failure: false });
    expect(pipeline['alertform-apply'].needs).toEqual(['alertform-plan']);
    expect(pipeline['alertform-apply'].script).toEqual(['alertform apply alertform-plan.json']);
    expect(pipeline['alertform-apply'].resource_group).toBe('alertform-apply');
    expect(pipeline['alertform-drift'].rules[0].if).toContain('schedule');
  });

  it('posts the plan as one merge-request note, then updates that note in place', async () => {
    const mr = { ...env, CI_MERGE_REQUEST_IID: '7', CI_MERGE_REQUEST_DIFF_BASE_SHA: base };
    // Someone else's note first: ours must not overwrite it.
    await fetch(`${gitlab.apiUrl}/projects/${PROJECT}/merge_requests/7/notes`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'LGTM' }),
    });
    const first = await runJob('alertform-plan', repo.dir, mr);
    expect(first.output).toContain('Created merge request !7');
    expect(first.code).toBe(0);
    const created = gitlab.notes('7');
    expect(created).toHaveLength(2);
    expect(created[0]!.body).toBe('LGTM');
    const note = { ...created[1]! };
    expect(note.body).toMatch(/^<!-- alertform-plan hash=[0-9a-f]{64} path=\. -->/);
    expect(note.body).toContain('3 to create');
    expect(note.body).toContain('#### Changed files');
    expect(note.body).toContain('`alerts.yaml`');
    // The API key never reaches GitLab.
    expect(note.body).not.toContain(server.key);

    // A second push: the same note says the new plan.
    await repo.commit({ 'alerts.yaml': readFileSync(join(repo.dir, 'alerts.yaml'), 'utf8').replace(/above_value: 90/, 'above_value: 97') });
    const second = await runJob('alertform-plan', repo.dir, mr);
    expect(second.output).toContain(`Updated merge request !7 (note ${note.id})`);
    const after = gitlab.notes('7');
    expect(after).toHaveLength(2);
    expect(after[1]!.id).toBe(note.id);
    expect(after[1]!.body).toContain('above_value');
    expect(after[1]!.body).toContain('97');
    expect(after[1]!.body).not.toBe(note.body);
    expect(gitlab.requests.every((r) => r.token === TOKEN)).toBe(true);
  });

  it('applies the reviewed plan, and nothing when the server changed since it was reviewed', async () => {
    const mr = { ...env, CI_MERGE_REQUEST_IID: '7', CI_MERGE_REQUEST_DIFF_BASE_SHA: base };
    expect((await runJob('alertform-plan', repo.dir, mr)).code).toBe(0);
    // Between review and apply, someone edits the server: the saved plan no longer says what apply would do.
    const hand = await server.request('POST', '/v2/alerts', { name: 'gen-0', metric: 'hand.made', alert_criteria: { type: 'above', above_value: 1 } });
    expect(hand.status).toBe(201);
    const refused = await runJob('alertform-apply', repo.dir, mr);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/stale|changed/);
    expect((await server.request('GET', '/v2/alerts/')).body.alerts.map((a: { name: string }) => a.name)).toEqual(['gen-0']);
    expect((await server.request('DELETE', `/v2/alerts/${hand.body.id}/`)).status).toBe(200);

    // Planned again and reviewed: applied as saved.
    expect((await runJob('alertform-plan', repo.dir, mr)).code).toBe(0);
    const applied = await runJob('alertform-apply', repo.dir, mr);
    expect(applied.output).toContain('3 done, 0 failed');
    expect(applied.code).toBe(0);
  });

  it('opens one drift issue while the server differs from git, updates it, and closes it once they match', async () => {
    // In step: the drift job passes and opens nothing.
    const clean = await runJob('alertform-drift', repo.dir, env);
    expect(clean.code).toBe(0);
    expect(clean.output).toContain('Posted nothing');
    expect(gitlab.issues).toHaveLength(0);

    // Someone adds an alert by hand under the pruned prefix: drift.
    expect((await server.request('POST', '/v2/alerts', { name: 'gen-by-hand', metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 } })).status).toBe(201);
    const drift = await runJob('alertform-drift', repo.dir, env);
    expect(drift.code).toBe(2);
    expect(gitlab.issues).toHaveLength(1);
    const issue = gitlab.issues[0]!;
    expect(issue).toMatchObject({ state: 'opened', title: 'alertform: the server differs from git', labels: ['alertform-drift'] });
    expect(issue.description).toContain('1 to delete');
    expect(parseMarker(issue.description)?.hash).not.toBe(NO_CHANGE_HASH);

    // Still drifting: the same issue, no second one.
    const again = await runJob('alertform-drift', repo.dir, env);
    expect(again.code).toBe(2);
    expect(again.output).toContain('Updated issue #1');
    expect(gitlab.issues).toHaveLength(1);

    // Planned and applied again (the merge request's two jobs): in step, and the issue closes with the clean plan as its text.
    const mr = { ...env, CI_MERGE_REQUEST_IID: '7', CI_MERGE_REQUEST_DIFF_BASE_SHA: base };
    expect((await runJob('alertform-plan', repo.dir, mr)).code).toBe(0);
    expect((await runJob('alertform-apply', repo.dir, mr)).code).toBe(0);
    const fixed = await runJob('alertform-drift', repo.dir, env);
    expect(fixed.code).toBe(0);
    expect(fixed.output).toContain('Closed issue #1');
    expect(gitlab.issues[0]).toMatchObject({ state: 'closed' });
    expect(gitlab.issues[0]!.description).toContain('No changes');
  });
});
