import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const PD_KEY = 'pd-S3CRET-templates';

function cli(args: string[]): Promise<CliResult> {
  return runCli(args, { env: { PD_KEY, ALERTFORM_URL: server.url, ALERTFORM_API_KEY: server.key } });
}

function definitions(title: string): string {
  return `channels:
  - description: pager
    type: pagerduty
    destination: \${PD_KEY}
    template:
      title: ${JSON.stringify(title)}
      body: |
        {{#triggered}}{{metric}} is {{value}}
        {{/triggered}}{{info}}
alerts:
  - name: root disk
    metric: hosts.*.disk.root
    alert_criteria: {type: above, above_value: 95}
    notification_channels: [pager]
    info: Clean /var/log first.
    pagerduty_severity: warning
    opsgenie_priority: P2
`;
}

describe('templates in git', { timeout: 240_000 }, () => {
  it('validate reports a bad template at file:line:column inside the YAML string, and exits non-zero', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-tmpl-'));
    writeFileSync(join(dir, 'defs.yaml'), definitions('{{name}} at {{valeu}}'));
    const result = await cli(['validate', dir]);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      'defs.yaml:6:27  channels.0.template.title  unknown field "valeu"; known fields:',
    );
    expect(result.stdout + result.stderr).not.toContain(PD_KEY);
  });

  it('applies a template and severity, plans clean after, and previews the page a changed template will send', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'af-tmpl-'));
    writeFileSync(join(dir, 'defs.yaml'), definitions('{{name}}: {{value}}'));
    expect((await cli(['validate', dir])).code).toBe(0);
    const applied = await cli(['apply', dir, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('What the templated messages will say:');
    expect(applied.stdout).toContain('title: root disk: 96');

    const again = await cli(['plan', dir, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);

    const alerts = await server.request('GET', '/v2/alerts/');
    expect(alerts.body.alerts[0]).toMatchObject({ pagerduty_severity: 'warning', opsgenie_priority: 'P2' });
    const channels = await server.request('GET', '/v2/notifications/?description=pager');
    expect(channels.body.notifications[0].template).toEqual({ title: '{{name}}: {{value}}', body: '{{#triggered}}{{metric}} is {{value}}\n{{/triggered}}{{info}}\n' });

    writeFileSync(join(dir, 'defs.yaml'), definitions('PAGE {{name}} ({{criteria}})'));
    const changed = await cli(['plan', dir, '--detailed-exitcode']);
    expect(changed.code).toBe(2);
    expect(changed.stdout).toContain('pagerduty "pager" with a sample alert:');
    expect(changed.stdout).toContain('title: PAGE Sample alert (above 90 for 5 minutes)');
    const json = JSON.parse((await cli(['plan', dir, '--json'])).stdout);
    expect(json.previews).toEqual([
      {
        changeId: 'channel:pager:update',
        channel: 'pager',
        type: 'pagerduty',
        subject: 'sample',
        alert: 'Sample alert',
        title: 'PAGE Sample alert (above 90 for 5 minutes)',
        body: 'servers.web-1.cpu is 91\nA sample alert: this is how the channel will show a real one.\n',
      },
    ]);
    for (const output of [applied.stdout, changed.stdout, JSON.stringify(json)]) expect(output).not.toContain(PD_KEY);
  });
});
