import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { runCli, type CliResult } from '../../helpers/run-cli.js';
import { copyExamples } from './helpers.js';

const SECRETS = {
  SHOP_PAGERDUTY_KEY: 'pd-SECRET-e2e-0001',
  SHOP_SLACK_WEBHOOK: 'https://hooks.slack.com/services/T9/B9/SECRET-e2e-0002',
  SHOP_WEBHOOK_URL: 'https://hooks.example.com/SECRET-e2e-0003',
  SHOP_OPSGENIE_KEY: 'og-SECRET-e2e-0004',
  SHOP_OPS_EMAIL: 'secret-e2e-0005@example.com',
};

let server: TestServer;
let dir: string;
const outputs: string[] = [];

async function cli(args: string[]): Promise<CliResult> {
  const result = await runCli(args, { env: { ...SECRETS, ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key } });
  outputs.push(result.stdout, result.stderr);
  return result;
}

/**
 * The server's clock: real time moved back to the last Wednesday noon (UTC). The examples mute their hosts every
 * Sunday night (maintenance-windows.yaml) and two alerts on Tuesday and Thursday nights (schedules.yaml); at a
 * Wednesday noon none of them mutes anything, so what this file reads of mutes does not depend on the day it runs.
 */
function lastWednesdayNoon(now: Date): number {
  const daysBack = (now.getUTCDay() + 7 - 3) % 7;
  const noon = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysBack, 12);
  return noon > now.getTime() ? noon - 7 * 86_400_000 : noon;
}

beforeAll(async () => {
  const shift = lastWednesdayNoon(new Date()) - Date.now();
  server = await startTestServer({ now: () => Date.now() + shift });
  dir = copyExamples();
});
afterAll(() => server.close());

describe('the CLI against the real server', { timeout: 240_000 }, () => {
  it('plans with exit 2, refuses to apply without a terminal, applies a saved plan, then plans clean', async () => {
    const planFile = join(dir, 'plan.json');
    const planned = await cli(['plan', dir, '--out', planFile, '--detailed-exitcode']);
    expect(planned.stdout).toContain('Plan: 20 to create, 0 to update, 0 to mute, 0 to delete.');
    expect(planned.code).toBe(2);
    outputs.push(readFileSync(planFile, 'utf8'));

    const refused = await cli(['apply', dir]);
    expect(refused.stderr).toContain('refusing to apply without confirmation: not on a terminal; pass --auto-approve');
    expect(refused.code).toBe(1);

    const applied = await cli(['apply', planFile]);
    expect(applied.stdout).toMatch(/\[ ?\d+\/20\] ✓ create channel "shop-oncall-pagerduty" \(\d+ ms\)/);
    // n/N counts every step once, in the order they finish.
    const positions = [...applied.stdout.matchAll(/^ {2}\[ ?(\d+)\/20\] /gm)].map((m) => Number(m[1]));
    expect(positions).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(applied.stdout).toContain('Apply: 20 done, 0 failed, 0 skipped.');
    expect(applied.code).toBe(0);

    const clean = await cli(['plan', dir, '--json', '--detailed-exitcode']);
    expect(JSON.parse(clean.stdout)).toMatchObject({ formatVersion: 1, hasChanges: false, summary: { noOp: 20 } });
    expect(clean.code).toBe(0);
  });

  it('refuses a saved plan once the server changed, and applies a fresh one', async () => {
    const text = readFileSync(join(dir, 'alerts-api.yaml'), 'utf8');
    writeFileSync(join(dir, 'alerts-api.yaml'), text.replace('above_value: 800', 'above_value: 850'));
    const planFile = join(dir, 'stale.json');
    expect((await cli(['plan', dir, '--out', planFile])).code).toBe(0);
    outputs.push(readFileSync(planFile, 'utf8'));

    const alerts = await server.request('GET', '/v2/alerts/?name=shop-api-traffic-band');
    await server.request('PUT', `/v2/alerts/${alerts.body.alerts[0].id}/`, { info: 'edited by hand' });
    const stale = await cli(['apply', planFile]);
    expect(stale.stderr).toContain('plan is stale: the server changed since it was saved (alert "shop-api-traffic-band" changed)');
    expect(stale.code).toBe(1);

    const fresh = await cli(['apply', dir, '--auto-approve', '--json']);
    const body = JSON.parse(fresh.stdout);
    expect(body.result.done.sort()).toEqual(['alert:shop-api-latency-p99:update', 'alert:shop-api-traffic-band:update']);
    expect(fresh.code).toBe(0);
  });

  it('mutes and unmutes in bulk through the API, and refuses an empty selection', async () => {
    const muted = await cli(['mute', '--search', 'shop-host', '--duration', '45', '--json']);
    expect(muted.code).toBe(0);
    const ids = JSON.parse(muted.stdout).ids as string[];
    expect(ids).toHaveLength(2);
    const status = await server.request('GET', `/v2/alerts/${ids[0]}/muted/`);
    expect(status.body).toMatchObject({ muted: true, duration: 45 });
    const unmuted = await cli(['unmute', '--id', ids[0]!, '--id', ids[1]!]);
    expect(unmuted.stdout).toBe('Unmuted 2 alert(s).\n');
    expect((await server.request('GET', `/v2/alerts/${ids[0]}/muted/`)).body.muted).toBe(false);
    const none = await cli(['mute', '--duration', '5']);
    expect(none.stderr).toContain('say which alerts: their names, --id ID (repeatable), --search TEXT, or --all');
    expect(none.code).toBe(1);
    const tooLong = await cli(['mute', '--all', '--duration', '525601']);
    expect(tooLong.stderr).toContain('--duration must be a duration from 1 minute to 525600 minutes');
    expect(tooLong.code).toBe(1);
  });

  it('never prints a secret or the API key', () => {
    expect(outputs.length).toBeGreaterThan(10);
    const all = outputs.join('\n');
    for (const secret of [...Object.values(SECRETS), server.key]) expect(all).not.toContain(secret);
    expect(all).toContain('(sensitive)');
  });
});
