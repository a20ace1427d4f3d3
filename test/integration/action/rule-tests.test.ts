import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlannedRun, Reconciler } from '../../../src/action/port.js';
import { fakeRun } from '../../unit/action/fake-plan.js';
import { runAction } from '../../../src/action/run.js';
import { createRunnerFiles, pullRequestEvent, runInProcess } from '../../helpers/action-run.js';
import { createGitRepo, type TempGitRepo } from '../../helpers/git-repo.js';
import { mockGitHub } from '../../helpers/github-mock.js';
import { nockForThisFile } from '../../helpers/nock-for-this-file.js';

nockForThisFile();

// The Action runs the rule tests (*.test.yaml) with every plan: results in the comment, a failure fails the job.

const plan: PlannedRun = fakeRun([], 'h1');
const reconciler: Reconciler = { plan: async () => plan };

const ALERTS = 'alerts:\n  - {name: cpu, metric: web.cpu, alert_criteria: {type: above, above_value: 90}, notification_type: state_change}\n';

describe('rule tests in the Action', () => {
  let repo: TempGitRepo;
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => {
    repo?.cleanup();
  });

  it('runs them with the plan, shows each in the comment, and fails the job on a failing test', async () => {
    repo = await createGitRepo();
    const base = await repo.commit({ 'alerts.yaml': ALERTS }, 'base');
    const head = await repo.commit(
      {
        'alerts.test.yaml': `tests:
  - {name: fires, alert: cpu, input_series: [{series: web.cpu, values: "10 95 95"}], expect: [{at: 1m, status: alerting}]}
  - {name: wrong, alert: cpu, input_series: [{series: web.cpu, values: "10 95"}], expect: [{at: 1m, status: healthy}]}
`,
      },
      'tests',
    );
    const github = mockGitHub();
    const files = createRunnerFiles();
    try {
      const vars = files.env({
        eventName: 'pull_request',
        event: pullRequestEvent({ number: 3, baseSha: base, headSha: head }),
        inputs: { command: 'plan', path: '.', 'api-key': 'k', 'github-token': 'ghs_tok', comment: 'true' },
      });
      const result = await runInProcess(vars, files, () => runAction({ cwd: repo.dir, reconciler }));
      const body = github.commentsOf(3)[0]!.body;
      expect(body).toContain('#### Rule tests: 1 passed, 1 failed, 0 not run');
      expect(body).toContain('- ✅ `fires` (`alerts.test.yaml:2`)');
      expect(body).toContain('- ❌ `wrong` (`alerts.test.yaml:3`): `alerts.test.yaml:3` at 1m: expected healthy, got alerting');
      expect(result.summary).toContain('#### Rule tests: 1 passed, 1 failed, 0 not run');
      expect(result.log).toContain('::error::Rule tests: 1 passed, 1 failed, 0 not run: see the job summary');
      expect(result.exitCode).toBe(1);
    } finally {
      files.cleanup();
    }
  });
});
