import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const cli = (args: string[]): Promise<CliResult> => runCli(args, { env: { ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key } });

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('the CLI against the real server', { timeout: 180_000 }, () => {
  it('mutes and unmutes by alert name, with --duration in the duration grammar', async () => {
    const created = await server.request('POST', '/v2/alerts/', { name: 'Disk full', metric: 'disk.used', alert_criteria: { type: 'above', above_value: 90 } });
    const id = created.body.id as string;
    const muted = await cli(['mute', 'Disk full', '--duration', '2h']);
    expect(muted.stderr).toBe('');
    expect(muted.stdout).toBe('Muted 1 alert(s) for 120 minutes.\n');
    expect((await server.request('GET', `/v2/alerts/${id}/muted/`)).body).toMatchObject({ muted: true, duration: 120 });
    // A bare number stays minutes, as it always was; the grammar's units work alike.
    expect((await cli(['mute', '--id', id, '--duration', '90'])).stdout).toBe('Muted 1 alert(s) for 90 minutes.\n');
    expect((await cli(['mute', '--id', id, '--duration', '1d'])).stdout).toBe('Muted 1 alert(s) for 1440 minutes.\n');
    const refused = await cli(['mute', 'Disk full', '--duration', 'soon']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--duration must be a duration from 1 minute to 525600 minutes, such as 90 (minutes), 2h or 1d, not "soon"');
    const unknown = await cli(['mute', 'Disk full', 'No such alert', '--duration', '2h']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no alert named "No such alert" on the server (nothing changed)');
    const unmuted = await cli(['unmute', 'Disk full']);
    expect(unmuted.stdout).toBe('Unmuted 1 alert(s).\n');
    expect((await server.request('GET', `/v2/alerts/${id}/muted/`)).body.muted).toBe(false);
  });

  it('validate names a channel that is not in the files at file:line; plan refuses it with no diff', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-rough-'));
    writeFileSync(
      join(dir, 'alerts.yaml'),
      'alerts:\n  - name: cpu hot\n    metric: web.cpu\n    alert_criteria: {type: above, above_value: 90}\n    notification_channels:\n      - pagr-oncall\n',
    );
    const validated = await runCli(['validate', dir]);
    expect(validated.code).toBe(0);
    expect(validated.stderr).toBe(`warning: ${dir}/alerts.yaml:6:9  alerts.0.notification_channels.0  channel "pagr-oncall" is not in these files: plan checks that the server has it\n`);
    expect(validated.stdout).toBe("Valid: 1 alert(s), 0 channel(s), 0 schedule(s) in 1 file(s); 1 channel reference(s) not in the files, for plan to check on the server.\n");

    const planned = await cli(['plan', dir]);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(`error: ${dir}/alerts.yaml:6:9  alerts.0.notification_channels.0  no channel "pagr-oncall" in these files or on the server`);
    expect(planned.stdout).toContain('No plan: 1 error(s) above; fix them and plan again.');
    // No diff under the error: nothing that reads as a change to make.
    expect(planned.stdout).not.toMatch(/will perform|^\s+\+ |Plan: /m);
  });

  it('plan warns that an alert without channels goes to an `Email me` without an address', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-rough-'));
    writeFileSync(join(dir, 'alerts.yaml'), 'alerts:\n  - name: nobody told\n    metric: web.cpu\n    alert_criteria: {type: above, above_value: 90}\n');
    const planned = await cli(['plan', dir]);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain(
      'warning: alert "nobody told" names no channel: the server sends it to "Email me", which has no address, so its notifications will be dead-lettered; add notification_channels',
    );
  });
});
