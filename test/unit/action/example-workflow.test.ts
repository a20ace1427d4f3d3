import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

// The example workflow is what users copy: keep it in step with action.yml and with what the Action needs.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const workflow = parse(readFileSync(`${ROOT}examples/workflows/alertform.yml`, 'utf8'));
const action = parse(readFileSync(`${ROOT}action.yml`, 'utf8'));

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}

const actionSteps = (job: { steps: Step[] }) => job.steps.filter((s) => s.uses?.startsWith('alertform/'));

describe('the example workflow', () => {
  it('plans on pull requests and applies on pushes to main', () => {
    expect(workflow.on.pull_request).toBeDefined();
    expect(workflow.on.push.branches).toEqual(['main']);
    expect(actionSteps(workflow.jobs.plan)[0]!.with!.command).toBe('plan');
    expect(actionSteps(workflow.jobs.apply)[0]!.with!.command).toBe('apply');
  });

  it('grants exactly the permissions the Action needs', () => {
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
  });

  it('never runs two applies at once and never cancels one half way', () => {
    expect(workflow.jobs.apply.concurrency).toEqual({ group: 'alertform-apply', 'cancel-in-progress': false });
  });

  it('checks out full history for the changed-files table and uploads the plan file', () => {
    const plan = workflow.jobs.plan.steps as Step[];
    expect(plan.find((s) => s.uses?.startsWith('actions/checkout'))!.with!['fetch-depth']).toBe(0);
    expect(plan.find((s) => s.uses?.startsWith('actions/upload-artifact'))!.with!.name).toBe('alertform-plan');
  });

  it('passes only inputs that action.yml declares, and the key from a secret', () => {
    for (const job of [workflow.jobs.plan, workflow.jobs.apply]) {
      for (const step of actionSteps(job)) {
        for (const name of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs)).toContain(name);
        expect(step.with!['api-key']).toMatch(/^\$\{\{ secrets\./);
      }
    }
  });

  it('runs the bundle on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'action/dist/index.mjs' });
  });
});
