import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/apply/run.js';
import type { AlertformClient } from '../../../src/client/api.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { runCli } from '../../helpers/run-cli.js';
import { copyExamples, fastClient, planDir } from './helpers.js';

let server: TestServer;
let client: AlertformClient;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  client = fastClient(server.authUrl);
  dir = copyExamples();
});
afterAll(() => server.close());

const ALERT = 'shop-checkout-degraded';

describe('escalation through validate, plan, apply and pull against the real server', { timeout: 120_000 }, () => {
  it('applies a policy as steps by id, plans clean, plans and applies a change of the policy, and pulls inline steps that plan clean', async () => {
    const first = await planDir(dir, client);
    expect(first.plan.problems).toEqual([]);
    expect((await applyPlan(first.plan, first.actual, client)).failed).toEqual([]);
    const channels = (await server.request('GET', '/v2/notifications/')).body.notifications as { id: string; description: string }[];
    const idOf = (description: string) => channels.find((c) => c.description === description)!.id;
    const read = async () => (await server.request('GET', `/v2/alerts/?name=${encodeURIComponent(ALERT)}`)).body.alerts[0];
    expect((await read()).escalation).toEqual([
      { after_minutes: 15, notification_channels: [idOf('shop-team-slack')] },
      { after_minutes: 45, notification_channels: [idOf('shop-ops-email'), idOf('shop-team-slack')] },
    ]);
    expect((await planDir(dir, client)).plan.changes).toEqual([]);

    // The policy's second step comes later: one update of the alert that names it, only its escalation.
    const file = join(dir, 'alerts-checkout.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('      - after: 45m', '      - after: 1h'));
    const changed = await planDir(dir, client);
    expect(changed.plan.changes.map((c) => [c.id, c.action === 'update' ? c.diffs.map((d) => d.path) : []])).toEqual([[`alert:${ALERT}:update`, ['escalation']]]);
    expect((await applyPlan(changed.plan, changed.actual, client)).failed).toEqual([]);
    expect((await read()).escalation[1].after_minutes).toBe(60);
    expect((await planDir(dir, client)).plan.changes).toEqual([]);

    const out = mkdtempSync(join(tmpdir(), 'af-pull-escalation-'));
    const pulled = await runCli(['pull', '--out', out, '--server', server.authUrl]);
    expect(pulled.code).toBe(0);
    const alerts = readFileSync(join(out, 'alerts.yaml'), 'utf8');
    expect(alerts).toContain('    escalation:\n      - after: 15m\n        notify:\n          - shop-team-slack\n      - after: 1h\n');
    expect(alerts).not.toContain('shop-payments-escalation');
    expect((await planDir(out, client)).plan.changes).toEqual([]);
  });
});
