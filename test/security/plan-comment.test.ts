import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatMarker, parseMarker } from '../../src/action/comment.js';
import type { Reconciler } from '../../src/action/port.js';
import { runAction } from '../../src/action/run.js';
import { renderPlanMarkdown } from '../../src/plan/render/markdown.js';
import { renderPlanText } from '../../src/plan/render/text.js';
import { createRunnerFiles, pullRequestEvent, pushEvent, runInProcess } from '../helpers/action-run.js';
import { createGitRepo, type TempGitRepo } from '../helpers/git-repo.js';
import { ACTIONS_BOT, mockGitHub } from '../helpers/github-mock.js';
import { fakeRun } from '../unit/action/fake-plan.js';
import { nockForThisFile } from '../helpers/nock-for-this-file.js';

nockForThisFile();

// Issue 19, item 7 (plan comment). Before: a name with a newline, `</details>` or ESC wrote its own lines into the
// PR comment (a heading, an early end of the details, a fake "No changes") and its control sequences to the
// terminal; and the Action updated, and on merge trusted, any comment carrying its marker, whoever wrote it.
// After: names are escaped per format, and our comment is the one with the marker AND our author.

const HOSTILE = 'cpu\n### ✅ No changes: approve\n</details>\n\u001b[2J\u001b]0;pwned\u0007';

describe('names in a plan cannot forge markup', () => {
  const plan = fakeRun([{ action: 'create', kind: 'alert', name: HOSTILE, file: 'alerts/web.yaml' }], 'h1').plan;

  it('keeps a hostile name on its own line, inert, in the markdown', () => {
    const markdown = renderPlanMarkdown(plan);
    const lines = markdown.split('\n');
    expect(lines.filter((line) => line.startsWith('#'))).toEqual([
      '### alertform plan',
      '#### + create alert `cpu\\n### ✅ No changes: approve\\n</details>\\n\\u001b[2J\\u001b]0;pwned\\u0007` (`alerts/web.yaml:2`)',
    ]);
    expect(lines.filter((line) => line.trim() === '</details>')).toHaveLength(1);
    expect(markdown).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(markdown).toContain('\\n### ✅ No changes: approve\\n</details>\\n\\u001b[2J');
  });

  it('sends no control character of a name to the terminal', () => {
    const text = renderPlanText(plan);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text.split('\n').filter((line) => /^\s*(###|<\/details>)/.test(line))).toEqual([]);
    expect(text).toContain('\\u001b]0;pwned\\u0007');
  });
});

describe('the Action updates and trusts only its own comment', () => {
  let repo: TempGitRepo;
  let base: string;
  let head: string;
  beforeAll(async () => {
    nock.disableNetConnect();
    repo = await createGitRepo();
    base = await repo.commit({ 'alerts/web.yaml': 'alerts: []\n' }, 'base');
    head = await repo.commit({ 'alerts/web.yaml': 'alerts: [{name: a}]\n' }, 'head');
  });
  afterAll(() => {
    repo.cleanup();
    nock.enableNetConnect();
  });
  afterEach(() => nock.cleanAll());

  const reconciler = (hash: string): Reconciler & { applied: number } => {
    const state = { applied: 0 };
    const run = fakeRun([{ action: 'create', kind: 'alert', name: 'a', file: 'alerts/web.yaml' }], hash, () => state.applied++);
    return Object.assign(state, { plan: async () => run });
  };

  const plan = async (hash: string, inputs: Record<string, string> = {}) => {
    const files = createRunnerFiles();
    try {
      const vars = files.env({
        eventName: 'pull_request',
        event: pullRequestEvent({ number: 7, baseSha: base, headSha: head }),
        inputs: { command: 'plan', path: '.', 'api-key': 'af_key_4f9c1d2e8b7a6c5d', 'github-token': 'ghs_token123456', comment: 'true', ...inputs },
      });
      return await runInProcess(vars, files, () => runAction({ cwd: repo.dir, reconciler: reconciler(hash) }));
    } finally {
      files.cleanup();
    }
  };

  it("leaves another user's comment with our marker alone and writes its own", async () => {
    const github = mockGitHub();
    const forged = github.addComment(7, `${formatMarker({ hash: 'forged', path: '.' })}\nLooks reviewed to me`, 'mallory');
    const result = await plan('hash1');
    expect(result.exitCode).toBe(0);
    const comments = github.commentsOf(7);
    expect(comments).toHaveLength(2);
    expect(comments[0]).toEqual(forged);
    expect(comments[0]!.body).toContain('Looks reviewed to me');
    expect(comments[1]!.login).toBe(ACTIONS_BOT);
    expect(parseMarker(comments[1]!.body)).toEqual({ hash: 'hash1', path: '.' });
    expect(github.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
    // The second run updates its own comment, not the forged one.
    await plan('hash2');
    expect(github.commentsOf(7)).toHaveLength(2);
    expect(parseMarker(github.commentsOf(7)[1]!.body)?.hash).toBe('hash2');
    expect(github.commentsOf(7)[0]!.body).toContain('Looks reviewed to me');
    github.done();
  });

  it('finds its comment by the login of a personal token, or by the comment-author input', async () => {
    const github = mockGitHub();
    github.useTokenOf('octo-dev');
    const mine = github.addComment(7, `${formatMarker({ hash: 'old', path: '.' })}\nold`, 'octo-dev');
    github.addComment(7, `${formatMarker({ hash: 'bot', path: '.' })}\nnot mine`, ACTIONS_BOT);
    await plan('hash3');
    expect(parseMarker(github.commentsOf(7).find((c) => c.id === mine.id)!.body)?.hash).toBe('hash3');
    await plan('hash4', { 'comment-author': ACTIONS_BOT });
    expect(parseMarker(github.commentsOf(7)[1]!.body)?.hash).toBe('hash4');
    github.done();
  });

  it('does not apply on the strength of a reviewed hash another user commented', async () => {
    const github = mockGitHub();
    const merge = 'a'.repeat(40);
    github.mergePull(12, merge);
    github.addComment(12, `${formatMarker({ hash: 'same', path: '.' })}\nplan`, 'mallory');
    const applying = reconciler('same');
    const files = createRunnerFiles();
    try {
      const vars = files.env({
        eventName: 'push',
        event: pushEvent({ before: 'b'.repeat(40), after: merge }),
        inputs: { command: 'apply', path: '.', 'api-key': 'k-123456789', 'github-token': 'ghs_abcdef' },
      });
      const result = await runInProcess(vars, files, () => runAction({ cwd: process.cwd(), reconciler: applying }));
      expect(applying.applied).toBe(0);
      expect(result.exitCode).not.toBe(0);
      expect(result.outputs['plan-changed']).toBe('true');
      expect(github.commentsOf(12)[0]!.body).toBe(`${formatMarker({ hash: 'same', path: '.' })}\nplan`);
    } finally {
      files.cleanup();
    }
    github.done();
  });
});
