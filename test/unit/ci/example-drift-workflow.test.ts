import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The scheduled drift check users copy to .github/workflows/; its step runs for real, against a stand-in GitHub,
// in test/integration/ci/github-drift.test.ts.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const workflow = parse(readFileSync(`${ROOT}examples/workflows/alertform-drift.yml`, 'utf8'));

describe('the example drift-check workflow', () => {
  it('runs on a schedule and by hand, with issues: write and nothing more', () => {
    expect(workflow.on.schedule[0].cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    expect(workflow.on).toHaveProperty('workflow_dispatch');
    expect(workflow.permissions).toEqual({ contents: 'read', issues: 'write' });
  });

  it('plans with --detailed-exitcode, posts the one issue, and fails the run on drift', () => {
    const run = workflow.jobs.drift.steps.find((s: { run?: string }) => s.run?.includes('alertform plan')).run as string;
    expect(run).toMatch(/alertform plan \. --detailed-exitcode --out-comment "\$RUNNER_TEMP\/alertform-drift\.md" \|\| status=\$\?/);
    expect(run).toContain('alertform comment github "$RUNNER_TEMP/alertform-drift.md" --issue');
    expect(run).toMatch(/exit "\$status"\s*$/);
    const env = workflow.jobs.drift.steps.find((s: { run?: string }) => s.run?.includes('alertform plan')).env;
    expect(env.ALERTFORM_API_KEY).toMatch(/^\$\{\{ secrets\./);
    expect(env.GITHUB_TOKEN).toBe('${{ github.token }}');
  });
});
