import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMarker } from '../../../src/action/comment.js';
import type { Reconciler } from '../../../src/action/port.js';
import { fakeRun } from './fake-plan.js';
import { runAction } from '../../../src/action/run.js';
import { createRunnerFiles, pushEvent, runInProcess } from '../../helpers/action-run.js';
import { mockGitHub } from '../../helpers/github-mock.js';

// The GitHub side of `apply` with a stand-in reconciler: finding the reviewed plan, refusing a changed one.

const MERGE_SHA = 'a'.repeat(40);

function recordingReconciler(hash: string, changeCount = 1): Reconciler & { applied: number } {
  const state = { applied: 0 };
  const run = fakeRun(
    Array.from({ length: changeCount }, (_, i) => ({ action: 'create' as const, kind: 'alert' as const, name: `a${i}` })),
    hash,
    () => state.applied++,
  );
  return Object.assign(state, { plan: async () => run });
}

async function apply(reconciler: Reconciler, inputs: Record<string, string> = {}) {
  const files = createRunnerFiles();
  try {
    const vars = files.env({
      eventName: 'push',
      event: pushEvent({ before: 'b'.repeat(40), after: MERGE_SHA }),
      inputs: { command: 'apply', path: '.', 'api-key': 'k-123456789', 'github-token': 'ghs_abcdef', ...inputs },
    });
    return await runInProcess(vars, files, () => runAction({ cwd: process.cwd(), reconciler }));
  } finally {
    files.cleanup();
  }
}

describe('apply on a push to main', () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());

  it('applies when the fresh plan has the hash commented on the merged PR', async () => {
    const github = mockGitHub();
    github.mergePull(12, MERGE_SHA);
    github.addComment(12, `${formatMarker({ hash: 'same', path: '.' })}\nplan`);
    const reconciler = recordingReconciler('same');
    const result = await apply(reconciler);
    expect(result.exitCode).toBe(0);
    expect(reconciler.applied).toBe(1);
    expect(result.outputs['plan-changed']).toBe('false');
    expect(result.summary).toContain('1 done, 0 failed, 0 skipped');
    // The reviewed comment now says its plan was applied, once, with the marker intact.
    const [comment] = github.commentsOf(12);
    expect(comment!.body).toContain(`✅ Applied from commit ${MERGE_SHA.slice(0, 12)} ([run](https://github.com/acme/alerts/actions/runs/4242)): 1 done, 0 failed, 0 skipped.`);
    expect(comment!.body.startsWith(formatMarker({ hash: 'same', path: '.' }))).toBe(true);
    github.done();
  });

  it('refuses, with the reason and plan-changed=true, when the plan differs from the reviewed one', async () => {
    const github = mockGitHub();
    github.mergePull(12, MERGE_SHA);
    github.addComment(12, `${formatMarker({ hash: 'reviewed', path: '.' })}\nplan`);
    const reconciler = recordingReconciler('fresh');
    const result = await apply(reconciler);
    expect(result.exitCode).toBe(1);
    expect(reconciler.applied).toBe(0);
    expect(result.outputs['plan-changed']).toBe('true');
    expect(result.log).toMatch(/::error::refusing to apply: the plan differs from the one reviewed on #12 \(reviewed hash reviewed, now fresh\)/);
    expect(result.summary).toContain('alertform apply refused');
    github.done();
  });

  it('applies a changed plan when allow-plan-change is true, with a warning', async () => {
    const github = mockGitHub();
    github.mergePull(12, MERGE_SHA);
    github.addComment(12, `${formatMarker({ hash: 'reviewed', path: '.' })}\nplan`);
    const reconciler = recordingReconciler('fresh');
    const result = await apply(reconciler, { 'allow-plan-change': 'true' });
    expect(result.exitCode).toBe(0);
    expect(reconciler.applied).toBe(1);
    expect(result.outputs['plan-changed']).toBe('true');
    expect(result.log).toContain('::warning::applying anyway (allow-plan-change)');
    github.done();
  });

  it('refuses when no merged pull request brought the commit', async () => {
    const github = mockGitHub();
    const reconciler = recordingReconciler('x');
    const result = await apply(reconciler);
    expect(result.exitCode).toBe(1);
    expect(reconciler.applied).toBe(0);
    expect(result.log).toContain(`no merged pull request brought commit ${MERGE_SHA.slice(0, 12)}`);
    github.done();
  });
});
