import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { NO_SMTP_WARNING } from '../../../src/server/outbox/delivery-service.js';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

/** A definitions directory with an email channel and an alert that notifies it. */
function emailProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'af-plan-smtp-'));
  writeFileSync(
    join(dir, 'alerts.yaml'),
    [
      'channels:',
      '  - description: ops mail',
      '    type: email',
      '    destination: ops@example.com',
      'alerts:',
      '  - name: cpu hot',
      '    metric: web.cpu',
      '    alert_criteria: {type: above, above_value: 90}',
      '    notification_channels: [ops mail]',
      '  - name: disk full',
      '    metric: web.disk',
      '    alert_criteria: {type: above, above_value: 90}',
      '',
    ].join('\n'),
  );
  return dir;
}

async function planAgainst(options: Parameters<typeof startTestServer>[0], args: string[] = []) {
  const server = await startTestServer(options);
  servers.push(server);
  return runCli(['plan', emailProject(), ...args], { env: { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key } });
}

describe('plan and the server it plans against', { timeout: 60_000 }, () => {
  it('warns, as the server says in /readyz, that email cannot be delivered by a server without --smtp-url', async () => {
    const planned = await planAgainst({});
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain(`warning: the server says: ${NO_SMTP_WARNING} (alerts "cpu hot" notify an email channel)`);
    const json = await planAgainst({}, ['--json']);
    expect((JSON.parse(json.stdout) as { warnings: string[] }).warnings).toContain(`the server says: ${NO_SMTP_WARNING} (alerts "cpu hot" notify an email channel)`);
  });

  it('says nothing of the kind against a server that sends email', async () => {
    const planned = await planAgainst({ smtpUrl: 'smtp://127.0.0.1:25' });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('Plan: ');
    expect(planned.stdout).not.toContain('the server says');
  });
});
