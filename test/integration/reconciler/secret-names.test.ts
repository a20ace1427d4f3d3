import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// The CLI end to end with a `${VAR}` in an alert's name and in a channel's description: plan, plan --json,
// plan --out, apply of the saved plan and its --json result. The secret is in no output and no file, and the
// saved plan still applies (apply reads the values again from the environment and compares fingerprints).

const NAME_SECRET = 'tenant-e2e-77aa55cc';
const DESC_SECRET = 'pager-e2e-11bb33dd';

describe('secrets in names and descriptions through the CLI', { timeout: 120_000 }, () => {
  let server: TestServer;
  let dir: string;
  const outputs: string[] = [];

  async function cli(args: string[]): Promise<CliResult> {
    const result = await runCli(args, {
      env: { TENANT: NAME_SECRET, PAGER: DESC_SECRET, ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key },
    });
    outputs.push(result.stdout, result.stderr);
    return result;
  }

  beforeAll(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'af-secret-names-'));
    writeFileSync(
      join(dir, 'alerts.yaml'),
      'channels:\n  - {description: "${PAGER}", type: email, destination: ops@example.com}\n' +
        'alerts:\n  - name: "cpu-${TENANT}"\n    metric: hosts.cpu\n    alert_criteria: {type: above, above_value: 90}\n    notification_channels: ["${PAGER}"]\n',
    );
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plans, saves, and applies the saved plan without printing or writing the secret', async () => {
    const text = await cli(['plan', dir]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('+ create alert "(sensitive)"');
    const json = await cli(['plan', dir, '--json']);
    expect(JSON.parse(json.stdout).changes.map((c: { key: string }) => c.key)).toEqual(['(sensitive)', '(sensitive)']);
    const planFile = join(dir, 'plan.json');
    expect((await cli(['plan', dir, '--out', planFile])).code).toBe(0);
    outputs.push(readFileSync(planFile, 'utf8'));

    const applied = await cli(['apply', planFile, '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout).result.done).toEqual(['channel:(sensitive):create', 'alert:(sensitive):create']);
    const alerts = await server.request('GET', '/v2/alerts/');
    expect((alerts.body.alerts as { name: string }[]).map((a) => a.name)).toContain(`cpu-${NAME_SECRET}`);

    // A second saved plan lists the now existing objects among what it read: still masked.
    const again = await cli(['plan', dir, '--out', planFile]);
    expect(again.stdout).toContain('No changes');
    outputs.push(readFileSync(planFile, 'utf8'));
  });

  it('shows the secret nowhere', () => {
    const all = outputs.join('\n');
    expect(all).not.toContain(NAME_SECRET);
    expect(all).not.toContain(DESC_SECRET);
    expect(all).toContain('(sensitive)');
  });
});
