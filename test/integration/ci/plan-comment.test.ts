import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMarker } from '../../../src/action/comment.js';
import { composePlanComment } from '../../../src/action/compose.js';
import { runRuleTestsForAction } from '../../../src/action/run-rule-tests.js';
import { fingerprintPlan } from '../../../src/plan/fingerprint.js';
import { planProject } from '../../../src/plan/plan-project.js';
import { runCli } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

describe('plan --format markdown and --out-comment', { timeout: 120_000 }, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('write exactly the comment the Action composes, rule tests included, and nothing secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-comment-'));
    const file = join(dir, 'comment.md');
    const env = { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key, SHOP_SLACK_WEBHOOK: 'https://hooks.slack.com/services/T1/B2/very-secret-hook' };
    const markdown = await runCli(['plan', 'examples', '--format', 'markdown', '--out-comment', file], { env });
    expect(markdown.stderr).toBe('');
    expect(markdown.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(markdown.stdout);

    // The same composition as the Action's, from the same plan, computed here.
    const planned = await planProject({ dir: 'examples', env: { ...process.env, ...env }, server: { given: {}, trustProjectServer: false, missingHint: '' } });
    if (planned.status !== 'planned') throw new Error('examples do not plan');
    const plan = planned.plan;
    const hash = fingerprintPlan(plan);
    const tests = await runRuleTestsForAction('examples', process.cwd(), process.env);
    expect(tests).toBeDefined();
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const expected = composePlanComment({ marker: formatMarker({ hash, path: 'examples' }), path: 'examples', plan, hash, ruleTests: tests!.markdown, sha });
    expect(markdown.stdout).toContain(`commit ${sha.slice(0, 12)}`);
    expect(markdown.stdout).toBe(`${expected}\n`);
    expect(markdown.stdout).toContain('Rule tests:');
    expect(markdown.stdout).not.toContain('very-secret-hook');
    expect(markdown.stdout).not.toContain(server.key);
  });

  it('writes the comment of a plan that could not be computed, and still fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-comment-'));
    const file = join(dir, 'comment.md');
    const result = await runCli(['plan', 'examples', '--out-comment', file], { env: { ALERTFORM_URL: 'http://secret-key-123@127.0.0.1:9', ALERTFORM_API_KEY: '' } });
    expect(result.code).toBe(1);
    const body = readFileSync(file, 'utf8');
    expect(body).toMatch(/^<!-- alertform-plan hash=error path=examples -->/);
    expect(body).toContain('The plan could not be computed');
    expect(body).not.toContain('secret-key-123');
  });

  it('refuses an unknown format in one line', async () => {
    const result = await runCli(['plan', 'examples', '--format', 'html']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('alertform: --format must be one of text, json, markdown, not "html"\n');
  });
});
